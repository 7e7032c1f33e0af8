// One row of the sessions library: the JSON that GET /api/sessions sends (built by lib/server/list-sessions)
// and the library page reads. Types only, so both the server and the browser can share them.

export interface SessionListing {
  /** relative to the sessions directory, "/"-separated: what /api/sessions/raw and /view?file= take */
  path: string;
  /** the project folder (`--home-dev-app--`), "" for files at the top */
  project: string;
  /** the machine that pushed it, when the library is an archive's (then `path` begins with it) */
  machine?: string;
  id: string | null;
  cwd: string | null;
  /** header timestamp (creation), ISO */
  timestamp: string | null;
  /** what to call the session: its session_info name, else its first user message */
  name: string | null;
  /** true when `name` is a session_info name (not the first message) */
  named: boolean;
  entryCount: number;
  /** entryCount is estimated from the start and end of a big file (the library reads bounded bytes per file) */
  entryCountEstimated?: boolean;
  branchCount?: number;
  size: number;
  /** last modification of the file, ISO */
  mtime: string;
  /** false when the file does not start with a session header pi accepts */
  hasHeader: boolean;
  /** the session this one was forked from, in this library (its header's link, found by path or session id) */
  forkOf?: { path: string; name: string | null };
  /** what the header names as this fork's source when the library does not hold it (a path, or a v4 session id) */
  forkOfMissing?: string;
  /** sessions forked from this one, newest activity first */
  forks?: string[];
}
