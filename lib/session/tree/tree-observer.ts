import type { SessionEntry } from "../types";

/**
 * What keeps state of its own about a tree's entries as they come, beside the structure the tree indexes: a
 * rule set's leaf cursor and labels, the traces that pick the rules, the whole file's totals. Registered with
 * the tree before its first entry (TreeIndex.observe), it is told of every entry line in file order. It goes
 * into a snapshot of the tree with it: its fields are plain data (read/object-snapshot.ts), and its class is
 * one read/session-snapshot.ts names.
 */
export interface TreeObserver {
  /** The entry on `line` came into `slot` (its position among entry lines); `id`: its id, when a non-empty string. */
  added(entry: SessionEntry, slot: number, line: number, id: string | undefined): void;
}
