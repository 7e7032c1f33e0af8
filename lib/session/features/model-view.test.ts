/**
 * The model's view on every shared fixture, at every entry, against pi
 * 0.84.1's own code: its SessionManager's buildSessionContext, then its
 * convertToLlm and token accounting over those messages (pi computes the
 * expected answers as the goldens do; the random differential tests cover the
 * other versions and the harness).
 */
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Session } from "../session";
import { TreePath } from "../tree/tree-path";
import { SessionQueryError } from "../types";
import { listFixtures } from "../testing/golden";
import {
  loadBranchSummary,
  loadCompaction,
  loadProjection,
  moduleUrl,
  sameBranchSummary,
  sameCompaction,
  sameModelView,
  summaryPairs,
  SUMMARY_BUDGETS,
  type CaModule,
  type PiBranchSummary,
  type PiCompaction,
  type PiProjection,
} from "../testing/oracle";
import type { WrittenEntry } from "../testing/random-session";
import { Rng } from "../testing/rng";
import { autoCompactAfter, chartPoints, contextSizes, contextSizesAt, modelView, wouldCompact, type ContextSizePoint } from "./model-view";
import { linearSession } from "../testing/linear-session";
import type { JsonObject } from "../types";
import { readFileSync } from "node:fs";

interface Sm {
  getEntries(): WrittenEntry[];
  getBranch(id?: string): WrittenEntry[];
}

let ca: CaModule<Sm>;
let pi: PiProjection;
let piCompaction: PiCompaction;
let piSummary: PiBranchSummary;
let tmp: string;

