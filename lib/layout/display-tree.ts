/**
 * The tree as the graph shows it: pi's entry tree (from `session.shape().roots`,
 * children in pi's order) with long single-child chains folded into segments
 * and user-collapsed subtrees hidden behind their top entry.
 *
 * Built in two steps so that opening or closing a segment costs the size of
 * the display, not of the session: planFolds walks the entries once (with an
 * explicit stack and a visited set: no recursion over session depth, and
 * parent cycles or duplicate ids cannot make it loop); displayTreeOf applies
 * the expanded segments to that plan.
 * Not responsible for positions (see tidy-layout.ts) or for highlighting.
 */
import type { Session, SessionTree } from "../session";
import { drain, STEP_EVERY, type Steps } from "./last-answer";
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
  /** the ids' slots, when the fold walk went by slots (an unfiltered tree no id or late parent reshaped) */
  slots?: readonly number[];
  parent: string | null;
  children: string[];
}

export type DisplayNode = EntryDisplayNode | SegmentDisplayNode;

export interface DisplayTree {
  /** in pre-order (parents before children, siblings in pi's order) */
  nodes: Map<string, DisplayNode>;
  roots: string[];
  /** entry id → the display node that shows it: itself, its folded segment, or its collapsed ancestor */
  keyOf: DisplayKeys;
  /** every run long enough to fold, folded or expanded, by segment key */
  runs: ReadonlyMap<string, readonly string[]>;
  /** entry id → segment key of the run it belongs to */
  runOf: RunIndex;
}

/** entry id → segment key of the run it belongs to: a Map, or a column by slot when the walk went by slots */
export interface RunIndex {
  get(id: string): string | undefined;
  has(id: string): boolean;
  readonly size: number;
}

