// The library the app shows: the archive when PI_VIEWER_DATABASE_URL names one, else the configured sessions
// directory, or the bundled samples when it holds none. Whichever it is, routes list its files, resolve the path a
// page names, and open what they resolved (safe-path.ts openSessionFile) the same way.
import type pg from "pg";
import { archivedSessionFiles, resolveArchivedPath } from "./archive/archive-store";
import { keepSummaries, takeKeptSummaries } from "./archive/archived-summaries";
import { shownUrl } from "./archive/archive-error";
import { servedArchive } from "./archive/served-archive";
import { describeSessions, findSessionFiles, holdsSessionFile, type SessionListing } from "./list-sessions";
import { resolveSessionPath, type ResolvedSessionFile } from "./safe-path";
import { displayDir, samplesDir, sessionsDir } from "./sessions-dir";

export type LibrarySource = "directory" | "samples" | "archive";

/** Where sessions come from right now, and how a path a page names is found there. */
export interface SessionStore {
  source: LibrarySource;
  /** the directory the sessions are read from (absolute); for the archive a key naming it (nothing is read there) */
  dir: string;
  /** where the sessions come from, as shown to the user (`~/…`, or the archive's URL without its password) */
  configuredDir: string;
  /** the archive's pool when the sessions are the archive's (its index is asked there), else null */
  archive: pg.Pool | null;
  /** the file a page names, checked (a typed SessionPathError when it is refused or missing) */
  resolve(rel: unknown): Promise<ResolvedSessionFile>;
}

export interface LibraryRoot extends SessionStore {
  files: ResolvedSessionFile[];
}

export interface Library extends Omit<LibraryRoot, "files" | "resolve" | "archive"> {
  sessions: SessionListing[];
}

function directoryStore(source: "directory" | "samples", dir: string, configured: string): SessionStore {
  return { source, dir, configuredDir: displayDir(configured), archive: null, resolve: (rel) => resolveSessionPath(dir, rel) };
}

async function archiveStore(): Promise<SessionStore | null> {
  const opening = servedArchive();
  if (!opening) return null;
  const { pool, url } = await opening;
  return {
    source: "archive",
    dir: `archive:${shownUrl(url)}`,
    configuredDir: shownUrl(url),
    archive: pool,
    resolve: (rel) => resolveArchivedPath(pool, rel),
  };
}

/**
 * Where session files are served from right now, found without listing them all (the configured directory's first
 * session file decides).
 */
export async function sessionRoot(configured: string = sessionsDir(), samples: string = samplesDir()): Promise<SessionStore> {
  const archive = await archiveStore();
  if (archive) return archive;
  if (await holdsSessionFile(configured)) return directoryStore("directory", configured, configured);
  return directoryStore("samples", samples, configured);
}

/**
 * Where sessions come from right now, with their files; cheap (listings and stats, or two queries: the archive's
 * files, and the summaries it keeps of those this server has not described yet; no file is read).
 */
export async function libraryRoot(configured: string = sessionsDir(), samples: string = samplesDir()): Promise<LibraryRoot> {
  const archive = await archiveStore();
  if (archive) {
    const files = await archivedSessionFiles(archive.archive!);
    await takeKeptSummaries(archive.archive!, files);
    return { ...archive, files };
  }
  const files = await findSessionFiles(configured);
  if (files.length > 0) return { ...directoryStore("directory", configured, configured), files };
  return { ...directoryStore("samples", samples, configured), files: await findSessionFiles(samples) };
}

/** The library with every session described (summaries are cached by path, size and mtime; the archive keeps its files'). */
export async function loadLibrary(configured?: string, samples?: string): Promise<Library> {
  const { source, dir, configuredDir, files, archive } = await libraryRoot(configured, samples);
  const sessions = await describeSessions(files, dir);
  if (archive) await keepSummaries(archive, files);
  return { source, dir, configuredDir, sessions };
}
