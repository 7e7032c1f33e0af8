// How long a session line the library reads: PI_VIEWER_MAX_LINE_MB (default 64 MB). The library's index and
// digests hold a line whole to parse it; a longer one is named by file and line and its bytes are passed over as
// they are read, never gathered. pi writes no line near this (it cuts a tool's output at 50 KB and scales images
// down); a line of hundreds of megabytes is a damaged or hostile file.

export const DEFAULT_MAX_LINE_MB = 64;
/** V8 makes no string of more than 2^29 - 24 characters: a line is decoded whole, so no limit goes past this. */
const MOST_BYTES = 500 * 1024 * 1024;

/** The limit in bytes; an unset, empty or non-positive value means the default. */
export function maxLineBytes(env: NodeJS.ProcessEnv = process.env): number {
  const mb = Number(env.PI_VIEWER_MAX_LINE_MB?.trim() || NaN);
  return Math.min(MOST_BYTES, Math.floor((Number.isFinite(mb) && mb > 0 ? mb : DEFAULT_MAX_LINE_MB) * 1024 * 1024));
}

/** "64 MB", "1.5 MB", "512 KB": a limit as the problems name it. */
export function formatLimit(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${+(bytes / (1024 * 1024)).toFixed(1)} MB` : `${+(bytes / 1024).toFixed(1)} KB`;
}
