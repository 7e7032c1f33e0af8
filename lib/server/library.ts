// The library the app shows: the configured sessions directory, or the bundled samples when it holds none.
import { describeSessions, findSessionFiles, holdsSessionFile, type SessionListing } from "./list-sessions";
import type { ResolvedSessionFile } from "./safe-path";
import { displayDir, samplesDir, sessionsDir } from "./sessions-dir";

export type LibrarySource = "directory" | "samples";

export interface LibraryRoot {
  source: LibrarySource;
  /** the directory the sessions are read from (absolute) */
  dir: string;
  /** the configured sessions directory, as shown to the user (`~/…`) */
  configuredDir: string;
  files: ResolvedSessionFile[];
}

export interface Library extends Omit<LibraryRoot, "files"> {
  sessions: SessionListing[];
}

/**
 * Where session files are served from right now: libraryRoot without its files, found without listing them all
 * (the configured directory's first session file decides).
 */
export async function sessionRoot(configured: string = sessionsDir(), samples: string = samplesDir()): Promise<Omit<LibraryRoot, "files">> {
  if (await holdsSessionFile(configured)) return { source: "directory", dir: configured, configuredDir: displayDir(configured) };
  return { source: "samples", dir: samples, configuredDir: displayDir(configured) };
}

/** Where sessions come from right now; cheap (directory listings and stats, no file is read). */
export async function libraryRoot(configured: string = sessionsDir(), samples: string = samplesDir()): Promise<LibraryRoot> {
  const files = await findSessionFiles(configured);
  if (files.length > 0) return { source: "directory", dir: configured, configuredDir: displayDir(configured), files };
  return { source: "samples", dir: samples, configuredDir: displayDir(configured), files: await findSessionFiles(samples) };
}

/** The library with every session described (summaries are cached by path, size and mtime). */
export async function loadLibrary(configured?: string, samples?: string): Promise<Library> {
  const { files, ...root } = await libraryRoot(configured, samples);
  return { ...root, sessions: await describeSessions(files, root.dir) };
}
