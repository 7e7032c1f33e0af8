// Index files kept open between the questions of a burst (a search box being typed in): SQLite's pages stay in its
// cache, read once rather than per search; closed when idle, and opened again if their file was replaced or other
// settings are asked for.
import { statSync } from "node:fs";

const IDLE_MS = 30_000;

interface Closable {
  close(): void;
}

const kept = new Map<string, { index: Closable; ino: number; settings: string; idle: ReturnType<typeof setTimeout> | null }>();

/**
 * The index of `file` kept open with `settings`, else `open`'s (kept from now on); one whose file was replaced, or
 * opened with other settings, is closed.
 */
export async function openKept<T extends Closable>(file: string, settings: string, open: () => Promise<T>): Promise<T> {
  const held = kept.get(file);
  const ino = statSync(file, { throwIfNoEntry: false })?.ino;
  if (held) {
    if (held.idle) clearTimeout(held.idle);
    held.idle = null;
    if (held.ino === ino && held.settings === settings) return held.index as T;
    kept.delete(file);
    held.index.close();
  }
  const index = await open();
  kept.set(file, { index, ino: statSync(file).ino, settings, idle: null });
  return index;
}

/** Done with `index` for now: closed once idle for IDLE_MS. An open index keeps no process alive (the CLI's ends with its search). */
export function releaseKept(file: string, index: Closable): void {
  const held = kept.get(file);
  if (held?.index !== index) return;
  held.idle = setTimeout(() => {
    kept.delete(file);
    held.index.close();
  }, IDLE_MS);
  held.idle.unref();
}

/** `index` is closed: it is no longer kept. */
export function forgetKept(file: string, index: Closable): void {
  if (kept.get(file)?.index === index) kept.delete(file);
}
