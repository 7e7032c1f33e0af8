// The library the app shows: the configured sessions directory, or the bundled samples when it holds none.
import { listSessions, type SessionListing } from "./list-sessions";
import { displayDir, samplesDir, sessionsDir } from "./sessions-dir";

export type LibrarySource = "directory" | "samples";

export interface Library {
  source: LibrarySource;
  /** the directory the sessions are read from (absolute) */
  dir: string;
  /** the configured sessions directory, as shown to the user (`~/…`) */
  configuredDir: string;
  sessions: SessionListing[];
}

export async function loadLibrary(configured: string = sessionsDir(), samples: string = samplesDir()): Promise<Library> {
  const sessions = await listSessions(configured);
  if (sessions.length > 0) return { source: "directory", dir: configured, configuredDir: displayDir(configured), sessions };
  return { source: "samples", dir: samples, configuredDir: displayDir(configured), sessions: await listSessions(samples) };
}
