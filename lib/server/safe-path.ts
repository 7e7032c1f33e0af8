// Turns a client-supplied session path into a file inside the sessions directory, or a typed refusal,
// and opens it without following a link swapped in after the check.
// Error messages never hold absolute paths or file content.
import { constants, type Stats } from "node:fs";
import { open, realpath, stat, type FileHandle } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";

export type SessionPathErrorCode = "invalid" | "forbidden" | "not-found" | "too-large";

export class SessionPathError extends Error {
  constructor(
    readonly code: SessionPathErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "SessionPathError";
  }
}

const STATUS: Record<SessionPathErrorCode, number> = { invalid: 400, forbidden: 403, "not-found": 404, "too-large": 413 };

export function httpStatus(error: SessionPathError): number {
  return STATUS[error.code];
}

/**
 * pi's layout is `<project folder>/<file>.jsonl` or a file at the top; nothing deeper is listed or served. An
 * archive's files have their machine in front (`<machine>/<project folder>/<file>.jsonl`): one segment more.
 */
export const DIRECTORY_SEGMENTS = 2;
export const ARCHIVE_SEGMENTS = 3;
const MAX_LENGTH = 1024;

/** What a session file's identity and size are read as: a local file's Stats, or an archived file's. */
export interface SessionFileStats {
  size: number;
  mtimeMs: number;
  dev: number;
  ino: number;
}

/**
 * What lib/server reads a session file through, whatever holds it: a local file's FileHandle, or an archived
 * file's reader (lib/server/archive/archived-file-handle.ts), which answers the same calls.
 */
export interface SessionFileHandle {
  read<T extends Uint8Array>(buffer: T, offset: number, length: number, position: number): Promise<{ bytesRead: number; buffer: T }>;
  stat(): Promise<SessionFileStats>;
  close(): Promise<void>;
  createReadStream(options?: { start?: number; end?: number; highWaterMark?: number; autoClose?: boolean }): Readable;
}

/** How an archived file's `file` begins (`archive:<machine>/<path>`): a key in the server's caches, never a path. */
export const ARCHIVED_KEY = "archive:";

/** A file held by the archive, not this machine's: how to open it, and where it came from. */
export interface ArchivedSource {
  machine: string;
  /** the file's row in the archive */
  fileId: number;
  /** the sessions directory it was pushed from, absolute on its machine */
  root: string;
  /** opens the file as the archive holds it now; refused (SessionPathError "forbidden") when it was replaced since */
  open(): Promise<SessionFileHandle>;
  /** its size and identity as the archive holds it now, null when it holds it no more */
  stat(): Promise<SessionFileStats | null>;
  /** calls `changed` after each push that wrote it, until the returned stop is called */
  watch(changed: () => void): () => void;
}

export interface ResolvedSessionFile {
  /** real absolute path (symlinks resolved) */
  file: string;
  /** the path as the client named it: relative, "/"-separated */
  rel: string;
  size: number;
  mtimeMs: number;
  /** identity of the checked file: the file opened later must be this one */
  dev: number;
  ino: number;
  /** set for a file the archive holds (then `file` is a key, `archive:<rel>`, never a path) */
  archived?: ArchivedSource;
}

/**
 * Checks the text of a relative session path. The query string was decoded
 * once already; anything still percent-encoded is refused, never decoded again,
 * so `%2e%2e%2f` (or `%252e`, encoded twice) cannot turn into `../` behind the check.
 */
