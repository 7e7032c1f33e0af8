/**
 * The tree as the graph shows it: pi's entry tree (from `session.shape().roots`,
 * children in pi's order) with long single-child chains folded into segments
 * and user-collapsed subtrees hidden behind their top entry.
 *
 * Built with an explicit stack and a visited set: no recursion over session
 * depth, and parent cycles or duplicate ids cannot make it loop.
 * Not responsible for positions (see tidy-layout.ts) or for highlighting.
 */
import type { Session, SessionTree } from "../session";
import { FOLD_THRESHOLD } from "./sizes";
import { visibleForest } from "./tree-filter";

export interface EntryDisplayNode {
  kind: "entry";
  /** display key: the entry id itself */
  key: string;
  id: string;
  parent: string | null;
  children: string[];
  /** children in the entry tree (a branch point has more than one) */
  childCount: number;
  /** descendants hidden because the user collapsed this subtree (0 when open) */
  hidden: number;
}

export interface SegmentDisplayNode {
  kind: "segment";
  /** display key: `seg:` + the first id of the run */
  key: string;
  /** segment key as the store knows it: the first id of the run */
  segment: string;
  ids: string[];
  parent: string | null;
  children: string[];
}

export type DisplayNode = EntryDisplayNode | SegmentDisplayNode;

export interface DisplayTree {
  /** in pre-order (parents before children, siblings in pi's order) */
  nodes: Map<string, DisplayNode>;
  roots: string[];
  /** entry id → the display node that shows it: itself, its folded segment, or its collapsed ancestor */
  keyOf: Map<string, string>;
  /** every run long enough to fold, folded or expanded, by segment key */
  runs: Map<string, string[]>;
  /** entry id → segment key of the run it belongs to */
  runOf: Map<string, string>;
}

export interface DisplayOptions {
  /** runs longer than this fold (default FOLD_THRESHOLD) */
  threshold?: number;
  /** segment keys the user opened */
  expanded?: ReadonlySet<string>;
  /** entries whose subtree the user closed */
  collapsed?: ReadonlySet<string>;
  /** entries that must stay their own node: the leaf, the scrubbed-to leaf */
  keep?: Iterable<string | null | undefined>;
  /** labelled entries stay visible */
  labelled?: { has(id: string): boolean };
  /** entries to draw (see tree-filter.ts); the others are spliced out, their children hung from the nearest drawn ancestor */
  visible?: (id: string) => boolean;
}

export const SEGMENT_PREFIX = "seg:";

export function segmentNodeKey(segment: string): string {
  return SEGMENT_PREFIX + segment;
}

/** Entry types that are landmarks: never folded into a segment. */
const LANDMARK_TYPES = new Set(["compaction", "branch_summary", "model_change", "leaf"]);
const LANDMARK_ROLES = new Set(["branchSummary", "compactionSummary"]);

function isLandmark(tree: SessionTree, id: string): boolean {
  const entry = tree.get(id);
  if (!entry) return true;
  if (typeof entry.type === "string" && LANDMARK_TYPES.has(entry.type)) return true;
  const message = entry.message as { role?: unknown } | null | undefined;
  return entry.type === "message" && typeof message?.role === "string" && LANDMARK_ROLES.has(message.role);
}

export function buildDisplayTree(session: Session, options: DisplayOptions = {}): DisplayTree {
  const tree = session.tree;
  const threshold = options.threshold ?? FOLD_THRESHOLD;
  const expanded = options.expanded ?? new Set<string>();
  const collapsed = options.collapsed ?? new Set<string>();
  const keep = new Set<string>();
  for (const id of options.keep ?? []) if (id) keep.add(id);
  const labelled = options.labelled ?? new Set<string>();
  const forest = options.visible ? visibleForest(tree, session.shape().roots, options.visible) : null;
  const childrenOf = (id: string): readonly string[] => (forest ? forest.children(id) : tree.children(id));
  const rootIds = forest ? forest.roots : session.shape().roots;
  const isRoot = new Set(rootIds);

  const out: DisplayTree = { nodes: new Map(), roots: [], keyOf: new Map(), runs: new Map(), runOf: new Map() };
  const visited = new Set<string>();

  const foldable = (id: string): boolean =>
    !isRoot.has(id) &&
    childrenOf(id).length === 1 &&
    !collapsed.has(id) &&
    !keep.has(id) &&
    !labelled.has(id) &&
    !isLandmark(tree, id);

  const emit = (node: DisplayNode): void => {
    out.nodes.set(node.key, node);
    if (node.parent === null) out.roots.push(node.key);
    else out.nodes.get(node.parent)!.children.push(node.key);
  };

  const emitEntry = (id: string, parent: string | null): EntryDisplayNode => {
    const node: EntryDisplayNode = { kind: "entry", key: id, id, parent, children: [], childCount: childrenOf(id).length, hidden: 0 };
    emit(node);
    out.keyOf.set(id, id);
    return node;
  };

  /** Marks the subtree below a collapsed entry as shown by that entry; returns how many it hides. */
  const hideBelow = (id: string): number => {
    let hidden = 0;
    const stack = [...childrenOf(id)];
    while (stack.length) {
      const child = stack.pop()!;
      if (visited.has(child)) continue;
      visited.add(child);
      out.keyOf.set(child, id);
      hidden++;
      for (const grandchild of childrenOf(child)) stack.push(grandchild);
    }
    return hidden;
  };

  const stack: { id: string; parent: string | null }[] = [];
  for (let i = rootIds.length - 1; i >= 0; i--) stack.push({ id: rootIds[i]!, parent: null });

  while (stack.length) {
    const { id, parent } = stack.pop()!;
    if (visited.has(id) || !tree.get(id)) continue;
    visited.add(id);

    if (foldable(id)) {
      const run = [id];
      let next = childrenOf(id)[0]!;
      while (!visited.has(next) && foldable(next)) {
        visited.add(next);
        run.push(next);
        next = childrenOf(next)[0]!;
      }
      if (run.length > threshold) {
        const segment = run[0]!;
        out.runs.set(segment, run);
        for (const member of run) out.runOf.set(member, segment);
        if (!expanded.has(segment)) {
          const key = segmentNodeKey(segment);
          emit({ kind: "segment", key, segment, ids: run, parent, children: [] });
          for (const member of run) out.keyOf.set(member, key);
          stack.push({ id: next, parent: key });
          continue;
        }
      }
      let last = parent;
      for (const member of run) {
        emitEntry(member, last);
        last = member;
      }
      stack.push({ id: next, parent: last });
      continue;
    }

    const node = emitEntry(id, parent);
    const children = childrenOf(id);
    if (collapsed.has(id) && children.length) {
      node.hidden = hideBelow(id);
      continue;
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push({ id: children[i]!, parent: id });
  }
  return out;
}

/** The entry ids a display node stands for. */
export function idsOf(node: DisplayNode): readonly string[] {
  return node.kind === "segment" ? node.ids : [node.id];
}
