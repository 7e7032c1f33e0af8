// The library as the browser receives it (the JSON of GET /api/sessions, built by lib/server/list-sessions).

export interface LibrarySession {
  path: string;
  project: string;
  id: string | null;
  cwd: string | null;
  timestamp: string | null;
  name: string | null;
  named: boolean;
  entryCount: number;
  branchCount?: number;
  size: number;
  mtime: string;
  hasHeader: boolean;
}

export type LibrarySource = "directory" | "samples";

export interface ProjectGroup {
  /** the header cwd, or the project folder when no header says */
  key: string;
  cwd: string | null;
  project: string;
  sessions: LibrarySession[];
}
