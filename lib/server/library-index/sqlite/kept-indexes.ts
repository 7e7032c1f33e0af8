// Index files kept open between the questions of a burst (a search box being typed in): SQLite's pages stay in its
// cache, read once rather than per search; closed when nobody has held one for a while, and opened again if their
// file was replaced or other settings are asked for.
import { statSync } from "node:fs";

const IDLE_MS = 30_000;

interface KeptIndex {
  /** the inode of the file it connected to; null before it connects */
  readonly ino: number | null;
  close(): void;
}

interface Held {
  index: KeptIndex;
  settings: string;
  /** openKept's callers that have not released it yet */
  users: number;
  idle: ReturnType<typeof setTimeout> | null;
}

const kept = new Map<string, Held>();

/**
 * The index of `file` kept open with `settings`, else `open`'s (kept from now on); one whose file was replaced, or
 * kept with other settings, is closed. Each call is one user, until releaseKept.
 */
export function openKept<T extends KeptIndex>(file: string, settings: string, open: () => T): T {
  const held = kept.get(file);
  if (held) {
    const ino = statSync(file, { throwIfNoEntry: false })?.ino ?? null;
    if (held.settings === settings && (held.index.ino === null || held.index.ino === ino)) {
      if (held.idle) clearTimeout(held.idle);
      held.idle = null;
      held.users++;
      return held.index as T;
    }
    kept.delete(file);
    held.index.close();
  }
  const index = open();
  kept.set(file, { index, settings, users: 1, idle: null });
  return index;
}

/**
 * A user is done with `index` for now: once none holds it, closed after IDLE_MS. An open index keeps no process
 * alive (the CLI's ends with its search).
 */
export function releaseKept(file: string, index: KeptIndex): void {
  const held = kept.get(file);
  if (held?.index !== index) return;
  held.users = Math.max(0, held.users - 1);
  if (held.users > 0 || held.idle) return;
  held.idle = setTimeout(() => {
    kept.delete(file);
    held.index.close();
  }, IDLE_MS);
  held.idle.unref();
}

/** `index` is closed: it is no longer kept. */
export function forgetKept(file: string, index: KeptIndex): void {
  const held = kept.get(file);
  if (held?.index !== index) return;
  if (held.idle) clearTimeout(held.idle);
  kept.delete(file);
}
