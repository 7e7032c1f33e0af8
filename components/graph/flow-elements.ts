/**
 * Layout + view marks → React Flow nodes and edges. The canvas decides
 * nothing: every flag a card shows (leaf, active path, selected, cut from the
 * context, after the scrubbed line) is computed here. Node objects whose data
 * did not change are reused, so memoised node components skip re-rendering.
 */
import { Position, type Edge, type Node, type NodeHandle } from "@xyflow/react";
import { countKinds, type EntryDescription, type EntryKind, type KindCounts } from "@/lib/layout/describe";
import { idsOf, type DisplayTree } from "@/lib/layout/display-tree";
import { drain, STEP_EVERY, type Steps } from "@/lib/layout/last-answer";
import type { GraphLayout } from "@/lib/layout/tidy-layout";
import type { IdSet } from "@/lib/session";

interface Marks {
  /** the leaf the graph marks (the scrubbed-to leaf while scrubbing) */
  leaf: boolean;
  activePath: boolean;
  selected: boolean;
  /** on the selected node's path but not in its context */
  cut: boolean;
  /** written after the line the timeline is scrubbed to */
  ghost: boolean;
}

export interface EntryNodeData extends Marks, Record<string, unknown> {
  id: string;
  kind: EntryKind;
  title: string;
  text: string;
  tools: string;
  error: boolean;
  model: string | null;
  label: string | null;
  childCount: number;
  hidden: number;
  /** first entry of an expanded run: it carries the control that folds the run again */
  runStart: string | null;
  runSize: number;
  /** its words are being read (the session's text is still coming: describeFromIndex) */
  coming: boolean;
}

export interface SegmentNodeData extends Marks, Record<string, unknown> {
  segment: string;
  ids: string;
  count: number;
  first: string;
  last: string;
  counts: KindCounts;
  /** entries between the first and the last that the tree filter hides */
  filtered: number;
  /** position of the selected entry inside the run, 1-based, or 0 */
  selectedIndex: number;
  selectedEntry: string | null;
}

export interface CursorNodeData extends Marks, Record<string, unknown> {
  id: string;
  target: string | null;
  targetMissing: boolean;
}

export type EntryFlowNode = Node<EntryNodeData, "entry">;
export type SegmentFlowNode = Node<SegmentNodeData, "segment">;
export type CursorFlowNode = Node<CursorNodeData, "cursor">;
export type GraphFlowNode = EntryFlowNode | SegmentFlowNode | CursorFlowNode;

export interface ViewMarks {
  leafId: string | null;
  activePath: IdSet;
  selectedId: string | null;
  cut: IdSet;
  /** entries on later lines are ghosts; null: not scrubbing */
  ghostAfterLine: number | null;
  labels: ReadonlyMap<string, { label: string }>;
  models: ReadonlyMap<string, string>;
}

export interface EntryFacts {
  describe(id: string): EntryDescription;
  /** the kind alone, cheap (segment counts look at every folded entry) */
  kind(id: string): EntryKind;
  /** the kind of the entry in a slot of the session's tree (a run the fold walk made by slots knows them) */
  kindAt(slot: number): EntryKind;
  line(id: string): number;
  /** the entry's parent in the file (not the one a filter leaves it) */
  parent(id: string): string | null;
  exists(id: string): boolean;
  /** where an HX `leaf` entry moves the cursor (null: before the first entry) */
  moveTarget(id: string): string | null;
}

/**
 * Where each card's 1 px handles sit (React Flow's CSS centres them on the card's edge), known up front.
 * React Flow mounts every node whose handles it has not measured yet, whether on screen or not: without
 * these, the first frame of a 100k-entry session mounted all ~3,000 cards (82k layout objects) only to
 * drop all but a dozen once measured.
 */
function handlesOf(type: GraphFlowNode["type"], width: number, height: number): NodeHandle[] {
  const at = (id: string, kind: "source" | "target", position: Position, x: number, y: number): NodeHandle => ({
    id,
    type: kind,
    position,
    x: x - 0.5,
    y: y - 0.5,
    width: 1,
    height: 1,
  });
  const top = at("in", "target", Position.Top, width / 2, 0);
  const bottom = at("out", "source", Position.Bottom, width / 2, height);
  if (type === "cursor") return [top, at("move-out", "source", Position.Left, 0, height / 2), bottom];
  return [top, at("move-in", "target", Position.Right, width, height / 2), bottom];
}

/** One line for an entry in a segment's summary: its words, else its tool calls, else what it is. */
function summaryLine(d: EntryDescription): string {
  return d.text || d.tools.join(" · ") || d.title;
}