/** The part of a Map that callers use; answered from the fold plan rather than stored per entry. */
export interface DisplayKeys {
  get(id: string): string | undefined;
  has(id: string): boolean;
  readonly size: number;
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

function isLandmark(tree: SessionTree, slot: number): boolean {
  const type = tree.typeAt(slot);
  if (type !== undefined && LANDMARK_TYPES.has(type)) return true;
  const role = tree.roleAt(slot);
  return role !== undefined && LANDMARK_ROLES.has(role);
}

/** One step of the fold walk, in pre-order: an entry of its own, or a run long enough to fold. */
type FoldItem =
  | { kind: "entry"; id: string; parent: number; childCount: number; hidden: number }
  | { kind: "run"; segment: string; ids: string[]; slots?: readonly number[]; parent: number };

/**
 * What the walk over the entries decided, for every expansion state at once: which runs fold, which entries
 * stand alone, which hide under a collapsed ancestor. Expanding or folding a segment only re-reads this
 * (see displayTreeOf): its cost is the display's size, not the session's.
 */
export interface FoldPlan {
  /** in pre-order; `parent` is the index of the item a node hangs from, -1 for a root */
  readonly items: readonly FoldItem[];
  /** entries that are their own display node whatever is expanded */
  readonly alone: ReadonlySet<string>;
  /** entry id → the collapsed entry that hides it */
  readonly hiddenBy: ReadonlyMap<string, string>;
  readonly runs: ReadonlyMap<string, readonly string[]>;
  readonly runOf: RunIndex;
}

/** The display tree for one expansion state. */
export function buildDisplayTree(session: Session, options: DisplayOptions = {}): DisplayTree {
  return displayTreeOf(planFolds(session, options), options.expanded ?? new Set<string>());
}

const NONE_VISITED: Pick<Set<string>, "has" | "add"> = { has: () => false, add: () => NONE_VISITED as Set<string> };

/** Walks the entries once: everything of `options` but `expanded`, which displayTreeOf applies. */
export function planFolds(session: Session, options: Omit<DisplayOptions, "expanded"> = {}): FoldPlan {
  return drain(planFoldSteps(session, options));
}

/** planFolds as a walk in slices (see lastAnswerSteps), for the loader. */
export function* planFoldSteps(session: Session, options: Omit<DisplayOptions, "expanded"> = {}): Steps<FoldPlan> {
  const tree = session.tree;
  const threshold = options.threshold ?? FOLD_THRESHOLD;
  const collapsed = options.collapsed ?? new Set<string>();
  const keep = new Set<string>();
  for (const id of options.keep ?? []) if (id) keep.add(id);
  const labelled = options.labelled ?? new Set<string>();
  const forest = options.visible ? visibleForest(tree, session.shape().roots, options.visible) : null;
  const childrenOf = (id: string): readonly string[] => (forest ? forest.children(id) : tree.children(id));
  const rootIds = forest ? forest.roots : session.shape().roots;
  const isRoot = new Set(rootIds);

  const items: FoldItem[] = [];
  const alone = new Set<string>();
  const hiddenBy = new Map<string, string>();
  const runs = new Map<string, string[]>();
  // in a tree no late parent or repeated id reshaped, each entry hangs from one parent or is a root, and the walk
  // meets it once: nothing to remember (a set of every id was a third of the walk); and an only child's slot is
  // the one its id finds, so a chain is walked from slot to slot (tree.onlyChildAt), with no lookup by id
  const bySlot = tree.structureRevision === 0 && !forest;
  const visited: Pick<Set<string>, "has" | "add"> = bySlot ? NONE_VISITED : new Set<string>();
  const runOf = bySlot ? new RunsBySlot(tree) : new RunMap();

  // each entry is looked up once: at 100k entries every extra map read is felt when a session opens
  const foldable = (id: string, slot: number, onlyChild: boolean): boolean =>
    slot !== -1 && onlyChild && !isRoot.has(id) && !collapsed.has(id) && !keep.has(id) && !labelled.has(id) && !isLandmark(tree, slot);

  const placeEntry = (id: string, parent: number, childCount: number): FoldItem & { kind: "entry" } => {
    const item = { kind: "entry" as const, id, parent, childCount, hidden: 0 };
    items.push(item);
    alone.add(id);
    return item;
  };

  /** Marks the subtree below a collapsed entry as shown by that entry; returns how many it hides. */
  const hideBelow = (id: string): number => {
    let hidden = 0;
    const stack = [...childrenOf(id)];
    while (stack.length) {
      const child = stack.pop()!;
      if (visited.has(child)) continue;
      visited.add(child);
      hiddenBy.set(child, id);
      hidden++;
      for (const grandchild of childrenOf(child)) stack.push(grandchild);
    }
    return hidden;
  };

  const stack: { id: string; parent: number }[] = [];
  for (let i = rootIds.length - 1; i >= 0; i--) stack.push({ id: rootIds[i]!, parent: -1 });

  let steps = 0;
  while (stack.length) {
    if (++steps % STEP_EVERY === 0) yield;
    const { id, parent } = stack.pop()!;
    if (visited.has(id)) continue;
    const slot = tree.slotOf(id);
    if (slot === -1) continue;
    visited.add(id);
    const children = childrenOf(id);

    if (foldable(id, slot, children.length === 1)) {
      const run = [id];
      const runSlots = [slot];
      let next = children[0]!;
      let nextSlot = bySlot ? tree.onlyChildAt(slot) : -1;
      while (!visited.has(next)) {
        if (++steps % STEP_EVERY === 0) yield;
        if (bySlot) {
          const kid = tree.onlyChildAt(nextSlot);
          if (!foldable(next, nextSlot, kid >= 0)) break;
          run.push(next);
          runSlots.push(nextSlot);
          next = tree.idAt(kid)!;
          nextSlot = kid;
          continue;
        }
        const after = childrenOf(next);
        if (!foldable(next, tree.slotOf(next), after.length === 1)) break;
        visited.add(next);
        run.push(next);
        next = after[0]!;
      }
      if (run.length > threshold) {
        const segment = run[0]!;
        runs.set(segment, run);
        runOf.addRun(segment, run, runSlots);
        items.push({ kind: "run", segment, ids: run, ...(bySlot ? { slots: runSlots } : {}), parent });
        stack.push({ id: next, parent: items.length - 1 });
        continue;
      }
      let last = parent;
      for (const member of run) {
        placeEntry(member, last, 1);
        last = items.length - 1;
      }
      stack.push({ id: next, parent: last });
      continue;
    }

    const item = placeEntry(id, parent, children.length);
    const at = items.length - 1;
    if (collapsed.has(id) && children.length) {
      item.hidden = hideBelow(id);
      continue;
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push({ id: children[i]!, parent: at });
  }
  return { items, alone, hiddenBy, runs, runOf };
}

/** The display tree of a fold plan with the segments in `expanded` opened: no walk over the entries. */
export function displayTreeOf(plan: FoldPlan, expanded: ReadonlySet<string>): DisplayTree {
  const out: DisplayTree = { nodes: new Map(), roots: [], keyOf: new PlanKeys(plan, expanded), runs: plan.runs, runOf: plan.runOf };
  /** per item: the key its children hang from (a run's last entry when expanded, else its segment) */
  const tails: string[] = new Array<string>(plan.items.length);
  const emit = (node: DisplayNode): void => {
    out.nodes.set(node.key, node);
    if (node.parent === null) out.roots.push(node.key);
    else out.nodes.get(node.parent)!.children.push(node.key);
  };
  plan.items.forEach((item, i) => {
    const parent = item.parent === -1 ? null : tails[item.parent]!;
    if (item.kind === "entry") {
      emit({ kind: "entry", key: item.id, id: item.id, parent, children: [], childCount: item.childCount, hidden: item.hidden });
      tails[i] = item.id;
    } else if (!expanded.has(item.segment)) {
      const key = segmentNodeKey(item.segment);
      emit({ kind: "segment", key, segment: item.segment, ids: item.ids, ...(item.slots ? { slots: item.slots } : {}), parent, children: [] });
      tails[i] = key;
    } else {
      let last = parent;
      for (const id of item.ids) {
        emit({ kind: "entry", key: id, id, parent: last, children: [], childCount: 1, hidden: 0 });
        last = id;
      }
      tails[i] = last!;
    }
  });
  return out;
}

/** The runs' members by id. */
class RunMap extends Map<string, string> implements RunIndex {
  addRun(segment: string, ids: readonly string[]): void {
    for (const id of ids) this.set(id, segment);
  }
}

/**
 * The runs' members by slot (a walk by slots knows each member's): a column instead of a map of most of a deep
 * session's ids, asked through the id's slot.
 */
class RunsBySlot implements RunIndex {
  /** per slot: 1 + the index of its run in `segments`, 0 outside runs */
  private readonly runAt: Int32Array;
  private readonly segments: string[] = [];
  size = 0;

  constructor(private readonly tree: SessionTree) {
    this.runAt = new Int32Array(tree.entryCount);
  }

  addRun(segment: string, _ids: readonly string[], slots: readonly number[]): void {
    this.segments.push(segment);
    const mark = this.segments.length;
    for (const slot of slots) this.runAt[slot] = mark;
    this.size += slots.length;
  }

  get(id: string): string | undefined {
    const slot = this.tree.slotOf(id);
    const mark = slot === -1 ? 0 : (this.runAt[slot] ?? 0);
    return mark === 0 ? undefined : this.segments[mark - 1];
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }
}

class PlanKeys implements DisplayKeys {
  constructor(
    private readonly plan: FoldPlan,
    private readonly expanded: ReadonlySet<string>,
  ) {}

  get(id: string): string | undefined {
    if (this.plan.alone.has(id)) return id;
    const segment = this.plan.runOf.get(id);
    if (segment !== undefined) return this.expanded.has(segment) ? id : segmentNodeKey(segment);
    return this.plan.hiddenBy.get(id);
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  get size(): number {
    return this.plan.alone.size + this.plan.runOf.size + this.plan.hiddenBy.size;
  }
}

/** The entry ids a display node stands for. */
export function idsOf(node: DisplayNode): readonly string[] {
  return node.kind === "segment" ? node.ids : [node.id];
}
