import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Session } from "@/lib/session";
import { listFixtures } from "@/lib/session/testing/golden";
import { loadPiSessionStats } from "@/lib/session/testing/pi-session-stats";
import { Rng } from "@/lib/session/testing/rng";
import { branchUsage, bucketRows, countOnce, dayOf, usageBuckets, usageRecordOf, usageRows, weekOf, zeroUsage, type TreeUsageEntry } from "./usage";
import { addUsageInto } from "@/lib/session/usage";

const E2E = path.resolve(__dirname, "../../e2e/fixtures/sessions");

/** Every .jsonl under the e2e sessions dir and the shared fixtures. */
function sessionFiles(): string[] {
  const e2e = readdirSync(E2E, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(".jsonl"))
    .map((f) => path.join(E2E, f));
  return [...e2e, ...listFixtures().map((f) => f.file)].filter((f) => statSync(f).size < 64 * 1024 * 1024);
}

const parsedLines = (file: string): unknown[] => parsedText(readFileSync(file, "utf8"));
const parsedText = (text: string): unknown[] =>
  text.split("\n").flatMap((line) => {
    try {
      return [JSON.parse(line)];
    } catch {
      return [];
    }
  });

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

describe("usageRecordOf", () => {
  it("counts what pi 1.6's /session stats count, file by file", async () => {
    const piStats = await loadPiSessionStats();
    let withUsage = 0;
    for (const file of sessionFiles()) {
      // what pi's SessionManager.getEntries holds: every entry line but session headers
      const entries = parsedLines(file).filter((v) => typeof v === "object" && v !== null && (v as { type?: unknown }).type !== "session");
      let pi;
      try {
        pi = piStats(entries);
      } catch {
        continue; // pi's stats throw on an entry it cannot read (a message without content, usage without cost)
      }
      const ours = zeroUsage();
      for (const entry of entries) {
        const record = usageRecordOf(entry);
        if (record) addUsageInto(ours, record);
      }
      expect(ours.input, file).toBe(pi.tokens.input);
      expect(ours.output, file).toBe(pi.tokens.output);
      expect(ours.cacheRead, file).toBe(pi.tokens.cacheRead);
      expect(ours.cacheWrite, file).toBe(pi.tokens.cacheWrite);
      expect(close(ours.cost, pi.cost), `${file}: ${ours.cost} vs ${pi.cost}`).toBe(true);
      if (pi.cost > 0) withUsage++;
    }
    expect(withUsage).toBeGreaterThan(10);
  });

  it("names the model an assistant answered with, a usage entry's kind, and the entry's day", () => {
    const usage = { input: 1, output: 2, cacheRead: 3, cacheWrite: 4, cost: { total: 0.5 } };
    expect(
      usageRecordOf({
        type: "message",
        timestamp: "2026-02-10T23:59:00Z",
        message: { role: "assistant", provider: "anthropic", model: "m", responseModel: "m-2", usage },
      }),
    ).toMatchObject({ model: "anthropic/m-2", source: "assistant", cost: 0.5, time: Date.parse("2026-02-10T23:59:00Z") });
    expect(usageRecordOf({ type: "usage", kind: "cache_warm", provider: "p", model: "x", usage })).toMatchObject({ model: "p/x", source: "usage:cache_warm" });
    expect(usageRecordOf({ type: "message", message: { role: "user", usage } })).toBeNull();
    // a model without its provider is named alone; a provider without its model names none
    expect(usageRecordOf({ type: "compaction", model: "x", usage })).toMatchObject({ model: "x" });
    expect(usageRecordOf({ type: "compaction", provider: "p", model: "", usage })).toMatchObject({ model: "(unknown)" });
    expect(usageRecordOf({ type: "branch_summary", provider: "p", usage })).toMatchObject({ model: "(unknown)" });
    expect(dayOf(Date.parse("2026-02-10T23:59:00Z"))).toBe("2026-02-10");
    // ISO weeks start on Monday: Sunday 2026-02-15 belongs to the week of Monday 2026-02-09
    expect(weekOf(Date.parse("2026-02-15T12:00:00Z"))).toBe("2026-02-09");
    expect(weekOf(Date.parse("2026-02-16T00:00:00Z"))).toBe("2026-02-16");
  });
});

