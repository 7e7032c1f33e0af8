// A machine's sessions directory into the archive, against a real PostgreSQL: many machines at once, a second push
// that writes nothing, a push killed at any point, and --watch.
import { spawn } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Rng } from "@/lib/session/testing/rng";
import { SCHEMA } from "./archive-schema";
import { pushLibrary } from "./push-library";
import { watchLibrary } from "./watch-library";
import { archivedBytes, firstDifference } from "./testing/archived-file";
import { testArchive, type TestArchive } from "./testing/test-archive";

const ROOT = path.resolve(__dirname, "../../..");
let archive: TestArchive;
const dirs: string[] = [];

beforeAll(async () => {
  archive = await testArchive();
});
afterAll(async () => {
  await archive?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A sessions directory of `sessions` files in two projects, each a header and `entries` entries, drawn from `seed`. */
function library(sessions: number, entries: number, seed: number): string {
  const rng = new Rng(seed);
  const dir = mkdtempSync(path.join(tmpdir(), "push-library-"));
  dirs.push(dir);
  for (let s = 0; s < sessions; s++) {
    const project = `--home-u-p${s % 2}--`;
    mkdirSync(path.join(dir, project), { recursive: true });
    const id = `s${s}`;
    const lines = [JSON.stringify({ type: "session", version: 3, id, timestamp: "2026-12-01T10:00:00.000Z", cwd: `/home/u/p${s % 2}` })];
    for (let i = 1; i <= entries; i++)
      lines.push(
        JSON.stringify({
          type: "message",
          id: `${id}e${i}`,
          parentId: i > 1 ? `${id}e${i - 1}` : null,
          message: { role: "user", content: "w".repeat(rng.range(1, 3000)) },
        }),
      );
    writeFileSync(path.join(dir, project, `2026-12-01T10-00-0${s % 10}-000Z_${id}.jsonl`), `${lines.join("\n")}\n`);
  }
  return dir;
}

const sessionFiles = (dir: string) =>
  readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".jsonl"))
    .map((name) => name.split(path.sep).join("/"));

/** Every file of `dir` is held for `machine` byte for byte. */
async function expectHeld(dir: string, machine: string): Promise<void> {
  for (const rel of sessionFiles(dir))
    expect(firstDifference(await archivedBytes(archive.pool, machine, rel), readFileSync(path.join(dir, rel))), rel).toBeNull();
}

const tableVersions = async () => (await archive.pool.query(`select xmin::text as v, ctid::text as c from ${SCHEMA}.lines order by file_id, line`)).rows;

