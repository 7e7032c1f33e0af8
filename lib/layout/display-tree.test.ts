import { describe, expect, it } from "vitest";
import { buildDisplayTree, idsOf, segmentNodeKey, type DisplayTree } from "./display-tree";
import { FOLD_THRESHOLD } from "./sizes";
import { buildSession, chainSpecs, type EntrySpec } from "./testing/builders";
import { allFixtureSessions, fixtureSession } from "./testing/fixtures";

function shownIds(display: DisplayTree): string[] {
  return [...display.nodes.values()].flatMap((node) => [...idsOf(node)]);
}

describe("buildDisplayTree", () => {
  it("keeps a short chain as single entries", () => {
    const session = buildSession(chainSpecs(FOLD_THRESHOLD + 1));
    const display = buildDisplayTree(session);
    expect([...display.nodes.keys()]).toEqual(session.tree.entries.map((e) => e.id));
    expect(display.runs.size).toBe(0);
  });

  it("folds a long chain between the root and the tip into one segment", () => {
    const session = buildSession(chainSpecs(20));
    const ids = session.tree.entries.map((e) => e.id as string);
    const display = buildDisplayTree(session, { keep: [] });
    const segment = display.nodes.get(segmentNodeKey(ids[1]!));
    expect(segment?.kind).toBe("segment");
    expect(idsOf(segment!)).toEqual(ids.slice(1, -1));
    expect(display.roots).toEqual([ids[0]]);
    expect(segment!.parent).toBe(ids[0]);
    expect(segment!.children).toEqual([ids[ids.length - 1]]);
    for (const id of ids.slice(1, -1)) expect(display.keyOf.get(id)).toBe(segment!.key);
  });

  it("shows the run's entries once the segment is expanded", () => {
    const session = buildSession(chainSpecs(20));
    const ids = session.tree.entries.map((e) => e.id as string);
    const display = buildDisplayTree(session, { expanded: new Set([ids[1]!]) });
    expect([...display.nodes.keys()]).toEqual(ids);
    expect(display.runs.get(ids[1]!)).toEqual(ids.slice(1, -1));
    expect(display.runOf.get(ids[5]!)).toBe(ids[1]);
  });

  it("never folds landmarks, labelled entries, kept entries or collapsed entries", () => {
    const specs: EntrySpec[] = chainSpecs(40);
    specs[10] = { ...specs[10]!, type: "compaction", extra: { summary: "s", tokensBefore: 1 } };
    specs[20] = { ...specs[20]!, type: "model_change", extra: { provider: "p", modelId: "m" } };
    const session = buildSession(specs);
    const display = buildDisplayTree(session, { keep: ["e25"], labelled: new Set(["e30"]), collapsed: new Set(["e35"]) });
    for (const id of ["e10", "e20", "e25", "e30", "e35"]) expect(display.keyOf.get(id)).toBe(id);
    // runs: e1..e9, e11..e19 fold; e21..e24, e26..e29, e31..e34 are too short
    expect([...display.runs.keys()]).toEqual(["e1", "e11"]);
    const collapsed = display.nodes.get("e35")!;
    expect(collapsed.kind === "entry" && collapsed.hidden).toBe(session.tree.size - 36);
    expect(collapsed.children).toEqual([]);
  });

  it("lists children in pi's order and keeps branch points visible", () => {
    const session = fixtureSession("ca-branching-a");
    const display = buildDisplayTree(session, { threshold: Infinity });
    for (const [id] of session.tree.byId) {
      const node = display.nodes.get(id)!;
      expect(node.children).toEqual(session.tree.children(id));
    }
    expect(display.roots).toEqual(session.shape().roots);
  });

  it.each(allFixtureSessions())("shows every entry of $name exactly once", ({ session }) => {
    const display = buildDisplayTree(session, { keep: [session.leafId], labelled: session.labels() });
    const shown = shownIds(display);
    expect(new Set(shown).size).toBe(shown.length);
    expect(shown.length).toBe(session.tree.size);
    expect(display.keyOf.size).toBe(session.tree.size);
  });

  it("keeps the 5,000-entry fixture to a few dozen nodes", () => {
    const session = fixtureSession("ca-large");
    const display = buildDisplayTree(session, { keep: [session.leafId], labelled: session.labels() });
    expect(session.tree.size).toBeGreaterThan(5000);
    expect(display.nodes.size).toBeLessThan(200);
    expect(display.keyOf.get(session.leafId!)).toBe(session.leafId);
    const segments = [...display.nodes.values()].filter((n) => n.kind === "segment");
    expect(segments.reduce((sum, s) => sum + idsOf(s).length, 0)).toBe(session.tree.size - (display.nodes.size - segments.length));
  });

  it("survives a 20,000-entry chain without recursion", () => {
    const session = buildSession(chainSpecs(20_000));
    const folded = buildDisplayTree(session);
    expect(folded.nodes.size).toBe(3);
    const unfolded = buildDisplayTree(session, { threshold: Infinity });
    expect(unfolded.nodes.size).toBe(20_000);
  });

  it("draws a parent cycle from its stand-in without looping", () => {
    const session = fixtureSession("edge-cycle");
    const display = buildDisplayTree(session, { threshold: 1 });
    for (const root of session.shape().cycleRoots) expect(display.keyOf.has(root)).toBe(true);
    expect(shownIds(display).length).toBe(session.tree.size);
  });
});
