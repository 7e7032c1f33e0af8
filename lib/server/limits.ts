// How big a session file the viewer opens: PI_VIEWER_MAX_FILE_MB (default 1024 MB), for the server and the browser.

export const DEFAULT_MAX_FILE_MB = 1024;

/** The limit in bytes; an unset, empty or non-positive value means the default. */
export function maxFileBytes(env: NodeJS.ProcessEnv = process.env): number {
  const mb = Number(env.PI_VIEWER_MAX_FILE_MB?.trim() || NaN);
  return (Number.isFinite(mb) && mb > 0 ? mb : DEFAULT_MAX_FILE_MB) * 1024 * 1024;
}