export function checkSessionPath(rel: unknown, maxSegments: number = DIRECTORY_SEGMENTS): string[] {
  if (typeof rel !== "string" || rel.length === 0) throw new SessionPathError("invalid", "a session path is required");
  if (rel.length > MAX_LENGTH) throw new SessionPathError("invalid", "the session path is too long");
  // C0/C1 controls (NUL ends a C string early), and invisible format characters that make a name look like another
  if (/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/.test(rel))
    throw new SessionPathError("invalid", "the session path contains control or invisible characters");
  if (rel.includes("\\")) throw new SessionPathError("invalid", "use / to separate path segments");
  if (rel.startsWith("/") || /^[A-Za-z]:/.test(rel)) throw new SessionPathError("invalid", "the path must be relative to the sessions directory");
  if (/%[0-9A-Fa-f]{2}/.test(rel)) throw new SessionPathError("invalid", "the session path contains percent-encoded characters");
  const segments = rel.split("/");
  if (segments.length > maxSegments)
    throw new SessionPathError(
      "invalid",
      maxSegments === DIRECTORY_SEGMENTS ? "session files sit at most one folder deep" : "archived session files are named <machine>/<project folder>/<file>",
    );
  for (const segment of segments) {
    if (segment === "" || segment === "." || segment === "..") throw new SessionPathError("invalid", "empty, . and .. path segments are not allowed");
  }
  if (!rel.endsWith(".jsonl")) throw new SessionPathError("invalid", "only .jsonl session files can be opened");
  return segments;
}

/**
 * Why a file that lies inside the directory is still not served, or null.
 * Only regular files: a FIFO would block the reader forever, a device (a link to
 * /dev/zero, /dev/random) never ends. A regular file with more than one hard link
 * may be another name of a file outside the directory (a hard link cannot be told
 * from the original by its path), and pi never hard-links its sessions, so it is refused.
 */
function refusal(stats: Stats): string | null {
  if (!stats.isFile()) return "not a regular file (FIFOs, devices and sockets are not served)";
  if (stats.nlink > 1) return "the file has several hard links, so it may be a file from outside the sessions directory";
  return null;
}

/**
 * Resolves `rel` inside `dir`. The file's real path (symlinks in any component
 * followed) must lie inside the real path of `dir` and be a regular, singly
 * linked file.
 */
export async function resolveSessionPath(dir: string, rel: unknown): Promise<ResolvedSessionFile> {
  const segments = checkSessionPath(rel);
  let realDir: string;
  try {
    realDir = await realpath(dir);
  } catch {
    throw new SessionPathError("not-found", "the sessions directory does not exist");
  }
  let real: string;
  try {
    real = await realpath(path.join(realDir, ...segments));
  } catch {
    throw new SessionPathError("not-found", "no such session file");
  }
  if (!real.startsWith(realDir + path.sep)) throw new SessionPathError("forbidden", "the path leads outside the sessions directory");
  if (!real.endsWith(".jsonl")) throw new SessionPathError("forbidden", "the path is a link to a file that is not a .jsonl session file");
  const stats = await stat(real).catch(() => null);
  if (!stats || stats.isDirectory()) throw new SessionPathError("not-found", "no such session file");
  const why = refusal(stats);
  if (why) throw new SessionPathError("forbidden", why);
  return { file: real, rel: segments.join("/"), size: stats.size, mtimeMs: stats.mtimeMs, dev: stats.dev, ino: stats.ino };
}

/**
 * Opens a resolved file for reading. O_NOFOLLOW refuses a symlink put in its
 * place after the check, O_NONBLOCK keeps a FIFO put there from blocking the
 * open, and the opened file must be the very file that was checked.
 */
export function openSessionFile(resolved: ResolvedSessionFile): Promise<SessionFileHandle> {
  return resolved.archived ? resolved.archived.open() : openLocalSessionFile(resolved);
}

/** openSessionFile for a file of this machine (what a push reads), as a FileHandle. */
export async function openLocalSessionFile(resolved: ResolvedSessionFile): Promise<FileHandle> {
  if (resolved.archived) throw new SessionPathError("invalid", "an archived session is not a file of this machine");
  let handle: FileHandle;
  try {
    handle = await open(resolved.file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    throw new SessionPathError("forbidden", "the session file changed while it was being opened");
  }
  const stats = await handle.stat();
  if (stats.dev !== resolved.dev || stats.ino !== resolved.ino || refusal(stats)) {
    await handle.close();
    throw new SessionPathError("forbidden", "the session file changed while it was being opened");
  }
  return handle;
}