/** What a segment's card counts of its run: read from the index's columns alone. */
interface SegmentCounts {
  ids: string;
  counts: KindCounts;
  /** entries between the first and the last that the tree filter hides */
  filtered: number;
}

/** What a segment's card says of its run: its counts, and the words of its first and last entries. */
type SegmentSummary = SegmentCounts & { first: string; last: string };

/** How many entries of the file lie between a run's consecutive shown entries: those the filter hid. */
function filteredWithin(ids: readonly string[], facts: EntryFacts): number {
  let hidden = 0;
  for (let i = 1; i < ids.length; i++) {
    const above = ids[i - 1]!;
    // a run's next entry descends from the one before it; a walk that misses it (a broken tree) counts nothing
    let steps = 0;
    let p = facts.parent(ids[i]!);
    while (p !== null && p !== above && steps < ids.length + hidden + 1_000_000) {
      steps++;
      p = facts.parent(p);
    }
    if (p === above) hidden += steps;
  }
  return hidden;
}

/** per run (the display tree's array): what its card says does not change with the selection */
const counted = new WeakMap<readonly string[], SegmentCounts>();
const ends = new WeakMap<readonly string[], { first: string; last: string }>();

/** What a segment's card says of its entries (kept per run: a long run is read once). */
export function summarise(ids: readonly string[], facts: EntryFacts, slots?: readonly number[]): SegmentSummary {
  let words = ends.get(ids);
  if (!words) {
    // only for the cards the window makes: a run's ends are read from their entries, which a big session keeps few of
    const first = facts.describe(ids[0]!);
    const last = facts.describe(ids[ids.length - 1]!);
    words = { first: summaryLine(first), last: summaryLine(last) };
    // (words not read yet are read again: see describeFromIndex)
    if (!first.coming && !last.coming) ends.set(ids, words);
  }
  return { ...drain(countSteps(ids, facts, slots)), ...words };
}

/**
 * What summarise counts, as a walk in slices (a run can hold most of a deep session's entries): the loader's first
 * drawing. With the run's slots (the fold walk went by slots: no filter), kinds are read by slot, and no entry was
 * left out.
 */
export function* countSteps(ids: readonly string[], facts: EntryFacts, slots?: readonly number[]): Steps<SegmentCounts> {
  let summary = counted.get(ids);
  if (!summary) {
    const kinds: EntryKind[] = new Array<EntryKind>(ids.length);
    for (let i = 0; i < ids.length; i++) {
      if (i % STEP_EVERY === STEP_EVERY - 1) yield;
      kinds[i] = slots ? facts.kindAt(slots[i]!) : facts.kind(ids[i]!);
    }
    summary = { ids: ids.join(" "), counts: countKinds(kinds), filtered: slots ? 0 : filteredWithin(ids, facts) };
    counted.set(ids, summary);
  }
  return summary;
}

const all = (ids: readonly string[], test: (id: string) => boolean) => ids.length > 0 && ids.every(test);

function sameData(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  for (const key in b) {
    const x = a[key];
    const y = b[key];
    if (x === y) continue;
    if (typeof x === "object" && typeof y === "object" && x && y && sameData(x as Record<string, unknown>, y as Record<string, unknown>)) continue;
    return false;
  }
  return true;
}

function reuse<T extends GraphFlowNode>(previous: ReadonlyMap<string, GraphFlowNode>, next: T): T {
  const old = previous.get(next.id);
  if (
    old &&
    old.type === next.type &&
    old.position.x === next.position.x &&
    old.position.y === next.position.y &&
    old.width === next.width &&
    old.height === next.height &&
    sameData(old.data, next.data)
  )
    return old as T;
  next.handles = handlesOf(next.type, next.width!, next.height!);
  return next;
}

export interface FlowElements {
  nodes: GraphFlowNode[];
  edges: Edge[];
  byId: Map<string, GraphFlowNode>;
}

/** A cursor card's edge to the entry its move set the leaf to (by display keys). */
export interface CursorLink {
  source: string;
  target: string;
  /** the cursor entry */
  id: string;
}

/** Every cursor card's edge: made once per display tree, and what a window needs to know of cursor edges before cards exist. */
export function cursorLinks(display: DisplayTree, facts: EntryFacts): CursorLink[] {
  const links: CursorLink[] = [];
  for (const node of display.nodes.values()) {
    if (node.kind === "segment" || facts.kind(node.id) !== "leaf") continue;
    const target = facts.moveTarget(node.id);
    const targetKey = target === null ? undefined : display.keyOf.get(target);
    if (targetKey) links.push({ source: node.key, target: targetKey, id: node.id });
  }
  return links;
}

/**
 * The React Flow nodes and edges of the display tree's cards: all of them, or only those whose keys `only`
 * holds (the window around the viewport; an edge is made when both its ends are).
 */
