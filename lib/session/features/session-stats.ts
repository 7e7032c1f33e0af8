import type { SessionTree } from "../rules/session-tree";
import { StatsTally, type StatsTotals } from "../tree/stats-tally";
import type { SessionEntry } from "../types";

export interface SessionStats extends StatsTotals {
  /** entries with more than one child */
  branchPoints: number;
  /** entries without children */
  leaves: number;
}

/** Branch points and leaves among entries, by how many children the tree gives each id. */
class ChildCounts {
  branchPoints = 0;
  leaves = 0;

  constructor(private readonly tree: SessionTree | undefined) {}

  count(id: string, times = 1): void {
    if (!this.tree) return;
    const kids = this.tree.children(id).length;
    if (kids > 1) this.branchPoints += times;
    if (kids === 0) this.leaves += times;
  }
}

/** Totals over a set of entries (one path, or any other set); the whole file's are fileStats. */
export function sessionStats(entries: Iterable<SessionEntry>, tree?: SessionTree): SessionStats {
  const tally = new StatsTally();
  const kids = new ChildCounts(tree);
  for (const entry of entries) {
    tally.add(entry);
    if (typeof entry.id === "string") kids.count(entry.id);
  }
  return { ...tally.totals(), branchPoints: kids.branchPoints, leaves: kids.leaves };
}

/**
 * Totals over every entry of the file, as sessionStats over `tree.entries` gives them, from the totals the tree
 * kept while its entries were added: no entry is made again.
 */
export function fileStats(tree: SessionTree): SessionStats {
  const kids = new ChildCounts(tree);
  for (let slot = 0; slot < tree.entryCount; slot++) {
    const id = tree.idAt(slot);
    if (id !== undefined) kids.count(id);
  }
  if (tree.tally.emptyIdEntries) kids.count("", tree.tally.emptyIdEntries);
  return { ...tree.tally.totals(), branchPoints: kids.branchPoints, leaves: kids.leaves };
}
