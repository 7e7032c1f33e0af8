import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Session } from "@/lib/session";
import { loadPiSessionStats } from "@/lib/session/testing/pi-session-stats";
import { Rng } from "@/lib/session/testing/rng";
import { findSessionFiles } from "./list-sessions";
import type { SessionUsageRow, UsageGrouping } from "@/lib/library/usage";
import { libraryUsage } from "./library-usage";

const E2E = path.resolve(__dirname, "../../e2e/fixtures/sessions");
const SAMPLES = path.resolve(__dirname, "../../public/samples");

let dir: string;
let cacheRoot: string;

/** The library's usage as the app reads it: from the index, made in a cache of the test's own. */
const usageOf = async (root: string, by: UsageGrouping, since: number | null = null) =>
  libraryUsage(root, await findSessionFiles(root), by, since, { cacheRoot });

const lines = (file: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });

/**
 * A library of the e2e sessions plus forks made of them the way pi forks (createBranchedSession, our pi-exact
 * rules), each continued with an answer of its own, and a fork of a fork.
 */
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "usage-"));
  cacheRoot = mkdtempSync(path.join(os.tmpdir(), "usage-cache-"));
  cpSync(E2E, dir, { recursive: true });
  const rng = new Rng(7);
  const sources = ["--home-dev-projects-webapp--", "--srv-repos-data-pipeline--", "--home-dev-projects-newest--"].flatMap((project) =>
    readdirSync(path.join(dir, project)).map((f) => path.join(dir, project, f)),
  );
  let n = 0;
  const forkOf = (file: string): string | null => {
    const session = Session.fromText(readFileSync(file, "utf8"));
    if (session.reader !== "ca" || session.tree.size === 0) return null;
    const at = rng.pick([...session.tree.ids()]);
    const time = `2026-03-0${1 + (n % 9)}T10:00:00.000Z`;
    const fork = session.fork(at, { sourcePath: file, timestamp: time }, "ca");
    const own = {
      type: "message",
      id: `own${n}`,
      parentId: fork.entries.at(-1)?.id ?? null,
      timestamp: time,
      message: {
        role: "assistant",
        content: [{ type: "text", text: "the fork's own answer" }],
        provider: "anthropic",
        model: "claude-haiku-4-5",
        usage: { input: 100 + n, output: 10, cacheRead: 1000, cacheWrite: 0, cost: { total: 0.001 * (n + 1) } },
      },
    };
    const out = path.join(path.dirname(file), `fork-${n++}_${fork.header.id as string}.jsonl`);
    writeFileSync(out, fork.text + JSON.stringify(own) + "\n");
    return out;
  };
  for (const file of sources) {
    const fork = forkOf(file);
    if (fork && rng.chance(0.5)) forkOf(fork);
  }
  mkdirSync(path.join(dir, "--empty--"));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(cacheRoot, { recursive: true, force: true });
});

interface Direct {
  perFile: Map<string, number>;
  perModel: Map<string, number>;
  cost: number;
  input: number;
}

/**
 * The direct sum: files oldest first, each entry line priced by pi's own /session stats, an entry skipped when an
 * older file holds it with the same id and content (its parent aside).
 */
async function directSum(root: string): Promise<Direct> {
  const stats = await loadPiSessionStats();
  const files = (await findSessionFiles(root)).map((f) => {
    const parsed = lines(f.file);
    const header = parsed[0]?.type === "session" ? parsed[0] : null;
    return { rel: f.rel, parsed, time: typeof header?.timestamp === "string" ? header.timestamp : new Date(f.mtimeMs).toISOString() };
  });
  files.sort((a, b) => a.time.localeCompare(b.time) || a.rel.localeCompare(b.rel));
  const owner = new Map<string, string>();
  const out: Direct = { perFile: new Map(), perModel: new Map(), cost: 0, input: 0 };
  for (const file of files) {
    for (const entry of file.parsed) {
      if (entry.type === "session" || (entry.kind !== undefined && entry.kind !== "entry")) continue;
      let priced;
      try {
        priced = stats([entry]);
      } catch {
        continue;
      }
      if (priced.tokens.total === 0 && priced.cost === 0) continue;
      if (typeof entry.id === "string") {
        const key = `${entry.id} ${JSON.stringify({ ...entry, parentId: undefined, seq: undefined, lane: undefined })}`;
        const first = owner.get(key);
        if (first !== undefined && first !== file.rel) continue;
        owner.set(key, file.rel);
      }
      out.perFile.set(file.rel, (out.perFile.get(file.rel) ?? 0) + priced.cost);
      out.cost += priced.cost;
      out.input += priced.tokens.input;
      const message = entry.message as Record<string, unknown> | undefined;
      const model =
        entry.type === "message" && message?.role === "assistant"
          ? `${String(message.provider)}/${String(message.responseModel ?? message.model)}`
          : typeof entry.model === "string"
            ? `${String(entry.provider)}/${entry.model}`
            : "(unknown)";
      out.perModel.set(model, (out.perModel.get(model) ?? 0) + priced.cost);
    }
  }
  return out;
}

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