export function toFlowElements(
  display: DisplayTree,
  layout: GraphLayout,
  view: ViewMarks,
  facts: EntryFacts,
  previous: ReadonlyMap<string, GraphFlowNode> = new Map(),
  only: ReadonlySet<string> | null = null,
  cursors: readonly CursorLink[] = cursorLinks(display, facts),
): FlowElements {
  const ghost = (id: string) => view.ghostAfterLine !== null && facts.line(id) > view.ghostAfterLine;
  const nodes: GraphFlowNode[] = [];
  const edges: Edge[] = [];
  const byId = new Map<string, GraphFlowNode>();
  const held = (key: string) => only === null || only.has(key);

  for (const node of display.nodes.values()) {
    if (!held(node.key)) continue;
    const box = layout.boxes.get(node.key)!;
    const base = {
      id: node.key,
      position: { x: box.x, y: box.y },
      width: box.width,
      height: box.height,
      draggable: false,
      connectable: false,
      selectable: false,
    };
    let flow: GraphFlowNode;
    if (node.kind === "segment") {
      const ids = node.ids;
      // each entry of a run descends from the one before it, so the active path (root → leaf) that meets the run
      // holds its first entry, and a cut (which takes a path's top) that holds the last holds all: nothing here
      // reads the whole run but the one the selection is in
      const inRun = (id: string | null) => id !== null && display.runOf.get(id) === node.segment;
      const selectedIndex = inRun(view.selectedId) ? ids.indexOf(view.selectedId!) + 1 : 0;
      flow = {
        ...base,
        type: "segment",
        data: {
          segment: node.segment,
          count: ids.length,
          ...summarise(ids, facts, node.slots),
          selectedIndex,
          selectedEntry: selectedIndex > 0 ? view.selectedId : null,
          leaf: inRun(view.leafId),
          activePath: ids.length > 0 && view.activePath.has(ids[0]!),
          selected: selectedIndex > 0,
          cut: ids.length > 0 && view.cut.has(ids[ids.length - 1]!) && (view.cut.hasRun?.(ids) ?? all(ids, (id) => view.cut.has(id))),
          ghost: all(ids, ghost),
        },
      };
    } else {
      const id = node.id;
      const d = facts.describe(id);
      const marks: Marks = {
        leaf: id === view.leafId,
        activePath: view.activePath.has(id),
        selected: id === view.selectedId,
        cut: view.cut.has(id),
        ghost: ghost(id),
      };
      if (d.kind === "leaf") {
        const target = facts.moveTarget(id);
        flow = { ...base, type: "cursor", data: { ...marks, id, target, targetMissing: target !== null && !facts.exists(target) } };
      } else {
        const runStart = display.runOf.get(id) === id ? id : null;
        flow = {
          ...base,
          type: "entry",
          data: {
            ...marks,
            id,
            kind: d.kind,
            title: d.title,
            text: d.text,
            tools: d.tools.join(" · "),
            error: d.error,
            model: view.models.get(id) ?? null,
            label: view.labels.get(id)?.label ?? null,
            childCount: node.childCount,
            hidden: node.hidden,
            runStart,
            runSize: runStart ? display.runs.get(runStart)!.length : 0,
            coming: d.coming === true,
          },
        };
      }
    }
    flow = reuse(previous, flow);
    nodes.push(flow);
    byId.set(flow.id, flow);
  }

  for (const link of cursors) {
    if (!held(link.source) || !held(link.target)) continue;
    edges.push({
      id: `cursor:${link.id}`,
      source: link.source,
      target: link.target,
      sourceHandle: "move-out",
      targetHandle: "move-in",
      style: { stroke: "var(--graph-cursor)", strokeWidth: 1.5, strokeDasharray: "4 4", opacity: ghost(link.id) ? 0.25 : 0.7 },
      zIndex: 0,
    });
  }
  for (const link of layout.links) {
    if (!held(link.source) || !held(link.target)) continue;
    const target = display.nodes.get(link.target)!;
    // a run on the path has its first entry there (see above)
    const onPath = view.activePath.has(idsOf(target)[0]!);
    const faint = all(idsOf(target), ghost);
    edges.push({
      id: `tree:${link.source}>${link.target}`,
      source: link.source,
      target: link.target,
      type: "smoothstep",
      style: {
        stroke: onPath ? "var(--accent)" : "var(--graph-edge)",
        strokeWidth: onPath ? 2 : 1.25,
        ...(faint ? { strokeDasharray: "3 4", opacity: 0.4 } : {}),
      },
      zIndex: onPath ? 1 : 0,
    });
  }
  return { nodes, edges, byId };
}
