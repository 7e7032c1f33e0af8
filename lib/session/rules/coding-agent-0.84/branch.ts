import type { SessionTree } from "../session-tree";
import { SessionQueryError, type TreeEntry } from "../../types";

export function cycleError(id: string): SessionQueryError {
  return new SessionQueryError("cycle", `the path of ${id} runs into a parent cycle: pi never returns here`);
}

/**
 * The coding agent's `getBranch(id)`: root → id, following `parentId` while the
 * parent exists (an orphan's path starts at the orphan). Unknown id → [].
 * Where pi would loop forever on a parent cycle we throw a "cycle" error.
 */
export function caBranch(tree: SessionTree, id: string): TreeEntry[] {
  return Array.from(caBranchSlots(tree, id), (slot) => tree.entryAt(slot));
}

/** `caBranch(tree, id)` as the entries' slots, root first: no entry is read. */
export function caBranchSlots(tree: SessionTree, id: string): Int32Array {
  let slot = tree.slotOf(id);
  const depth = slot === -1 ? 0 : tree.depthAt(slot);
  // the depth known since indexing is the path's length (a cycle has none): one array of the right size
  let path = new Int32Array(depth > 0 ? depth : 16);
  let length = 0;
  const limit = tree.size;
  while (slot !== -1) {
    if (length === path.length) {
      const grown = new Int32Array(path.length * 2);
      grown.set(path);
      path = grown;
    }
    path[length++] = slot;
    if (length > limit) throw cycleError(id);
    slot = tree.parentSlot(slot);
  }
  return (length === path.length ? path : path.slice(0, length)).reverse();
}

/**
 * The end of `caBranch(tree, id)` that prepareCompaction reads: from the
 * newest compaction on the path or the entry it kept first, whichever comes
 * first, to `id`; the whole path when there is no compaction (or its kept
 * entry is not on the path). Walks up only as far as that.
 */
export function caBranchSinceCompaction(tree: SessionTree, id: string): TreeEntry[] {
  const path: TreeEntry[] = [];
  const seen = new Set<string>();
  let firstKept: unknown;
  let compactionMet = false;
  let slot = tree.slotOf(id);
  const limit = tree.size;
  while (slot !== -1) {
    const current = tree.entryAt(slot);
    path.push(current);
    if (path.length > limit) throw cycleError(id);
    if (compactionMet && current.id === firstKept) break;
    seen.add(current.id);
    if (!compactionMet && current.type === "compaction") {
      compactionMet = true;
      firstKept = current.firstKeptEntryId;
      if (seen.has(firstKept as string)) break;
    }
    slot = tree.parentSlot(slot);
  }
  return path.reverse();
}
