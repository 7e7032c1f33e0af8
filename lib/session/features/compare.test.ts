import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { compareNodes, messageKey, type Comparison } from "./compare";
import { contextModelLabel } from "../model-label";
import { Session, SessionQueryError } from "..";
import { FIXTURES_DIR } from "../testing/golden";

interface GoldenRecord {
  path: string[];
  context: string[];
  messages: unknown[];
  messageCount: number;
  model: { provider?: string; modelId?: string } | null;
  thinkingLevel: unknown;
}

type Golden = {
  codingAgent: { tree: { roots: string[]; children: Record<string, string[]> }; leaves: Record<string, GoldenRecord> };
  harness: { leaves: Record<string, GoldenRecord> };
};

function load(name: string, reader: "ca" | "hx" = "ca") {
  const session = Session.fromText(readFileSync(path.join(FIXTURES_DIR, `${name}.jsonl`), "utf8"), { reader });
  const golden = JSON.parse(readFileSync(path.join(FIXTURES_DIR, `golden/${name}.golden.json`), "utf8")) as Golden;
  return { session, golden };
}

/** Entries without children in pi's tree: the ends of the lines one would compare. */
function treeLeaves(golden: Golden): string[] {
  const { roots, children } = golden.codingAgent.tree;
  const out: string[] = [];
  const stack = [...roots];
  while (stack.length) {
    const id = stack.pop()!;
    const kids = children[id] ?? [];
    if (kids.length === 0) out.push(id);
    stack.push(...kids);
  }
  return out.sort();
}

