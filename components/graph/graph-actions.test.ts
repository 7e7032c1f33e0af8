import { beforeEach, describe, expect, it } from "vitest";
import { viewer } from "@/components/viewer/store";
import { idsOf } from "@/lib/layout/display-tree";
import { modelSwitches, pathIds } from "@/lib/layout/marks";
import { fixtureSession } from "@/lib/layout/testing/fixtures";
import type { Session } from "@/lib/session";
import { cursorLinks } from "./flow-elements";
import { runGraphAction, type ActionHost } from "./graph-actions";
import { displayTreeOf } from "@/lib/layout/display-tree";
import { foldsFor, factsOf, layoutFor, shownLeaf, type GraphModel } from "./graph-model";
import type { GraphAction } from "./keys";

/** The model as the hook would build it from the store right now. */
function model(session: Session): GraphModel {
  const state = viewer.get();
  const { leafId, ghostAfterLine } = shownLeaf(session, state.historyStep);
  const labels = session.labels();
  const display = displayTreeOf(foldsFor(session, state.collapsed, leafId, labels), state.expandedSegments);
  const layout = layoutFor(session, display);
  const activePath = pathIds(session, leafId);
  const view = { leafId, activePath, selectedId: state.selectedId, cut: new Set<string>(), ghostAfterLine, labels, models: modelSwitches(session) };
  const facts = factsOf(session);
  const cursors = cursorLinks(display, facts);
  return { session, display, layout, facts, cursors, view, leafId, activePath, selectedId: state.selectedId, scrubbing: ghostAfterLine !== null };
}

const selections: { id: string; kind: string }[] = [];
const host: ActionHost = {
  fitView: () => {},
  toggleHelp: () => {},
  closeHelp: () => {},
  select: (id, kind) => {
    selections.push({ id, kind });
    viewer.select(id);
  },
};

function run(session: Session, action: GraphAction) {
  return runGraphAction(action, model(session), host);
}

describe("graph actions", () => {
  const session = fixtureSession("ca-large");
  const tree = session.tree;
  const leaf = session.leafId!;

  beforeEach(() => {
    viewer.reset();
    viewer.sessionReady(session);
    selections.length = 0;
  });

  it("walks up to the root, a folded segment being one stop entered at its last entry", () => {
    const path = session.branch(leaf).map((e) => e.id);
    const visited: string[] = [leaf];
    for (let guard = 0; guard < path.length && viewer.get().selectedId !== path[0]; guard++) {
      const display = model(session).display;
      const from = display.nodes.get(display.keyOf.get(viewer.get().selectedId!)!)!;
      run(session, "parent");
      const selected = viewer.get().selectedId!;
      // the entry right above the stop we left, whatever it is drawn as
      expect(selected).toBe(tree.parentOf(idsOf(from)[0]!));
      visited.push(selected);
    }
    expect(visited.at(-1)).toBe(path[0]);
    for (const id of visited) expect(path).toContain(id);
    // fewer stops than entries: the folded runs on the way were skipped in one step each
    expect(visited.length).toBeLessThan(path.length);
    expect(selections.every((s) => s.kind === "step")).toBe(true);
  });

  it("goes down toward the leaf first, as pi lists children", () => {
    const path = session.branch(leaf).map((e) => e.id);
    viewer.select(path[0]!);
    for (let i = 0; i < 6; i++) {
      run(session, "child");
      const selected = viewer.get().selectedId!;
      expect(path).toContain(selected);
    }
  });

  it("Home selects the root and End the leaf, a jump", () => {
    run(session, "root");
    expect(viewer.get().selectedId).toBe(session.branch(leaf)[0]!.id);
    run(session, "leaf");
    expect(viewer.get().selectedId).toBe(leaf);
    expect(selections.at(-1)).toEqual({ id: leaf, kind: "jump" });
  });

  it("folds a branch with Ctrl+← and opens it with Ctrl+→, like pi", () => {
    const root = session.branch(leaf)[0]!.id;
    viewer.select(root);
    run(session, "foldOrUp");
    expect(viewer.get().collapsed.has(root)).toBe(true);
    const collapsedRoot = model(session).display.nodes.get(root)!;
    expect(collapsedRoot.kind === "entry" && collapsedRoot.hidden).toBe(tree.size - 1);
    run(session, "unfoldOrDown");
    expect(viewer.get().collapsed.has(root)).toBe(false);
  });

  it("Space expands a folded segment and folds it back from one of its entries", () => {
    const display = model(session).display;
    const segment = [...display.nodes.values()].find((n) => n.kind === "segment")!;
    const first = idsOf(segment)[0]!;
    viewer.select(first);
    run(session, "toggleFold");
    expect(viewer.get().expandedSegments.has(first)).toBe(true);
    expect(model(session).display.nodes.get(first)?.kind).toBe("entry");
    run(session, "toggleFold");
    expect(viewer.get().expandedSegments.has(first)).toBe(false);
  });

  it("n follows the newest child down to a leaf", () => {
    viewer.select(session.branch(leaf)[0]!.id);
    run(session, "newestLeaf");
    const selected = viewer.get().selectedId!;
    expect(tree.children(selected)).toEqual([]);
    expect(selections.at(-1)?.kind).toBe("jump");
  });

  it("Enter opens the Entry tab, or expands a folded segment", () => {
    viewer.setTab("context");
    run(session, "open");
    expect(viewer.get().tab).toBe("entry");
    const segment = [...model(session).display.nodes.values()].find((n) => n.kind === "segment")!;
    viewer.select(idsOf(segment)[0]!);
    run(session, "open");
    expect(viewer.get().expandedSegments.has(idsOf(segment)[0]!)).toBe(true);
  });
});
