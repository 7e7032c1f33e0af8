import { describe, expect, it } from "vitest";
import { idsOf } from "@/lib/layout/display-tree";
import { cutFromContext, modelSwitches, pathIds } from "@/lib/layout/marks";
import { visibilityOf } from "@/lib/layout/tree-filter";
import { fixtureSession } from "@/lib/layout/testing/fixtures";
import type { Session } from "@/lib/session";
import { countSteps, summarise, toFlowElements, type ViewMarks } from "./flow-elements";
import { displayTreeOf, planFolds } from "@/lib/layout/display-tree";
import { foldsFor, factsOf, layoutFor, shownLeaf } from "./graph-model";

function elementsFor(session: Session, selectedId: string | null, historyStep: number | null = null, previous?: Parameters<typeof toFlowElements>[4]) {
  const { leafId, ghostAfterLine } = shownLeaf(session, historyStep);
  const labels = session.labels();
  const display = displayTreeOf(foldsFor(session, new Set(), leafId, labels), new Set());
  const layout = layoutFor(session, display);
  const view: ViewMarks = {
    leafId,
    activePath: pathIds(session, leafId),
    selectedId,
    cut: cutFromContext(session, selectedId),
    ghostAfterLine,
    labels,
    models: modelSwitches(session),
  };
  return { display, ...toFlowElements(display, layout, view, factsOf(session), previous) };
}

describe("toFlowElements", () => {
  it("draws one node per display node and one tree edge per link", () => {
    const session = fixtureSession("ca-large");
    const { display, nodes, edges } = elementsFor(session, session.leafId);
    expect(nodes.length).toBe(display.nodes.size);
    expect(edges.filter((e) => e.id.startsWith("tree:")).length).toBe(display.nodes.size - display.roots.length);
    const ids = nodes.flatMap((n) => (n.type === "segment" ? n.data.ids.split(" ") : [n.data.id]));
    expect(ids.length).toBe(session.tree.size);
  });

  it("marks the leaf once and the active path as session.branch says", () => {
    const session = fixtureSession("ca-branching-a");
    const { nodes } = elementsFor(session, null);
    expect(nodes.filter((n) => n.data.leaf).map((n) => n.id)).toEqual([session.leafId]);
    const onPath = nodes.filter((n) => n.data.activePath).flatMap((n) => (n.type === "segment" ? n.data.ids.split(" ") : [n.data.id]));
    expect(new Set(onPath)).toEqual(new Set(session.branch(session.leafId!).map((e) => e.id)));
  });

  it("draws HX leaf entries as cursor markers with a dashed edge to their target", () => {
    const session = fixtureSession("hx-leaf-moves-a");
    const { nodes, edges, display } = elementsFor(session, null);
    const moves = [...session.tree.nodes()].filter((n) => n.entry.type === "leaf");
    expect(nodes.filter((n) => n.type === "cursor").length).toBe(moves.length);
    const withTarget = moves.filter((m) => typeof m.entry.targetId === "string" && session.tree.get(m.entry.targetId as string));
    const cursorEdges = edges.filter((e) => e.id.startsWith("cursor:"));
    expect(cursorEdges.length).toBe(withTarget.length);
    for (const edge of cursorEdges) {
      const move = session.tree.get(edge.id.slice("cursor:".length))!;
      expect(edge.target).toBe(display.keyOf.get(move.targetId as string));
    }
  });

  it("ghosts what was written after the scrubbed line and moves the leaf mark", () => {
    const session = fixtureSession("hx-leaf-moves-a");
    const step = [...session.tree.leafHistory].findIndex((s) => s.kind === "leaf-entry" && s.leafId !== null);
    const { nodes } = elementsFor(session, null, step);
    const { leafId, ghostAfterLine } = shownLeaf(session, step);
    expect(nodes.filter((n) => n.data.leaf).map((n) => (n.type === "segment" ? n.data.segment : n.data.id))).toEqual([leafId]);
    for (const node of nodes) {
      if (node.type === "segment") continue;
      expect(node.data.ghost).toBe(session.tree.node(node.data.id)!.line > ghostAfterLine!);
    }
  });

  it("fades the path entries the selected entry's context leaves out", () => {
    const session = fixtureSession("ca-compaction-a");
    const leaf = session.leafId!;
    const { nodes } = elementsFor(session, leaf);
    const kept = new Set(session.contextEntries(leaf).map((e) => e.id));
    for (const node of nodes) {
      if (node.type !== "entry") continue;
      const onPath = session.branch(leaf).some((e) => e.id === node.data.id);
      expect(node.data.cut).toBe(onPath && !kept.has(node.data.id));
    }
  });

  it("keeps the node objects of cards a selection change does not touch", () => {
    const session = fixtureSession("ca-branching-a");
    const leaf = session.leafId!;
    const first = elementsFor(session, leaf);
    const other = session.tree.parentOf(leaf)!;
    const second = elementsFor(session, other, null, first.byId);
    const changed = second.nodes.filter((n) => first.byId.get(n.id) !== n).map((n) => n.id);
    // the two cards whose selection changed, and the cards whose context cut changed
    const cutBefore = cutFromContext(session, leaf);
    const cutAfter = cutFromContext(session, other);
    const expected = second.nodes
      .filter((n) => idsOf(second.display.nodes.get(n.id)!).some((id) => id === leaf || id === other || cutBefore.has(id) !== cutAfter.has(id)))
      .map((n) => n.id);
    expect(changed.sort()).toEqual(expected.sort());
  });
});

