// Turns a client-supplied session path into a file inside the sessions directory, or a typed refusal.
// Not responsible for reading the file. Error messages never hold absolute paths or file content.
import { realpath, stat } from "node:fs/promises";
import path from "node:path";

export type SessionPathErrorCode = "invalid" | "forbidden" | "not-found";

export class SessionPathError extends Error {
  constructor(
    readonly code: SessionPathErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "SessionPathError";
  }
}

const STATUS: Record<SessionPathErrorCode, number> = { invalid: 400, forbidden: 403, "not-found": 404 };

export function httpStatus(error: SessionPathError): number {
  return STATUS[error.code];
}

/** pi's layout is `<project folder>/<file>.jsonl` or a file at the top; nothing deeper is listed or served. */
const MAX_SEGMENTS = 2;
const MAX_LENGTH = 1024;

export interface ResolvedSessionFile {
  /** real absolute path (symlinks resolved) */
  file: string;
  /** the path as the client named it: relative, "/"-separated */
  rel: string;
  size: number;
  mtimeMs: number;
}

/**
 * Checks the text of a relative session path. The query string was decoded
 * once already; anything still percent-encoded is refused, never decoded again,
 * so `%2e%2e%2f` cannot turn into `../` behind the check.
 */
export function checkSessionPath(rel: unknown): string[] {
  if (typeof rel !== "string" || rel.length === 0) throw new SessionPathError("invalid", "a session path is required");
  if (rel.length > MAX_LENGTH) throw new SessionPathError("invalid", "the session path is too long");
  if (/[\u0000-\u001f\u007f]/.test(rel)) throw new SessionPathError("invalid", "the session path contains control characters");
  if (rel.includes("\\")) throw new SessionPathError("invalid", "use / to separate path segments");
  if (rel.startsWith("/") || /^[A-Za-z]:/.test(rel)) throw new SessionPathError("invalid", "the path must be relative to the sessions directory");
  if (/%[0-9A-Fa-f]{2}/.test(rel)) throw new SessionPathError("invalid", "the session path contains percent-encoded characters");
  const segments = rel.split("/");
  if (segments.length > MAX_SEGMENTS) throw new SessionPathError("invalid", "session files sit at most one folder deep");
  for (const segment of segments) {
    if (segment === "" || segment === "." || segment === "..") throw new SessionPathError("invalid", "empty, . and .. path segments are not allowed");
  }
  if (!rel.endsWith(".jsonl")) throw new SessionPathError("invalid", "only .jsonl session files can be opened");
  return segments;
}

/**
 * Resolves `rel` inside `dir`. The file's real path (symlinks followed) must lie
 * inside the real path of `dir` and be a regular file.
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
  const stats = await stat(real).catch(() => null);
  if (!stats?.isFile()) throw new SessionPathError("not-found", "not a session file");
  return { file: real, rel: segments.join("/"), size: stats.size, mtimeMs: stats.mtimeMs };
}