beforeAll(async () => {
  ca = (await import(moduleUrl("@earendil-works/pi-coding-agent/dist/core/session-manager.js"))) as CaModule<Sm>;
  pi = await loadProjection("@earendil-works/pi-coding-agent", "coding-agent");
  piCompaction = await loadCompaction("@earendil-works/pi-coding-agent", "coding-agent");
  piSummary = await loadBranchSummary("@earendil-works/pi-coding-agent", "coding-agent");
  tmp = mkdtempSync(path.join(os.tmpdir(), "pi-model-view-"));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("modelView, compaction and branch-summary previews on the shared fixtures, as pi 0.84.1 computes them", () => {
  for (const fixture of listFixtures()) {
    it(
      fixture.name,
      async () => {
        const original = Session.fromText(readFileSync(fixture.file, "utf8"), { reader: "ca" });
        if (original.parser.caRefused) return expect(original.diagnostics().some((d) => d.severity === "error")).toBe(true);
        // pi's SessionManager rewrites a file it migrates (v1, v2: with ids it draws): it gets a copy, and we read the copy
        // as pi left it, so that both name the entries alike
        const copy = path.join(tmp, path.basename(fixture.file));
        copyFileSync(fixture.file, copy);
        const sm = ca.SessionManager.open(copy, tmp);
        const session = Session.fromText(readFileSync(copy, "utf8"), { reader: "ca" });
        const entries = sm.getEntries();
        const byId = new Map(entries.map((e) => [e.id, e]));
        for (const entry of entries) {
          if (typeof entry.id !== "string") continue; // an entry pi could not name (v3 without ids): nothing to ask about
          // where pi cannot build the context (a parent cycle never returns; a missing message throws) the golden tests
          // check that we say so; there is nothing to send
          let ours;
          try {
            ours = modelView(session, entry.id, "ca");
          } catch (error) {
            expect(error, `${fixture.name} entry ${entry.id}`).toBeInstanceOf(SessionQueryError);
            expect((error as SessionQueryError).kind, `${fixture.name} entry ${entry.id}: pi knows it`).not.toBe("not-found");
            continue;
          }
          const theirs = ca.buildSessionContext(entries, entry.id, byId);
          sameModelView(ours, theirs.messages, pi, `${fixture.name} entry ${entry.id}`);
          for (const keep of [20000, 300]) sameCompaction(session, entry.id, sm.getBranch(entry.id), piCompaction, keep, `${fixture.name} entry ${entry.id}`);
        }
        // /tree from the file's leaf to entries across the file
        const leaf = session.leafId;
        for (const [index, [, to]] of summaryPairs(
          entries.map((e) => e.id).filter((id) => typeof id === "string"),
          12,
          entries.length,
        ).entries()) {
          // a walk into a parent cycle never returns in pi: we say so instead (the golden tests cover it)
          const cycle = (() => {
            try {
              session.branchSummary(leaf, to, 0);
              return false;
            } catch (error) {
              return error instanceof SessionQueryError && error.kind === "cycle";
            }
          })();
          if (!cycle) await sameBranchSummary(session, sm, piSummary, leaf, to, SUMMARY_BUDGETS[index % SUMMARY_BUDGETS.length]!, fixture.name);
        }
      },
      600_000,
    ); // every entry of ca-large against pi's own code: over a minute of CPU, more on a busy machine
  }
});

describe("contextSizes", () => {
  it("charts each trusted reply's reported context and marks the compactions with their tokensBefore", () => {
    const fixture = listFixtures().find((f) => f.name === "ca-compaction-a")!;
    const session = Session.fromText(readFileSync(fixture.file, "utf8"));
    const path = session.branch(session.leafId!);
    const points = [...contextSizes(TreePath.ofEntries(path))];
    const compactions = path.filter((e) => e.type === "compaction");
    expect(points.filter((p) => p.kind === "compaction").map((p) => [p.entryId, p.tokens])).toEqual(compactions.map((e) => [e.id, e.tokensBefore]));
    for (const point of points.filter((p) => p.kind === "usage")) {
      const message = path[point.index]!.message as { usage: { totalTokens: number }; stopReason: string };
      expect(point.tokens).toBe(message.usage.totalTokens);
      expect(["aborted", "error"]).not.toContain(message.stopReason);
    }
    expect(points.some((p) => p.kind === "usage")).toBe(true);
  });
});

describe("chartPoints", () => {
  // a path of 10,000 replies whose sizes rise and fall, with a compaction every 2,500
  const points: ContextSizePoint[] = [];
  for (let index = 0; index < 10_000; index++) {
    if (index % 2500 === 1250) points.push({ entryId: `c${index}`, index, kind: "compaction", tokens: 90_000 });
    else points.push({ entryId: `u${index}`, index, kind: "usage", tokens: 1000 + ((index * 7919) % 5003) + (index === 4321 ? 200_000 : 0) });
  }

  it("keeps, per bucket, the smallest and largest reply in path order, every compaction, and the peak", () => {
    const { points: shown, peak } = chartPoints(points, 10_000, 100);
    expect(peak).toBe(Math.max(...points.map((p) => p.tokens!)));
    expect(shown.filter((p) => p.kind === "compaction")).toEqual(points.filter((p) => p.kind === "compaction"));
    expect(shown.map((p) => p.index)).toEqual([...shown.map((p) => p.index)].sort((a, b) => a - b));
    expect(shown.length).toBeLessThanOrEqual(2 * 100 + 2 * 4 + 4);
    for (let bucket = 0; bucket < 100; bucket++) {
      const inBucket = points.filter((p) => p.kind === "usage" && Math.floor((p.index / 10_000) * 100) === bucket);
      const kept = shown.filter((p) => p.kind === "usage" && Math.floor((p.index / 10_000) * 100) === bucket);
      const sizes = inBucket.map((p) => p.tokens!);
      expect(kept.map((p) => p.tokens)).toContain(Math.min(...sizes));
      expect(kept.map((p) => p.tokens)).toContain(Math.max(...sizes));
    }
    expect(shown.some((p) => p.entryId === "u4321")).toBe(true);
  });

  it("keeps every point when there are fewer than the buckets", () => {
    const few = points.slice(0, 50);
    expect(chartPoints(few, 50, 640).points).toEqual(few);
  });
});

describe("wouldCompact", () => {
  it("is pi's shouldCompact: over window − reserve, and unknown without a window", () => {
    const settings = { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 };
    expect(wouldCompact(200000 - 16384, 200000, settings)).toBe(false);
    expect(wouldCompact(200000 - 16383, 200000, settings)).toBe(true);
    expect(wouldCompact(5, null, settings)).toBeNull();
    expect(wouldCompact(1e9, 200000, { ...settings, enabled: false })).toBe(false);
  });
});

describe("autoCompactAfter (pi 0.84's threshold check after a reply)", () => {
  const settings = { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 };
  const usage = (total: number) => ({ input: total, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: total, cost: { total: 0 } });
  const reply = (total: number, extra: JsonObject = {}) => ({
    role: "assistant",
    content: [{ type: "text", text: "ok" }],
    usage: usage(total),
    stopReason: "stop",
    timestamp: 5000,
    ...extra,
  });
  const check = (session: Session, id: string, window: number | null) =>
    autoCompactAfter(session.tree.get(id)!, modelView(session, id), session.sharedBranch(id), window, settings);

  it("compacts once the reply's own usage passes window − reserve", () => {
    const over = linearSession([{ role: "user", content: "hi", timestamp: 1 }, reply(200000 - 16383)]);
    expect(check(over, "m2", 200000)).toMatchObject({ verdict: true, tokens: 200000 - 16383 });
    const under = linearSession([{ role: "user", content: "hi", timestamp: 1 }, reply(200000 - 16384)]);
    expect(check(under, "m2", 200000)).toMatchObject({ verdict: false, tokens: 200000 - 16384 });
    expect(check(under, "m2", null)).toMatchObject({ verdict: null });
  });

  it("checks only after a reply, never after an aborted one", () => {
    const session = linearSession([{ role: "user", content: "hi", timestamp: 1 }, reply(1e6, { stopReason: "aborted" })]);
    expect(check(session, "m1", 200000).verdict).toBeNull();
    expect(check(session, "m2", 200000)).toMatchObject({ verdict: false, reason: expect.stringMatching(/aborted/) });
  });

  it("measures an error reply by the context's estimate, from the last usage pi trusts", () => {
    const session = linearSession([
      { role: "user", content: "hi", timestamp: 1 },
      reply(190000),
      { role: "user", content: "x".repeat(400), timestamp: 6000 },
      reply(0, { stopReason: "error", timestamp: 7000 }),
    ]);
    const view = modelView(session, "m4");
    expect(view.tokens).toMatchObject({ usageTokens: 190000, lastUsageIndex: 1 });
    expect(check(session, "m4", 200000)).toMatchObject({ verdict: true, tokens: view.tokens!.tokens });
    const alone = linearSession([{ role: "user", content: "hi", timestamp: 1 }, reply(0, { stopReason: "error" })]);
    expect(check(alone, "m2", 200000)).toMatchObject({ verdict: false, reason: expect.stringMatching(/no reply/) });
  });

  it("does not check a reply older than the branch's latest compaction", () => {
    const compaction = {
      type: "compaction",
      id: "c1",
      parentId: "m2",
      timestamp: "2026-01-01T00:00:10.000Z",
      summary: "s",
      firstKeptEntryId: "m2",
      tokensBefore: 5,
    };
    // the reply after the compaction carries the timestamp it was written with: before the compaction's
    const late = {
      type: "message",
      id: "m3",
      parentId: "c1",
      timestamp: "2026-01-01T00:00:11.000Z",
      message: reply(1e6, { timestamp: Date.parse("2026-01-01T00:00:09.000Z") }),
    };
    const session = linearSession([{ role: "user", content: "hi", timestamp: 1 }, reply(10)], [compaction, late]);
    expect(check(session, "m3", 200000)).toMatchObject({ verdict: false, reason: expect.stringMatching(/older than/) });
  });
});

describe("contextSizesAt", () => {
  it("answers contextSizes of the path, walks it once per entry and tree revision, and again once the tree grows", () => {
    for (const fixture of listFixtures()) {
      const session = Session.fromText(readFileSync(fixture.file, "utf8"));
      for (const id of [...session.tree.ids()].slice(-3)) {
        let path;
        try {
          path = session.branch(id);
        } catch {
          continue; // a path pi cannot walk has no sizes either
        }
        expect(session.sharedBranch(id).entries(), fixture.name).toEqual(path);
        const sizes = contextSizesAt(session, id);
        expect([...sizes], fixture.name).toEqual([...contextSizes(TreePath.ofEntries(path))]);
        expect(contextSizesAt(session, id)).toBe(sizes);
      }
    }
    const session = linearSession([{ role: "user", content: "hi", timestamp: 1 }]);
    const leaf = session.leafId!;
    const before = contextSizesAt(session, leaf);
    session.parser.reopen();
    session.parser.push(
      `${JSON.stringify({ type: "label", id: "l0000001", parentId: leaf, timestamp: "2026-01-01T00:00:09.000Z", targetId: leaf, label: "x" })}\n`,
    );
    session.parser.end();
    expect(contextSizesAt(session, leaf)).not.toBe(before);
    expect(contextSizesAt(session, leaf)).toEqual(before);
  });

  it("answers the same when it takes a known path's prefix or extends one, whatever order entries are asked in", () => {
    const rng = new Rng(11);
    for (const fixture of listFixtures()) {
      const session = Session.fromText(readFileSync(fixture.file, "utf8"));
      const ids = [...session.tree.ids()];
      const step = Math.max(1, Math.floor(ids.length / 80));
      const asked = ids.filter((_, i) => i % step === 0).sort(() => rng.next() - 0.5);
      for (const id of asked) {
        let path;
        try {
          path = session.branch(id);
        } catch {
          continue;
        }
        const direct = contextSizes(TreePath.ofEntries(path));
        const sizes = contextSizesAt(session, id);
        expect([...sizes], `${fixture.name} ${id}`).toEqual([...direct]);
        expect(sizes.replies).toBe([...direct].filter((p) => p.kind === "usage").length);
      }
    }
  });
});