describe("a folded run under a tree filter", () => {
  it("counts the entries between its first and last that the filter hides, as the file's parents say", () => {
    const session = fixtureSession("ca-large");
    const filter = { mode: null, hiddenTypes: new Set<string>(), hiddenRoles: new Set(["toolResult"]) };
    const visible = visibilityOf(session, filter)!;
    const { leafId } = shownLeaf(session, null);
    const labels = session.labels();
    const display = displayTreeOf(foldsFor(session, new Set(), leafId, labels, visible), new Set());
    const view: ViewMarks = { leafId, activePath: pathIds(session, leafId), selectedId: null, cut: new Set(), ghostAfterLine: null, labels, models: new Map() };
    const { nodes } = toFlowElements(display, layoutFor(session, display), view, factsOf(session));
    const segments = nodes.filter((n) => n.type === "segment");
    expect(segments.length).toBeGreaterThan(0);
    let total = 0;
    for (const segment of segments) {
      const ids = segment.data.ids.split(" ");
      // the file's entries from the first to the last of the run, walking parents up from the last
      const span: string[] = [];
      for (let id: string | null = ids[ids.length - 1]!; id !== null && id !== ids[0]; id = session.tree.node(id)!.parentId) span.push(id);
      const hidden = span.filter((id) => !visible(id));
      expect(segment.data.filtered).toBe(hidden.length);
      expect(hidden.every((id) => session.tree.get(id)!.type === "message")).toBe(true);
      total += hidden.length;
    }
    expect(total).toBeGreaterThan(0);
  });

  it("counts none without a filter", () => {
    const session = fixtureSession("ca-large");
    const { nodes } = elementsFor(session, null);
    for (const node of nodes) if (node.type === "segment") expect(node.data.filtered).toBe(0);
  });

  it("summarises a run the same from its slots as from its ids", () => {
    let runs = 0;
    for (const name of ["ca-large", "ca-medium-a", "ca-compaction-multi-a", "hx-leaf-moves-a"]) {
      const session = fixtureSession(name);
      const facts = factsOf(session);
      for (const item of planFolds(session, { threshold: 3 }).items) {
        if (item.kind !== "run" || !item.slots) continue;
        runs++;
        // (a copy of the ids: a summary is kept per run array)
        expect(summarise(item.ids, facts, item.slots), name).toEqual(summarise([...item.ids], facts));
      }
    }
    expect(runs).toBeGreaterThan(10);
  });

  it("counts a run's kinds without reading an entry: only its first and last are read, when its card is made", () => {
    const session = fixtureSession("ca-large");
    const facts = factsOf(session);
    const described: string[] = [];
    const watched = {
      ...facts,
      kindAt: facts.kindAt.bind(facts),
      kind: facts.kind.bind(facts),
      describe: (id: string) => (described.push(id), facts.describe(id)),
    };
    const runs = planFolds(session, { threshold: 3 }).items.filter((item) => item.kind === "run" && item.slots);
    expect(runs.length).toBeGreaterThan(3);
    for (const item of runs) {
      if (item.kind !== "run") continue;
      const steps = countSteps(item.ids, watched as typeof facts, item.slots);
      let step = steps.next();
      while (!step.done) step = steps.next();
      expect(step.value.counts).toEqual(summarise([...item.ids], facts).counts);
    }
    expect(described).toEqual([]);
    const run = runs[0]!;
    if (run.kind !== "run") throw new Error("not a run");
    summarise(run.ids, watched as typeof facts, run.slots);
    expect(described).toEqual([run.ids[0], run.ids[run.ids.length - 1]]);
  });
});
