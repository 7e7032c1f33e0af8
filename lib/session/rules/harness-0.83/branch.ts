import type { SessionTree } from "../session-tree";
import { SessionQueryError, type TreeEntry } from "../../types";
import { cycleError } from "../coding-agent-0.84/branch";

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
