// Hears pushes as they commit: a trigger on the archive's files (archive-schema.ts) notifies ARCHIVE_CHANNEL with the
// id of a file whose bytes a transaction changed, and one listening connection per serving process wakes the tails
// of that file. A missed notice costs only time:
// a tail also looks at its file on a timer (tail-file.ts).
import type pg from "pg";

/** The channel the archive notifies with the id of each file whose bytes changed, once the change commits. */
export const ARCHIVE_CHANNEL = "pi_archive_lines";

type Listener = () => void;

interface Listening {
  pool: pg.Pool;
  byFile: Map<number, Set<Listener>>;
  /** the connection LISTENing, while one is */
  client: Promise<pg.PoolClient> | null;
}

const listening = new WeakMap<pg.Pool, Listening>();

/** Calls `changed` after each push that wrote the file `fileId`, until the returned stop is called. */
export function watchArchivedFile(pool: pg.Pool, fileId: number, changed: Listener): () => void {
  let state = listening.get(pool);
  if (!state) {
    state = { pool, byFile: new Map(), client: null };
    listening.set(pool, state);
  }
  const listeners = state.byFile.get(fileId) ?? new Set();
  state.byFile.set(fileId, listeners);
  listeners.add(changed);
  listen(state);
  const held = state;
  return () => {
    listeners.delete(changed);
    if (listeners.size === 0) held.byFile.delete(fileId);
    if (held.byFile.size === 0) unlisten(held);
  };
}

function listen(state: Listening): void {
  if (state.client) return;
  const connecting = state.pool.connect().then(async (client) => {
    client.on("notification", (message) => {
      if (message.channel !== ARCHIVE_CHANNEL) return;
      for (const listener of state.byFile.get(Number(message.payload)) ?? []) listener();
    });
    // a connection lost ends the listening; the next tail to start listens again, and the timers cover the gap
    client.on("error", () => dropped(state, connecting, client, true));
    await client.query(`listen ${ARCHIVE_CHANNEL}`);
    return client;
  });
  state.client = connecting;
  connecting.catch(() => {
    if (state.client === connecting) state.client = null;
  });
}

function unlisten(state: Listening): void {
  const connecting = state.client;
  if (!connecting) return;
  void connecting.then((client) => dropped(state, connecting, client, false)).catch(() => undefined);
}

function dropped(state: Listening, connecting: Promise<pg.PoolClient>, client: pg.PoolClient, broken: boolean): void {
  // a tail that started while the last one's stop was on its way keeps the connection listening
  if (state.client !== connecting || (!broken && state.byFile.size > 0)) return;
  state.client = null;
  if (broken) {
    client.release(true);
    return;
  }
  client.removeAllListeners("notification");
  void client
    .query(`unlisten ${ARCHIVE_CHANNEL}`)
    .then(() => client.release())
    .catch(() => client.release(true));
}