describe("pushLibrary", () => {
  it("holds every file of a directory, then writes nothing on a second push", async () => {
    const dir = library(12, 40, 1);
    const id = await archive.machine("solo");
    const first = await pushLibrary(archive.pool, dir, { machine: "solo", machineId: id });
    expect(first.counts).toMatchObject({ new: 12, unchanged: 0, failed: 0 });
    await expectHeld(dir, "solo");
    const roots = await archive.pool.query<{ root: string }>(`select distinct root from ${SCHEMA}.files`);
    expect(roots.rows).toEqual([{ root: path.resolve(dir) }]);
    const before = { lines: await tableVersions(), files: (await archive.pool.query(`select xmin::text from ${SCHEMA}.files order by id`)).rows };
    const second = await pushLibrary(archive.pool, dir, { machine: "solo", machineId: id });
    expect(second.counts).toMatchObject({ new: 0, grown: 0, replaced: 0, unchanged: 12 });
    expect({ lines: await tableVersions(), files: (await archive.pool.query(`select xmin::text from ${SCHEMA}.files order by id`)).rows }).toEqual(before);
  });

  it("takes pushes from many machines at once, each file known by (machine, path)", async () => {
    // the same paths on every machine, other bytes on each
    const machines = ["ci-1", "ci-2", "ci-3", "laptop"];
    const libraries = machines.map((_, k) => library(6, 30, 100 + k));
    const ids = await Promise.all(machines.map(archive.machine));
    // as first pushes of big libraries go, the search index's words merged in bulk
    const reports = await Promise.all(machines.map((name, k) => pushLibrary(archive.pool, libraries[k]!, { machine: name, machineId: ids[k]!, bulk: true })));
    for (const report of reports) expect(report).toMatchObject({ counts: { new: 6, copy: 0, failed: 0 } });
    for (const [k, name] of machines.entries()) await expectHeld(libraries[k]!, name);
  });

  it("two pushes of one machine at once hold each file once", async () => {
    const dir = library(8, 200, 7);
    const id = await archive.machine("twice");
    const reports = await Promise.all([1, 2].map(() => pushLibrary(archive.pool, dir, { machine: "twice", machineId: id, batchBytes: 50_000 })));
    expect(reports[0]!.counts.new + reports[1]!.counts.new).toBe(8);
    expect(reports.map((r) => r.counts.failed)).toEqual([0, 0]);
    await expectHeld(dir, "twice");
  });

  it("leaves the archive whole when the push process is killed at any point, and the next push completes it", async () => {
    const dir = library(10, 400, 9);
    const url = archive.url;
    const rng = new Rng(42);
    for (let round = 0; round < 4; round++) {
      if (round > 0)
        for (const rel of sessionFiles(dir).slice(0, 3)) appendFileSync(path.join(dir, rel), `${JSON.stringify({ type: "custom", id: `r${round}${rel}` })}\n`);
      const child = spawn(
        process.execPath,
        [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "lib/cli/main.ts", "push", dir, "--to", url, "--machine", "killed"],
        {
          cwd: ROOT,
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      const exited = new Promise((resolve) => child.once("exit", resolve));
      let said = "";
      child.stderr.on("data", (chunk) => (said += String(chunk)));
      await new Promise<void>((resolve) => child.stderr.once("data", () => resolve()));
      await new Promise((resolve) => setTimeout(resolve, rng.range(0, 400)));
      child.kill("SIGKILL");
      await exited;
      // whatever it reached: every file is held whole as it was, or as it is now, or not at all
      for (const rel of sessionFiles(dir)) {
        const held = await archivedBytes(archive.pool, "killed", rel);
        if (held === null) continue;
        const now = readFileSync(path.join(dir, rel));
        expect(now.subarray(0, held.length).equals(held), `${rel} after round ${round} (${said.trim()})`).toBe(true);
        expect(held.length === 0 || held[held.length - 1] === 0x0a, rel).toBe(true);
      }
    }
    const id = await archive.machine("killed");
    const report = await pushLibrary(archive.pool, dir, { machine: "killed", machineId: id });
    expect(report.counts.failed).toBe(0);
    await expectHeld(dir, "killed");
  }, 120_000);
});

describe("watchLibrary", () => {
  it("pushes a file shortly after pi appends to it", async () => {
    const dir = library(3, 20, 11);
    const id = await archive.machine("watcher");
    await pushLibrary(archive.pool, dir, { machine: "watcher", machineId: id });
    const pushed: (string[] | null)[] = [];
    const stop = watchLibrary(dir, async (only) => {
      pushed.push(only ? [...only] : null);
      await pushLibrary(archive.pool, dir, { machine: "watcher", machineId: id, only: only ?? undefined });
    });
    try {
      const rel = sessionFiles(dir)[0]!;
      const started = Date.now();
      appendFileSync(path.join(dir, rel), `${JSON.stringify({ type: "custom", id: "late" })}\n`);
      while (!(await archivedBytes(archive.pool, "watcher", rel))!.equals(readFileSync(path.join(dir, rel)))) {
        expect(Date.now() - started, "pushed within 5 s").toBeLessThan(5000);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(pushed).toContainEqual([rel]);
      // a new session in a new project folder
      mkdirSync(path.join(dir, "--home-u-new--"));
      writeFileSync(
        path.join(dir, "--home-u-new--", "n.jsonl"),
        `${JSON.stringify({ type: "session", version: 3, id: "n", timestamp: "2026-12-02T00:00:00.000Z", cwd: "/home/u/new" })}\n`,
      );
      while ((await archivedBytes(archive.pool, "watcher", "--home-u-new--/n.jsonl")) === null) {
        expect(Date.now() - started, "pushed within 5 s").toBeLessThan(10_000);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await stop();
    }
  });
});