describe("library usage", () => {
  for (const [name, root] of [
    ["a generated library with forks of forks", () => dir],
    ["the bundled samples", () => SAMPLES],
  ] as const) {
    it(`equals the direct sum over the files with copies counted once: ${name}`, async () => {
      const direct = await directSum(root());
      const sessions = (await usageOf(root(), "session")) as SessionUsageRow[];
      expect(sessions.length).toBe([...direct.perFile.values()].length);
      for (const row of sessions) expect(close(row.cost, direct.perFile.get(row.key) ?? NaN), `${row.key}: ${row.cost}`).toBe(true);
      const models = await usageOf(root(), "model");
      for (const row of models) expect(close(row.cost, direct.perModel.get(row.key) ?? NaN), row.key).toBe(true);
      const days = await usageOf(root(), "day");
      expect(
        close(
          days.reduce((n, r) => n + r.cost, 0),
          direct.cost,
        ),
      ).toBe(true);
      expect(days.reduce((n, r) => n + r.input, 0)).toBe(direct.input);
      // a session's branches add up to it
      for (const row of sessions)
        expect(
          close(
            row.branches.reduce((n, b) => n + b.cost, 0),
            row.cost,
          ),
          row.key,
        ).toBe(true);
    });
  }

  it("leaves a fork's copies out of its own row and says what they were", async () => {
    const sessions = (await usageOf(dir, "session")) as SessionUsageRow[];
    const forks = sessions.filter((row) => row.key.includes("/fork-"));
    expect(forks.length).toBeGreaterThan(2);
    // each fork's own answer is all it adds; what it copied shows as copied
    for (const row of forks) expect(row.calls).toBe(1);
    expect(forks.some((row) => row.copied.calls > 0)).toBe(true);
  });

  it("counts from --since on", async () => {
    const since = Date.parse("2026-02-01T00:00:00.000Z");
    const days = await usageOf(dir, "day", since);
    expect(days.length).toBeGreaterThan(0);
    expect(days.every((row) => row.key >= "2026-02-01")).toBe(true);
    const all = await usageOf(dir, "day");
    expect(days).toEqual(all.filter((row) => row.key >= "2026-02-01"));
  });

  it("keeps its sums right as sources come, grow and go: as a fresh index and the direct sum count", async () => {
    const work = mkdtempSync(path.join(os.tmpdir(), "usage-work-"));
    cpSync(dir, work, { recursive: true });
    const kept = mkdtempSync(path.join(os.tmpdir(), "usage-kept-"));
    const check = async (what: string) => {
      const files = await findSessionFiles(work);
      const rows = (await libraryUsage(work, files, "session", null, { cacheRoot: kept })) as SessionUsageRow[];
      const fresh = (await libraryUsage(work, files, "session", null, { cacheRoot: mkdtempSync(path.join(os.tmpdir(), "usage-fresh-")) })) as SessionUsageRow[];
      expect(
        rows.map((r) => [r.key, r.calls, r.input, r.copied.calls]),
        what,
      ).toEqual(fresh.map((r) => [r.key, r.calls, r.input, r.copied.calls]));
      const direct = await directSum(work);
      for (const row of rows) expect(close(row.cost, direct.perFile.get(row.key) ?? NaN), `${what}: ${row.key}`).toBe(true);
      return new Map(rows.map((r) => [r.key, r]));
    };
    const before = await check("all files");
    // a fork that copied usage from a session that is no fork (a fork of a fork's copies are its source's source's
    // too), and that source (its header names it)
    const sourceOf = (rel: string) => path.relative(dir, lines(path.join(work, rel))[0]!.parentSession as string);
    const isFork = (rel: string) => /\/fork-\d+_/.test(rel);
    const forkRel = [...before.values()].find((row) => isFork(row.key) && row.copied.calls > 0 && !isFork(sourceOf(row.key)))!.key;
    const sourceRel = sourceOf(forkRel);
    const [sourceAt, aside] = [path.join(work, sourceRel), path.join(kept, "aside.jsonl")];
    expect(before.get(forkRel)!.calls).toBe(1);

    // the source gone: the fork's copies are its own now
    renameSync(sourceAt, aside);
    const alone = await check("source gone");
    expect(alone.get(forkRel)!.calls).toBe(1 + before.get(forkRel)!.copied.calls);
    // back: counted in the source again
    renameSync(aside, sourceAt);
    const back = await check("source back");
    expect(back.get(forkRel)!.calls).toBe(1);
    // the source grew by an answer: counted there
    const last = lines(sourceAt).at(-1)!;
    appendFileSync(
      sourceAt,
      JSON.stringify({
        type: "message",
        id: "grown01",
        parentId: last.id,
        timestamp: "2026-03-20T10:00:00.000Z",
        message: {
          role: "assistant",
          content: [],
          provider: "p",
          model: "m",
          usage: { input: 7, output: 1, cacheRead: 0, cacheWrite: 0, cost: { total: 0.5 } },
        },
      }) + "\n",
    );
    const grown = await check("source grew");
    expect(grown.get(sourceRel)!.calls).toBe(back.get(sourceRel)!.calls + 1);
    rmSync(work, { recursive: true, force: true });
  });
});
