import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { scopeStats } from "./scope-stats";
import { fileStats, sessionStats } from "./session-stats";
import { Session } from "..";
import { FIXTURES_DIR, listFixtures } from "../testing/golden";

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- raw JSON lines, read loosely on purpose

const FIXTURES = [
  "ca-tiny",
  "ca-labels",
  "ca-branching-a",
  "ca-roles-a",
  "ca-compaction-multi-a",
  "ca-medium-a",
  "ca-large",
  "hx-retained-a",
  "hx-leaf-moves-a",
];

function rawEntries(name: string): Obj[] {
  return readFileSync(path.join(FIXTURES_DIR, `${name}.jsonl`), "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Obj)
    .filter((o) => o.type !== "session");
}

/** The test's own totals: plain sums over the raw objects. */
function sums(entries: Obj[], all: Obj[]) {
  const roles: Record<string, number> = {};
  const tools: Record<string, number> = {};
  const models: Record<string, number> = {};
  const tokens = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0 };
  let compactions = 0;
  const times: number[] = [];
  for (const e of entries) {
    times.push(Date.parse(e.timestamp));
    if (e.type === "compaction") compactions++;
    const usage =
      e.type === "message" && e.message?.role === "assistant" ? e.message.usage : e.type === "compaction" || e.type === "branch_summary" ? e.usage : undefined;
    if (usage) {
      for (const k of ["input", "output", "cacheRead", "cacheWrite"] as const) tokens[k] += usage[k] ?? 0;
      tokens.cost += usage.cost?.total ?? 0;
    }
    if (e.type !== "message") continue;
    roles[e.message.role] = (roles[e.message.role] ?? 0) + 1;
    if (e.message.role !== "assistant") continue;
    const model = `${e.message.provider}/${e.message.model}`;
    models[model] = (models[model] ?? 0) + 1;
    for (const block of e.message.content ?? []) if (block.type === "toolCall") tools[block.name] = (tools[block.name] ?? 0) + 1;
  }
  const childCount = new Map<string, number>();
  for (const e of all) if (e.parentId) childCount.set(e.parentId, (childCount.get(e.parentId) ?? 0) + 1);
  const branchPoints = entries.filter((e) => (childCount.get(e.id) ?? 0) > 1).length;
  return { roles, tools, models, tokens, compactions, branchPoints, duration: Math.max(...times) - Math.min(...times) };
}

function expectMatches(stats: ReturnType<typeof scopeStats>, expected: ReturnType<typeof sums>) {
  expect(stats.roles).toEqual(expected.roles);
  expect(stats.toolCalls).toEqual(expected.tools);
  expect(stats.models).toEqual(expected.models);
  expect(stats.usage.input).toBe(expected.tokens.input);
  expect(stats.usage.output).toBe(expected.tokens.output);
  expect(stats.usage.cacheRead).toBe(expected.tokens.cacheRead);
  expect(stats.usage.cacheWrite).toBe(expected.tokens.cacheWrite);
  expect(stats.usage.cost).toBeCloseTo(expected.tokens.cost, 9);
  expect(stats.compactions).toBe(expected.compactions);
  expect(stats.branchPoints).toBe(expected.branchPoints);
  expect(stats.durationMs).toBe(expected.duration);
  const perModel = Object.values(stats.modelUsage).reduce((sum, u) => sum + u.input + u.output, 0);
  expect(perModel + stats.summaryUsage.input + stats.summaryUsage.output).toBe(expected.tokens.input + expected.tokens.output);
}

describe("scopeStats", () => {
  for (const name of FIXTURES) {
    it(`totals the whole of ${name} as plain sums over its lines do`, () => {
      const all = rawEntries(name);
      const session = Session.fromText(readFileSync(path.join(FIXTURES_DIR, `${name}.jsonl`), "utf8"));
      const stats = scopeStats(session, { kind: "session" });
      expect(stats.entries).toBe(all.length);
      expectMatches(stats, sums(all, all));
    });

    it(`totals root → entry paths of ${name} as a walk up parentId does`, () => {
      const all = rawEntries(name);
      const byId = new Map(all.map((e) => [e.id as string, e]));
      const session = Session.fromText(readFileSync(path.join(FIXTURES_DIR, `${name}.jsonl`), "utf8"));
      const leaves = all.filter((e) => !all.some((c) => c.parentId === e.id)).slice(0, 6);
      for (const leaf of leaves) {
        const path: Obj[] = [];
        for (let e: Obj | undefined = leaf; e; e = e.parentId ? byId.get(e.parentId) : undefined) path.unshift(e);
        const stats = scopeStats(session, { kind: "branch", id: leaf.id });
        expect(stats.entries).toBe(path.length);
        expectMatches(stats, sums(path, all));
      }
    });
  }

  for (const fixture of listFixtures()) {
    it(`totals the whole of ${fixture.name} from the tree's running tally as a pass over every entry does`, () => {
      const session = Session.fromText(readFileSync(fixture.file, "utf8"));
      expect(fileStats(session.tree)).toEqual(sessionStats(session.tree.entries, session.tree));
    });
  }

  it("counts entries whose id is empty, duplicate ids and id-less entries in the whole-file totals as a pass over them does", () => {
    const line = (o: object) => JSON.stringify(o);
    const text = [
      line({ type: "session", version: 3, id: "s", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" }),
      line({ type: "message", id: "a", parentId: null, timestamp: "2026-01-01T00:00:05.000Z", message: { role: "user", content: "x" } }),
      line({ type: "message", id: "", parentId: "a", timestamp: "2026-01-01T00:00:01.000Z", message: { role: "user", content: "y" } }),
      line({ type: "message", id: "", parentId: "a", timestamp: "not a time", message: { role: "user", content: "z" } }),
      line({ type: "custom", parentId: "a", timestamp: "2026-01-01T00:00:09.000+02:00" }),
      line({ type: "message", id: "b", parentId: "a", timestamp: "2026-01-01T00:00:03.000Z", message: { role: "user", content: "w" } }),
      line({
        type: "message",
        id: "b",
        parentId: "",
        timestamp: "2026-01-01T00:00:03.000Z",
        message: { role: "assistant", provider: "p", model: "m", content: [], usage: { input: 3, output: 1 } },
      }),
      line({ id: "c", parentId: "b", timestamp: 7 }),
    ].join("\n");
    const session = Session.fromText(text);
    const stats = fileStats(session.tree);
    expect(stats).toEqual(sessionStats(session.tree.entries, session.tree));
    expect(stats.entries).toBe(7);
    expect(stats.leaves).toBe(4); // a (its children have no usable id), the two entries with id "", c
    expect(stats.firstTimestamp).toBe(7); // a number is a time too (ms since 1970), as pi's Date reads it
    expect(stats.lastTimestamp).toBe("2026-01-01T00:00:05.000Z");
  });

  it("answers again from its cache until the session grows", () => {
    const session = Session.fromText(readFileSync(path.join(FIXTURES_DIR, "ca-tiny.jsonl"), "utf8"));
    expect(scopeStats(session, { kind: "session" })).toBe(scopeStats(session, { kind: "session" }));
  });
});
