// The library as the browser receives it (the JSON of GET /api/sessions, built by lib/server/list-sessions).
import type { SessionListing } from "@/lib/library/session-listing";

export type LibrarySession = SessionListing;

export type LibrarySource = "directory" | "samples" | "archive";

export interface ProjectGroup {
  /** the machine and the header cwd, or the project folder when no header says */
  key: string;
  /** the machine that pushed the sessions, in an archive's library */
  machine?: string;
  cwd: string | null;
  project: string;
  /** newest first */
  sessions: LibrarySession[];
  /** the same sessions as family trees (a fork under its source), what the list shows */
  rows: FamilyRow[];
}

export interface FamilyRow {
  session: LibrarySession;
  /** 0 for a family's first session here, 1 for its forks, 2 for theirs… */
  depth: number;
}