function commonPrefix(a: string[], b: string[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

/** Ids of the messages pi stored unchanged ("=<id>" in the goldens). */
const storedIds = (record: GoldenRecord) => record.messages.filter((m): m is string => typeof m === "string" && !m.includes("#")).map((m) => m.slice(1));

/** The comparison against pi's own branch and context answers for both entries. */
function checkAgainstGoldens(result: Comparison, session: Session, ga: GoldenRecord, gb: GoldenRecord) {
  const common = commonPrefix(ga.path, gb.path);
  expect(result.commonAncestorId).toBe(common > 0 ? ga.path[common - 1] : null);
  expect(result.a.segment).toEqual(ga.path.slice(common));
  expect(result.b.segment).toEqual(gb.path.slice(common));
  expect(result.a.contextEntryIds).toEqual(ga.context);
  expect(result.b.contextEntryIds).toEqual(gb.context);
  expect(result.a.model).toEqual(ga.model);
  expect(result.b.thinkingLevel).toBe(gb.thinkingLevel);
  expect(result.modelDiffers).toBe(contextModelLabel(ga.model) !== contextModelLabel(gb.model));
  expect(result.thinkingDiffers).toBe(ga.thinkingLevel !== gb.thinkingLevel);

  // the three lists partition each side's messages, in the side's order
  expect(result.onlyInA.length + result.shared.length).toBe(ga.messageCount);
  expect(result.onlyInB.length + result.shared.length).toBe(gb.messageCount);
  const inA = new Set([...result.onlyInA, ...result.shared].map((m) => m.key));
  expect(
    session
      .context(result.a.id)
      .messages.map(messageKey)
      .filter((k) => inA.has(k)),
  ).toHaveLength(ga.messageCount);

  const ctxA = new Set(ga.context);
  const ctxB = new Set(gb.context);
  for (const m of result.onlyInA) expect(ctxA.has(m.entryId) && !ctxB.has(m.entryId), m.key).toBe(true);
  for (const m of result.onlyInB) expect(ctxB.has(m.entryId) && !ctxA.has(m.entryId), m.key).toBe(true);
  for (const m of result.shared) expect(ctxA.has(m.entryId) && ctxB.has(m.entryId), m.key).toBe(true);
  const storedB = new Set(storedIds(gb));
  const sharedIds = new Set(result.shared.map((m) => m.entryId));
  for (const id of storedIds(ga)) expect(sharedIds.has(id), id).toBe(storedB.has(id));
}

describe.each(["ca-branching-a", "ca-compaction-a", "ca-compaction-multi-a", "ca-medium-a", "ca-labels"])(
  "compareNodes on %s agrees with pi's branch and context",
  (name) => {
    const { session, golden } = load(name);
    const records = golden.codingAgent.leaves;
    const leaves = treeLeaves(golden);
    const ids = Object.keys(records);

    it("for every pair of tree leaves", () => {
      expect(leaves.length).toBeGreaterThan(1);
      for (const a of leaves) for (const b of leaves) checkAgainstGoldens(compareNodes(session, a, b), session, records[a]!, records[b]!);
    });

    it("for each leaf against entries along the file", () => {
      for (const a of leaves)
        for (let i = 0; i < ids.length; i += 5) checkAgainstGoldens(compareNodes(session, a, ids[i]!), session, records[a]!, records[ids[i]!]!);
    });
  },
);

describe("compareNodes in the special cases", () => {
  const { session, golden } = load("ca-branching-a");
  const records = golden.codingAgent.leaves;
  const leaves = treeLeaves(golden);

  it("an entry against itself: everything shared, no segments", () => {
    const a = leaves[0]!;
    const result = compareNodes(session, a, a);
    expect(result.commonAncestorId).toBe(a);
    expect(result.a.segment).toEqual([]);
    expect(result.b.segment).toEqual([]);
    expect(result.onlyInA).toEqual([]);
    expect(result.onlyInB).toEqual([]);
    expect(result.shared.map((m) => m.message)).toEqual(session.context(a).messages);
    expect(result.a.segmentUsage.totalTokens).toBe(0);
  });

  it("an ancestor against its descendant: the ancestor is the common one, only B has a segment", () => {
    const b = leaves.find((id) => records[id]!.path.length > 4)!;
    const a = records[b]!.path[2]!;
    const result = compareNodes(session, a, b);
    expect(result.commonAncestorId).toBe(a);
    expect(result.a.segment).toEqual([]);
    expect(result.b.segment).toEqual(records[b]!.path.slice(3));
    expect(result.onlyInA).toEqual([]);
  });

  it("entries under different roots share no ancestor and no message", () => {
    const { roots } = golden.codingAgent.tree;
    expect(roots.length).toBeGreaterThan(1);
    const under = (root: string) => leaves.find((id) => records[id]!.path[0] === root)!;
    const [a, b] = [under(roots[0]!), under(roots[1]!)];
    const result = compareNodes(session, a, b);
    expect(result.commonAncestorId).toBeNull();
    expect(result.a.segment).toEqual(records[a]!.path);
    expect(result.b.segment).toEqual(records[b]!.path);
    expect(result.shared).toEqual([]);
    expect(result.onlyInA).toHaveLength(records[a]!.messageCount);
  });

  it("an id not in the file is pi's not-found error", () => {
    expect(() => compareNodes(session, leaves[0]!, "nope")).toThrow(SessionQueryError);
    expect(() => compareNodes(session, "nope", leaves[0]!)).toThrow(/Entry nope not found/);
  });

  it("sums usage over the path and the segment, and reports the last assistant usage", () => {
    const [a, b] = leaves.filter((id) => records[id]!.messageCount > 0);
    const result = compareNodes(session, a!, b!);
    expect(result.a.pathUsage).toEqual(session.pathSummary(a!).usage);
    expect(result.b.pathUsage).toEqual(session.pathSummary(b!).usage);
    const ancestorUsage = result.commonAncestorId ? session.pathSummary(result.commonAncestorId).usage.totalTokens : 0;
    expect(result.a.segmentUsage.totalTokens).toBeCloseTo(result.a.pathUsage.totalTokens - ancestorUsage);
  });
});

describe("compareNodes with the harness reader", () => {
  const { session, golden } = load("hx-retained-a", "hx");
  const records = golden.harness.leaves;
  const ids = Object.keys(records);

  it("keys retained-tail items by compaction and index, and matches pi's message counts", () => {
    let tails = 0;
    for (const a of ids) {
      for (const b of ids) {
        const result = compareNodes(session, a, b);
        expect(result.onlyInA.length + result.shared.length).toBe(records[a]!.messageCount);
        expect(result.onlyInB.length + result.shared.length).toBe(records[b]!.messageCount);
        const keys = [...result.onlyInA, ...result.shared].map((m) => m.key);
        expect(new Set(keys).size).toBe(keys.length);
        tails += keys.filter((k) => k.includes("#retainedTail[")).length;
      }
    }
    expect(tails).toBeGreaterThan(0);
    const tailItems = records[ids.find((id) => records[id]!.messages.some((m) => typeof m === "string" && m.includes("#retainedTail[")))!]!;
    const result = compareNodes(session, tailItems.path.at(-1)!, tailItems.path.at(-1)!);
    const expectedTails = tailItems.messages.filter((m): m is string => typeof m === "string" && m.includes("#")).map((m) => m.slice(1));
    expect(result.shared.map((m) => m.key).filter((k) => k.includes("#"))).toEqual(expectedTails);
  });
});
