// The loader makes the graph's first drawing ahead (warm-graph.ts): the render must then find every walk over the
// entries already made, for the view it will show.
import { describe, expect, it, vi } from "vitest";
import * as displayTree from "@/lib/layout/display-tree";
import * as minimapPaths from "./minimap-paths";
import { viewer } from "@/components/viewer/store";
import { sessionRewinds } from "@/lib/layout/leaf-history";
import { cutFromContext, modelSwitches, pathIds } from "@/lib/layout/marks";
import { fixtureSession } from "@/lib/layout/testing/fixtures";
import { visibilityOf } from "@/lib/layout/tree-filter";
import { displayFor, factsOf, foldsFor, layoutFor, shownLeaf } from "./graph-model";
import { miniCards, miniCardsFor } from "./mini-cards";
import { warmGraph } from "./warm-graph";

// the fold walk and the tidy layout, counted: after the warm-up the render must not make them again
vi.mock("@/lib/layout/display-tree", async (original) => {
  const actual = await original<typeof displayTree>();
  return { ...actual, planFoldSteps: vi.fn(actual.planFoldSteps), displayTreeOf: vi.fn(actual.displayTreeOf) };
});

// the minimap's drawing, counted likewise
vi.mock("./minimap-paths", async (original) => {
  const actual = await original<typeof minimapPaths>();
  return { ...actual, drawCards: vi.fn(actual.drawCards) };
});

describe("warmGraph", () => {
  it.each(["ca-branching-a", "ca-compaction-multi-a", "ca-large"])("leaves on %s the answers the first render asks for", async (name) => {
    viewer.reset();
    const session = fixtureSession(name);
    const state = viewer.get();
    const leafId = shownLeaf(session, state.historyStep).leafId;
    const before = { plan: foldsFor(session, state.collapsed, leafId, session.labels(), null), switches: modelSwitches(session) };
    // another session in between takes the caches' single places
    const other = fixtureSession("ca-tiny");
    foldsFor(other, state.collapsed, other.leafId, other.labels(), null);
    await warmGraph(session, state, null, () => false);
    const walks = vi.mocked(displayTree.planFoldSteps).mock.calls.length;
    const displays = vi.mocked(displayTree.displayTreeOf).mock.calls.length;
    // the hook's calls, with the store's state as the first render reads it
    const plan = foldsFor(session, state.collapsed, leafId, session.labels(), visibilityOf(session, state.treeFilter));
    const display = displayFor(plan, state.expandedSegments);
    const layout = layoutFor(session, display);
    const draws = vi.mocked(minimapPaths.drawCards).mock.calls.length;
    const cards = miniCardsFor(display, layout, factsOf(session), leafId, pathIds(session, leafId));
    expect(vi.mocked(minimapPaths.drawCards).mock.calls.length).toBe(draws);
    expect(cards).toEqual(miniCards(display, layout, factsOf(session), leafId, pathIds(session, leafId)));
    expect(vi.mocked(displayTree.planFoldSteps).mock.calls.length).toBe(walks);
    expect(vi.mocked(displayTree.displayTreeOf).mock.calls.length).toBe(displays);
    expect(plan).not.toBe(before.plan);
    expect(plan).toEqual(before.plan);
    expect(modelSwitches(session)).toBe(before.switches);
    expect(pathIds(session, leafId)).toBe(pathIds(session, leafId));
    expect(sessionRewinds(session, null)).toBe(sessionRewinds(session, null));
    expect(cutFromContext(session, session.leafId)).toBe(cutFromContext(session, session.leafId));
  });

  it("stops when the load is given up", async () => {
    viewer.reset();
    const session = fixtureSession("ca-large");
    let asked = 0;
    await warmGraph(session, viewer.get(), null, () => ++asked > 1);
    expect(asked).toBe(2);
  });
});
