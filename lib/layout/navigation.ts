/**
 * Moving around the graph: pure functions over the entry tree and the display
 * tree, used by the keyboard map and the "newest leaf below" action. They
 * mirror pi's `/tree` selector where it has an equivalent (segment jumps,
 * which child comes first) and its HTML export (newest leaf).
 */
import type { SessionTree } from "../session";
import type { DisplayNode, DisplayTree } from "./display-tree";

/**
 * From `id`, follow the newest child (the last in pi's timestamp order) down
 * to an entry without children, as pi's HTML export does when it opens a
 * branch. Stops instead of looping on a parent cycle.
 */
export function newestLeafBelow(tree: SessionTree, id: string): string {
  const seen = new Set<string>([id]);
  let current = id;
  for (;;) {
    const children = tree.children(current);
    const newest = children[children.length - 1];
    if (newest === undefined || seen.has(newest)) return current;
    seen.add(newest);
    current = newest;
  }
}

/** Says whether a display node lies on the active path (its subtree holds the leaf). */
export type OnPath = (key: string) => boolean;

function node(display: DisplayTree, key: string): DisplayNode | undefined {
  return display.nodes.get(key);
}

/** Display siblings of `key`, roots included, in display order. */
export function siblingsOf(display: DisplayTree, key: string): readonly string[] {
  const parent = node(display, key)?.parent ?? null;
  return parent === null ? display.roots : node(display, parent)!.children;
}

export function parentKey(display: DisplayTree, key: string): string | null {
  return node(display, key)?.parent ?? null;
}

/** The child pi lists first: the one toward the active leaf, else the first in pi's order. */
export function firstChildKey(display: DisplayTree, key: string, onPath: OnPath): string | null {
  const children = node(display, key)?.children ?? [];
  return children.find(onPath) ?? children[0] ?? null;
}

export function siblingKey(display: DisplayTree, key: string, direction: -1 | 1): string | null {
  const siblings = siblingsOf(display, key);
  const i = siblings.indexOf(key);
  return i < 0 ? null : (siblings[i + direction] ?? null);
}

export function rootKey(display: DisplayTree, key: string): string {
  let current = key;
  const seen = new Set<string>();
  for (;;) {
    const parent = parentKey(display, current);
    if (parent === null || seen.has(parent)) return current;
    seen.add(current);
    current = parent;
  }
}

/**
 * pi's `findBranchSegmentStart`: "down" follows first children until a branch
 * point (→ its first child) or the end of the branch; "up" walks to the
 * nearest segment start above (a child of a branch point), else the root.
 */
export function branchSegmentStart(display: DisplayTree, key: string, direction: "up" | "down", onPath: OnPath): string {
  const seen = new Set<string>([key]);
  let current = key;
  if (direction === "down") {
    for (;;) {
      const children = node(display, current)?.children ?? [];
      if (children.length === 0) return current;
      const next = firstChildKey(display, current, onPath)!;
      if (children.length > 1 || seen.has(next)) return next;
      seen.add(next);
      current = next;
    }
  }
  for (;;) {
    const parent = parentKey(display, current);
    if (parent === null || seen.has(parent)) return current;
    if (current !== key && siblingsOf(display, current).length > 1) return current;
    seen.add(parent);
    current = parent;
  }
}

/** pi's `isFoldable`: has children, and is a root or the start of a branch segment. */
export function isFoldable(display: DisplayTree, key: string): boolean {
  const n = node(display, key);
  if (!n || n.children.length === 0) return false;
  return n.parent === null || siblingsOf(display, key).length > 1;
}
