// How big a session file the viewer opens: PI_VIEWER_MAX_FILE_MB (default 2048 MB), for the server and the browser.
// The page keeps an upload's or a library file's index, not its content (read on demand): gigabyte sessions fit a tab.

export const DEFAULT_MAX_FILE_MB = 2048;

/** The limit in bytes; an unset, empty or non-positive value means the default. */
export function maxFileBytes(env: NodeJS.ProcessEnv = process.env): number {
  const mb = Number(env.PI_VIEWER_MAX_FILE_MB?.trim() || NaN);
  return (Number.isFinite(mb) && mb > 0 ? mb : DEFAULT_MAX_FILE_MB) * 1024 * 1024;
}
