import { describe, expect, it, vi } from "vitest";
import { buildDisplayTree, displayTreeOf, idsOf, planFolds, segmentNodeKey, type DisplayTree } from "./display-tree";
import { FOLD_THRESHOLD } from "./sizes";
import { buildSession, chainSpecs, type EntrySpec } from "./testing/builders";
import { allFixtureSessions, fixtureSession } from "./testing/fixtures";
import { generateSession } from "../../bench/generate";
import { Session } from "../session";

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
    for (const id of session.tree.ids()) {
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

  it("opens each segment of a plan in place: its entries replace it, chained, and nothing else moves", () => {
    const session = fixtureSession("ca-large");
    const plan = planFolds(session, { keep: [session.leafId], labelled: session.labels() });
    const folded = displayTreeOf(plan, new Set());
    const before = JSON.stringify([...folded.nodes.values()]);
    expect(plan.runs.size).toBeGreaterThan(3);
    for (const [segment, run] of plan.runs) {
      const key = segmentNodeKey(segment);
      const shut = folded.nodes.get(key)!;
      const open = displayTreeOf(plan, new Set([segment]));
      expect(open.nodes.has(key)).toBe(false);
      // the run's entries, in order, each the parent of the next; the segment's parent and children at its ends
      run.forEach((id, i) => {
        const node = open.nodes.get(id)!;
        expect(node.parent).toBe(i === 0 ? shut.parent : run[i - 1]);
        expect(node.children).toEqual(i === run.length - 1 ? shut.children : [run[i + 1]]);
        expect(open.keyOf.get(id)).toBe(id);
      });
      if (shut.parent !== null)
        expect(open.nodes.get(shut.parent)!.children).toEqual(folded.nodes.get(shut.parent)!.children.map((k) => (k === key ? segment : k)));
      for (const child of shut.children) expect(open.nodes.get(child)!.parent).toBe(run[run.length - 1]);
      // every other node as it was
      for (const [other, node] of folded.nodes) {
        if (other === key || other === shut.parent || shut.children.includes(other)) continue;
        expect(open.nodes.get(other)).toEqual(node);
      }
      expect(open.nodes.size).toBe(folded.nodes.size - 1 + run.length);
      for (const id of session.tree.ids()) {
        if (!run.includes(id)) expect(open.keyOf.get(id)).toBe(folded.keyOf.get(id));
      }
    }
    // opening segments left the plan and the folded tree as they were
    expect(JSON.stringify([...displayTreeOf(plan, new Set()).nodes.values()])).toBe(before);
  });

  it("folds the same by slots as by a walk over ids, on every fixture and generated sessions", () => {
    const sessions = [
      ...allFixtureSessions(),
      ...[1, 2, 3].map((seed) => ({ name: `generated ${seed}`, session: Session.fromText(generateSession({ entries: 3000, seed })) })),
    ];
    let bySlot = 0;
    for (const { name, session } of sessions) {
      const tree = session.tree;
      const keep = [session.leafId];
      const labelled = session.labels();
      // a filter that draws every entry walks by ids (the walk by slots is for an unfiltered tree)
      const slots = planFolds(session, { keep, labelled, threshold: 3 });
      const ids = planFolds(session, { keep, labelled, threshold: 3, visible: () => true });
      if (tree.structureRevision === 0 && slots.runs.size > 0) bySlot++;
      const plain = (plan: typeof slots) => plan.items.map((item) => (item.kind === "run" ? { ...item, slots: undefined } : item));
      expect(plain(slots), name).toEqual(plain(ids));
      expect([...slots.alone], name).toEqual([...ids.alone]);
      expect(slots.runOf.size, name).toBe(ids.runOf.size);
      for (const id of tree.ids()) expect(slots.runOf.get(id), `${name} ${id}`).toBe(ids.runOf.get(id));
      for (const item of slots.items)
        if (item.kind === "run" && item.slots)
          expect(
            item.slots.map((slot) => tree.idAt(slot)),
            name,
          ).toEqual(item.ids);
    }
    expect(bySlot).toBeGreaterThan(5);
  });

  it("reads no entry when it applies expanded segments to a plan", () => {
    const session = fixtureSession("ca-large");
    const plan = planFolds(session, { keep: [session.leafId] });
    const tree = session.tree;
    let reads = 0;
    const count =
      <T extends unknown[], R>(f: (...args: T) => R) =>
      (...args: T): R => (reads++, f(...args));
    const get = tree.get.bind(tree);
    const children = tree.children.bind(tree);
    const onlyChildAt = tree.onlyChildAt.bind(tree);
    const spied = [
      vi.spyOn(tree, "get").mockImplementation(count(get)),
      vi.spyOn(tree, "children").mockImplementation(count(children)),
      vi.spyOn(tree, "onlyChildAt").mockImplementation(count(onlyChildAt)),
    ];
    try {
      const display = displayTreeOf(plan, new Set(plan.runs.keys()));
      expect(shownIds(display).length).toBe(session.tree.size);
      expect(reads).toBe(0);
      planFolds(session, { keep: [session.leafId] });
      expect(reads).toBeGreaterThan(session.tree.size); // the spies do count a walk
    } finally {
      for (const spy of spied) spy.mockRestore();
    }
  });
});
