import type { SessionTree } from "./tree";
import { SessionQueryError, type TreeEntry } from "./types";

function cycleError(id: string): SessionQueryError {
  return new SessionQueryError("cycle", `the path of ${id} runs into a parent cycle: pi never returns here`);
}

/**
 * The coding agent's `getBranch(id)`: root → id, following `parentId` while the
 * parent exists (an orphan's path starts at the orphan). Unknown id → [].
 * Where pi would loop forever on a parent cycle we throw a "cycle" error.
 */
export function caBranch(tree: SessionTree, id: string): TreeEntry[] {
  const path: TreeEntry[] = [];
  let current = tree.get(id);
  const limit = tree.size;
  while (current) {
    path.push(current);
    if (path.length > limit) throw cycleError(id);
    const parentId = current.parentId;
    current = parentId ? tree.get(parentId as string) : undefined;
  }
  return path.reverse();
}

/**
 * The harness's `getPathToRootOrCompaction(id)` (spec §7): stops at a compaction
 * with a retainedTail, or once the first kept entry of a compaction is reached;
 * strict about missing entries.
 */
export function hxBranch(tree: SessionTree, id: string | null): TreeEntry[] {
  if (id === null) return [];
  let current = tree.get(id);
  if (!current) throw new SessionQueryError("not-found", `Entry ${id} not found`);
  const path: TreeEntry[] = [];
  let stopAt: unknown = null;
  const limit = tree.size;
  while (current) {
    path.push(current);
    if (path.length > limit) throw cycleError(id);
    if (stopAt !== null && current.id === stopAt) break;
    if (current.type === "compaction") {
      if (current.retainedTail) break;
      stopAt = current.firstKeptEntryId ?? null;
    }
    const parentId = current.parentId;
    if (!parentId) break;
    const parent = tree.get(parentId as string);
    if (!parent) throw new SessionQueryError("invalid", `Entry ${String(parentId)} not found`);
    current = parent;
  }
  return path.reverse();
}
