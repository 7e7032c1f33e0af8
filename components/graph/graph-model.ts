/**
 * The steps of the graph pipeline that the hook memoises one by one, as plain
 * functions (no React): session + view state → display tree → layout → marks
 * → React Flow elements (those of the viewport's window, made by the canvas).
 * Tests compose them directly.
 */
import type { ViewerState } from "@/components/viewer/viewer-state";
import { TextComingError, type IdSet, type Session, type SessionEntry } from "@/lib/session";
import { describeEntry, describeFromIndex, kindAt, type EntryDescription } from "@/lib/layout/describe";
import { displayTreeOf, planFoldSteps, type DisplayTree, type FoldPlan } from "@/lib/layout/display-tree";
import { drain, type Steps } from "@/lib/layout/last-answer";
import { CURSOR_HEIGHT, CURSOR_WIDTH, NODE_HEIGHT, NODE_WIDTH } from "@/lib/layout/sizes";
import { layoutDisplayTree, layoutOf, treeOrder, type GraphLayout, type LayoutOptions } from "@/lib/layout/tidy-layout";
import type { CursorLink, EntryFacts, ViewMarks } from "./flow-elements";

export interface GraphModel {
  session: Session;
  display: DisplayTree;
  layout: GraphLayout;
  facts: EntryFacts;
  /** every cursor card's edge (a window needs them before it has cards) */
  cursors: readonly CursorLink[];
  /** what the cards mark: the canvas makes the cards of its window from these */
  view: ViewMarks;
  /** the leaf the graph marks: the scrubbed-to leaf while scrubbing, else the session's */
  leafId: string | null;
  activePath: IdSet;
  selectedId: string | null;
  scrubbing: boolean;
  /** the filter's visibility predicate (null: every entry drawn); a new one means the filter changed */
  visible?: ((id: string) => boolean) | null;
}

const descriptions = new WeakMap<object, EntryDescription>();

/**
 * What the cards need to know about entries, looked up by id (descriptions cached per entry object). While the
 * session's text is still coming, an entry whose frame is not here is described from the index alone, never read
 * at once (the tree then says textRefused, and the canvas draws it again once readRefused read it).
 */
export function factsOf(session: Session): EntryFacts {
  const tree = session.tree;
  const describe = (entry: SessionEntry) => {
    let d = descriptions.get(entry);
    if (!d) descriptions.set(entry, (d = describeEntry(entry)));
    return d;
  };
  return {
    describe(id) {
      if (!tree.textComing) return describe(tree.get(id)!);
      try {
        return describe(tree.readingAtMost(0, () => tree.get(id)!).value);
      } catch (error) {
        if (error instanceof TextComingError) return describeFromIndex(tree, tree.slotOf(id));
        throw error;
      }
    },
    kind: (id) => kindAt(tree, tree.slotOf(id)),
    kindAt: (slot) => kindAt(tree, slot),
    line(id) {
      const slot = tree.slotOf(id);
      return slot === -1 ? 0 : tree.lineAt(slot);
    },
    parent(id) {
      const slot = tree.slotOf(id);
      return slot === -1 ? null : tree.parentIdAt(slot);
    },
    exists: (id) => tree.slotOf(id) !== -1,
    moveTarget(id) {
      const slot = tree.slotOf(id);
      const target = slot === -1 ? undefined : tree.leafTargetAt(slot);
      return typeof target === "string" ? target : null;
    },
  };
}

/** The leaf the graph marks: the one at the scrubbed history step, else the file's. */
export function shownLeaf(session: Session, historyStep: number | null): { leafId: string | null; ghostAfterLine: number | null } {
  const step = historyStep === null ? null : (session.tree.leafHistory.at(historyStep) ?? null);
  return step ? { leafId: step.leafId, ghostAfterLine: step.line } : { leafId: session.leafId, ghostAfterLine: null };
}

let lastFolds: { session: Session; revision: number; args: readonly unknown[]; plan: FoldPlan } | null = null;

/**
 * The fold walk for the graph's options; the expanded segments are applied to it by displayTreeOf. The last
 * plan is kept: the loader makes it ahead of the first render (warm-graph.ts), which then finds it.
 */
export function foldsFor(
  session: Session,
  collapsed: ViewerState["collapsed"],
  leafId: string | null,
  labels: { has(id: string): boolean },
  visible?: ((id: string) => boolean) | null,
): FoldPlan {
  return drain(foldSteps(session, collapsed, leafId, labels, visible));
}

/** foldsFor as a walk in slices, for the loader. */
export function* foldSteps(
  session: Session,
  collapsed: ViewerState["collapsed"],
  leafId: string | null,
  labels: { has(id: string): boolean },
  visible?: ((id: string) => boolean) | null,
): Steps<FoldPlan> {
  const args = [collapsed, leafId, labels, visible ?? null, session.leafId];
  const last = lastFolds;
  const revision = session.tree.revision;
  if (last && last.session === session && last.revision === revision && last.args.every((a, i) => a === args[i])) return last.plan;
  const plan = yield* planFoldSteps(session, { collapsed, keep: [session.leafId, leafId], labelled: labels, visible: visible ?? undefined });
  lastFolds = { session, revision, args, plan };
  return plan;
}

let lastDisplay: { plan: FoldPlan; expanded: ReadonlySet<string>; display: DisplayTree } | null = null;

/** The display tree of the fold plan with `expanded` segments open (the last one kept, as foldsFor keeps its plan). */
export function displayFor(plan: FoldPlan, expanded: ReadonlySet<string>): DisplayTree {
  if (lastDisplay?.plan === plan && lastDisplay.expanded === expanded) return lastDisplay.display;
  const display = displayTreeOf(plan, expanded);
  lastDisplay = { plan, expanded, display };
  return display;
}

let lastLayout: { session: Session; display: DisplayTree; layout: GraphLayout } | null = null;

/** A card's size: small for a cursor (by the type column: a layout reads no entry). */
function cardSizes(session: Session): LayoutOptions {
  const small = { width: CURSOR_WIDTH, height: CURSOR_HEIGHT };
  const full = { width: NODE_WIDTH, height: NODE_HEIGHT };
  const tree = session.tree;
  return { sizeOf: (key) => (tree.typeAt(tree.slotOf(key)) === "leaf" ? small : full) };
}

export function layoutFor(session: Session, display: DisplayTree): GraphLayout {
  if (lastLayout?.session === session && lastLayout.display === display) return lastLayout.layout;
  const layout = layoutDisplayTree(display, cardSizes(session));
  lastLayout = { session, display, layout };
  return layout;
}

/**
 * layoutFor made ahead, its tidy tree computed by `xsOf` (a worker: tidyXsOffThread), and left where layoutFor
 * finds it.
 */
export async function layoutAhead(session: Session, display: DisplayTree, xsOf: (parents: Int32Array) => Promise<Float64Array>): Promise<void> {
  if (lastLayout?.session === session && lastLayout.display === display) return;
  const order = treeOrder(display);
  const xs = await xsOf(order.parents);
  lastLayout = { session, display, layout: layoutOf(order, xs, cardSizes(session)) };
}
