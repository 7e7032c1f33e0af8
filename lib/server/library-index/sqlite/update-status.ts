// What this process's updates of an index file have come to: the one under way, and what the last one found it
// could not read. status() reads it without waiting for an update's turn (a page polls it while a first index
// runs), and it outlives the index object (one idle a while is closed; what its last update found stays known).
import type { IndexProgress, SearchStatus, UnreadableLine } from "@/lib/library/search-api";

const progress = new Map<string, IndexProgress>();
const found = new Map<string, UnreadableLine[]>();

export function updateStatus(file: string): SearchStatus {
  return { progress: progress.get(file) ?? null, unreadable: found.get(file) ?? null };
}

/** An update of `file` has come this far. */
export function updateProgress(file: string, now: IndexProgress): void {
  progress.set(file, now);
}

/** The update of `file` has ended: with what it found it could not read, or (null) failed. */
export function updateEnded(file: string, unreadable: UnreadableLine[] | null): void {
  progress.delete(file);
  if (unreadable) found.set(file, unreadable);
}