describe("countOnce", () => {
  it("counts an entry a fork copied once, in the oldest file, on files pi forked at random entries", () => {
    for (const fixture of listFixtures().filter((f) => /^ca-/.test(f.name) && !/large/.test(f.name))) {
      const text = readFileSync(fixture.file, "utf8");
      const source = Session.fromText(text);
      const rng = new Rng(fixture.name.length);
      const ids = [...source.tree.ids()];
      const files = [{ file: "source", text, time: "2026-01-01" }];
      for (let i = 0; i < 4; i++) {
        const fork = source.fork(rng.pick(ids), { sourcePath: "/s/source.jsonl" }, "ca");
        files.push({ file: `fork${i}`, text: fork.text, time: `2026-02-0${i + 1}` });
      }
      const digests = files.map(({ file, text: t, time }) => ({
        file,
        time,
        project: "p",
        entries: parsedText(t).flatMap((v) => {
          const usage = usageRecordOf(v);
          const entry = v as { id?: string; parentId?: unknown };
          return usage ? [{ key: `${entry.id} ${JSON.stringify({ ...entry, parentId: undefined })}`, usage }] : [];
        }),
      }));
      const { counted, copied } = countOnce(digests);
      // direct: the source's own usage; the forks copied only from it and added nothing
      const direct = zeroUsage();
      for (const entry of digests[0]!.entries) addUsageInto(direct, entry.usage);
      const [total] = usageRows(counted, "project");
      expect(close(total?.cost ?? 0, direct.cost), fixture.name).toBe(true);
      expect(total?.input ?? 0).toBe(direct.input);
      expect(counted.every((c) => c.file === "source")).toBe(true);
      for (const fork of digests.slice(1)) {
        const sum = zeroUsage();
        for (const entry of fork.entries) addUsageInto(sum, entry.usage);
        expect(copied.get(fork.file)?.input ?? 0).toBe(sum.input);
      }
    }
  });
});

describe("branchUsage", () => {
  const u = (cost: number) => ({ input: cost, output: 0, cacheRead: 0, cacheWrite: 0, cost });

  it("splits a session into branches that add up to it, marking those on the way to the leaf", () => {
    for (let seed = 1; seed <= 50; seed++) {
      const rng = new Rng(seed);
      const entries: TreeUsageEntry[] = [];
      for (let i = 0; i < 5 + rng.int(80); i++) {
        entries.push({ id: `e${i}`, parentId: i === 0 ? null : `e${rng.int(i)}`, usage: rng.chance(0.6) ? u(rng.int(100)) : null });
      }
      const leaf = entries[rng.int(entries.length)]!.id;
      const branches = branchUsage(entries, leaf);
      expect(branches.reduce((n, b) => n + b.entries, 0)).toBe(entries.length);
      expect(branches.reduce((n, b) => n + b.cost, 0)).toBe(entries.reduce((n, e) => n + (e.usage?.cost ?? 0), 0));
      // every branch ends at an entry without children or with several
      const children = new Map<string, number>();
      for (const e of entries) if (e.parentId) children.set(e.parentId, (children.get(e.parentId) ?? 0) + 1);
      for (const b of branches) expect(children.get(b.leafId) ?? 0).not.toBe(1);
      const onPath = new Set<string>();
      for (let at: string | null = leaf; at; at = entries.find((e) => e.id === at)!.parentId) onPath.add(at);
      for (const b of branches) expect(b.onActivePath, `seed ${seed} ${b.leafId}`).toBe(onPath.has(b.leafId));
    }
  });

  it("keeps entries in a loop of parents as one more branch", () => {
    const branches = branchUsage(
      [
        { id: "a", parentId: null, usage: u(1) },
        { id: "x", parentId: "y", usage: u(5) },
        { id: "y", parentId: "x", usage: u(7) },
      ],
      "a",
    );
    expect(branches.map((b) => [b.entries, b.cost])).toEqual([
      [1, 1],
      [2, 12],
    ]);
  });
});

describe("bucketRows", () => {
  it("gives usageRows' rows from sums by file, day and model, for every grouping and a date's since", () => {
    // every entry with usage of the e2e sessions and fixtures, spread over files, projects and days at random
    const rng = new Rng(22);
    const items = sessionFiles().flatMap((file, i) =>
      parsedLines(file).flatMap((value) => {
        const record = usageRecordOf(value);
        if (!record) return [];
        // some entries moved to other days, some without a date, so days, weeks and "(no date)" all occur; a file is in one project
        const time = rng.next() < 0.05 ? NaN : record.time + Math.floor(rng.next() * 40) * 86_400_000 * (rng.next() < 0.5 ? -1 : 1);
        return [{ record: { ...record, time }, file: `f${i % 17}`, project: `p${(i % 17) % 5}` }];
      }),
    );
    expect(items.length).toBeGreaterThan(200);
    const buckets = usageBuckets(items);
    expect(buckets.length).toBeLessThan(items.length);
    const days = [...new Set(buckets.map((b) => b.day))].filter((d) => d !== dayOf(NaN)).sort();
    for (const by of ["day", "week", "model", "project", "session"] as const)
      for (const since of [null, Date.parse(`${days[Math.floor(days.length / 2)]}T00:00:00Z`), Date.parse(`${days.at(-1)}T00:00:00Z`)]) {
        const expected = usageRows(items, by, since);
        const got = bucketRows(buckets, by, since);
        expect(got.map((r) => r.key)).toEqual(expected.map((r) => r.key));
        for (const [i, row] of got.entries()) {
          const want = expected[i]!;
          expect({ ...row, cost: 0 }).toEqual({ ...want, cost: 0 });
          expect(close(row.cost, want.cost)).toBe(true);
        }
      }
  });
});
