// `push --watch`: pushes a file shortly after it changes, so a session an agent is writing on a CI runner shows in
// the archive within a couple of seconds. Changes are gathered until the directory has been quiet for a moment
// (pi writes an entry as a few appends), but never held longer than a second; a full pass now and then catches
// whatever an event was missed for (a folder made before it was watched, an editor's rename).
import { watch, type FSWatcher } from "node:fs";
import path from "node:path";

export interface WatchOptions {
  /** quiet time before a push */
  debounceMs?: number;
  /** the longest a change waits while others keep coming */
  maxWaitMs?: number;
  /** a full pass over every file this often */
  fullPassMs?: number;
}

/**
 * Watches `dir` and calls `push` with the changed session files' relative paths (null: every file), one push at a
 * time. Returns a function that stops watching and waits for a push under way.
 */
export function watchLibrary(dir: string, push: (only: ReadonlySet<string> | null) => Promise<void>, options: WatchOptions = {}): () => Promise<void> {
  const debounceMs = options.debounceMs ?? 250;
  const maxWaitMs = options.maxWaitMs ?? 1000;
  const fullPassMs = options.fullPassMs ?? 60_000;
  let changed = new Set<string>();
  let everything = false;
  let quiet: NodeJS.Timeout | null = null;
  let firstChange = 0;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;

  const run = () => {
    if (quiet) clearTimeout(quiet);
    quiet = null;
    if (running) {
      again = true;
      return;
    }
    const only = everything ? null : changed;
    changed = new Set();
    everything = false;
    firstChange = 0;
    running = push(only).finally(() => {
      running = null;
      if (again && !stopped) {
        again = false;
        run();
      }
    });
  };
  const schedule = () => {
    const now = Date.now();
    if (!firstChange) firstChange = now;
    if (quiet) clearTimeout(quiet);
    quiet = setTimeout(run, Math.max(0, Math.min(debounceMs, firstChange + maxWaitMs - now)));
  };
  const watcher: FSWatcher = watch(dir, { recursive: true }, (_event, name) => {
    if (stopped) return;
    const rel = name ? String(name).split(path.sep).join("/") : null;
    if (rel === null) everything = true;
    else if (rel.endsWith(".jsonl")) changed.add(rel);
    else if (!rel.includes("/"))
      everything = true; // a project folder came or went
    else return;
    schedule();
  });
  watcher.on("error", () => {
    // the directory went away or the watch broke: keep going on full passes alone
    everything = true;
  });
  const timer = setInterval(() => {
    everything = true;
    schedule();
  }, fullPassMs);
  return async () => {
    stopped = true;
    clearInterval(timer);
    if (quiet) clearTimeout(quiet);
    watcher.close();
    await running;
  };
}
