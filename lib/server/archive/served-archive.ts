// The archive a server reads when PI_VIEWER_DATABASE_URL names one: opened once per process and kept, so each
// request asks the pool, not a new connection. A server keeps nothing else of its own: two of them against one
// database answer alike.
import { upgradeNotice } from "./archive-schema";
import { openArchive, type Archive } from "./open-archive";

/** Connections a serving process may hold: a page asks a few questions at once (list, index, a file's ranges). */
const SERVING_CONNECTIONS = 8;

/** How long the server lets one of a serving process's statements run (ms): far past any question a page asks. */
export const SERVING_STATEMENT_TIMEOUT_MS = 60_000;

/** PI_VIEWER_DATABASE_URL, when set: the archive served instead of a sessions directory. */
export function archiveUrl(env: NodeJS.ProcessEnv = process.env): string | null {
  return env.PI_VIEWER_DATABASE_URL?.trim() || null;
}

interface Served {
  url: string;
  archive: Promise<Archive>;
}

// one per process, whichever bundle of the server asks (Next builds route modules apart)
const KEY = Symbol.for("pi-session-viewer.served-archive");
const holder = globalThis as { [KEY]?: Served };

/** The archive to serve, opened on first use; null when none is configured. A failed open is tried again next time. */
export function servedArchive(env: NodeJS.ProcessEnv = process.env): Promise<Archive> | null {
  const url = archiveUrl(env);
  if (url === null) return null;
  const now = holder[KEY];
  if (now && now.url === url) return now.archive;
  if (now) void now.archive.then((old) => old.close()).catch(() => undefined);
  const archive = openArchive(url, {
    connections: SERVING_CONNECTIONS,
    statementTimeoutMs: SERVING_STATEMENT_TIMEOUT_MS,
    onUpgrade: (from, to) => console.error(upgradeNotice(from, to)),
  });
  holder[KEY] = { url, archive };
  archive.catch(() => {
    if (holder[KEY]?.archive === archive) delete holder[KEY];
  });
  return archive;
}

/** Ends the served archive's pool (a test's end, a server stopping); the next request opens it again. */
export async function closeServedArchive(): Promise<void> {
  const now = holder[KEY];
  delete holder[KEY];
  if (now) await (await now.archive.catch(() => null))?.close();
}
