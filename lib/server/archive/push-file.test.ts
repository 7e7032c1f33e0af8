// One file into the archive, against a real PostgreSQL: what a push writes, what a second push does not, and
// that a push stopped anywhere leaves what was there before.
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { resolveSessionPath } from "../safe-path";
import { SCHEMA } from "./archive-schema";
import { pushFile, type PushFileOptions } from "./push-file";
import { archivedBytes, firstDifference } from "./testing/archived-file";
import { testArchive, type TestArchive } from "./testing/test-archive";

let archive: TestArchive;
let dir: string;
let laptop: number;
const REL = "--home-u-work--/2026-12-01T10-00-00-000Z_s1.jsonl";
const file = () => path.join(dir, REL);

const entry = (i: number, text = `message ${i}`) =>
  JSON.stringify({
    type: "message",
    id: `e${i}`,
    parentId: i > 1 ? `e${i - 1}` : null,
    timestamp: "2026-12-01T10:00:00.000Z",
    message: { role: "user", content: text },
  });
const header = JSON.stringify({ type: "session", version: 3, id: "s1", timestamp: "2026-12-01T10:00:00.000Z", cwd: "/home/u/work" });
const lines = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, k) => `${entry(from + k)}\n`).join("");

const push = async (options: PushFileOptions = {}, machine = laptop) => pushFile(archive.pool, machine, await resolveSessionPath(dir, REL), options);
const held = () => archivedBytes(archive.pool, "laptop", REL);
const row = async () =>
  (
    await archive.pool.query(`select xmin::text, generation, size::int, line_count, pushed_at from ${SCHEMA}.files where path = $1 and machine_id = $2`, [
      REL,
      laptop,
    ])
  ).rows[0];
const lineVersions = async () => (await archive.pool.query(`select xmin::text as v from ${SCHEMA}.lines order by file_id, line`)).rows.map((r) => r.v);

beforeAll(async () => {
  archive = await testArchive();
  laptop = await archive.machine("laptop");
});
afterAll(() => archive?.close());
beforeEach(async () => {
  await archive.clear();
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = mkdtempSync(path.join(tmpdir(), "push-file-"));
  mkdirSync(path.dirname(file()));
});

describe("pushFile", () => {
  it("holds a new file's exact bytes, line by line, with where each line starts", async () => {
    // invalid UTF-8, a CRLF line, an empty line and a NUL: bytes, not text
    const bytes = Buffer.concat([Buffer.from(`${header}\n${entry(1)}\r\n\n`), Buffer.from([0xff, 0xfe, 0x00, 0x41, 0x0a]), Buffer.from(lines(2, 3))]);
    writeFileSync(file(), bytes);
    expect(await push()).toEqual({ kind: "new", lines: 6, bytes: bytes.length });
    expect(firstDifference(await held(), bytes)).toBeNull();
    const at = (await archive.pool.query(`select line, at::int from ${SCHEMA}.lines order by line`)).rows;
    let offset = 0;
    bytes
      .toString("latin1")
      .split("\n")
      .slice(0, 6)
      .forEach((text, i) => {
        expect(at[i]).toEqual({ line: i + 1, at: offset });
        offset += text.length + 1;
      });
  });

  it("numbers and places every line across batches, from a push that grew the file too", async () => {
    writeFileSync(file(), `${header}\n${lines(1, 40)}`);
    await push({ batchBytes: 700 });
    appendFileSync(file(), lines(41, 90));
    expect(await push({ batchBytes: 900, bulk: true })).toMatchObject({ kind: "grown", lines: 50 });
    const starts = [0];
    const bytes = readFileSync(file());
    for (let at = bytes.indexOf(0x0a); at !== -1 && at < bytes.length - 1; at = bytes.indexOf(0x0a, at + 1)) starts.push(at + 1);
    const places = (await archive.pool.query(`select line, at::int from ${SCHEMA}.lines order by line`)).rows;
    expect(places).toEqual(starts.map((at, i) => ({ line: i + 1, at })));
    expect(firstDifference(await held(), bytes)).toBeNull();
  });

  it("keeps the sessions directory the file was pushed from: the one named, else the real one", async () => {
    const root = async () => (await archive.pool.query<{ root: string }>(`select root from ${SCHEMA}.files`)).rows[0]!.root;
    writeFileSync(file(), `${header}\n${lines(1, 3)}`);
    await push();
    expect(await root()).toBe(realpathSync(dir));
    appendFileSync(file(), lines(4, 5));
    await push({ root: "/home/u/.pi/agent/sessions" });
    expect(await root()).toBe("/home/u/.pi/agent/sessions");
  });

  it("writes nothing when the file has not changed", async () => {
    writeFileSync(file(), `${header}\n${lines(1, 50)}`);
    await push();
    const before = { row: await row(), lines: await lineVersions() };
    expect(await push()).toEqual({ kind: "unchanged", lines: 0, bytes: 0 });
    expect({ row: await row(), lines: await lineVersions() }).toEqual(before);
  });

  it("sends only the lines appended since, leaving the held ones as they were", async () => {
    writeFileSync(file(), `${header}\n${lines(1, 100)}`);
    await push();
    const before = await lineVersions();
    appendFileSync(file(), lines(101, 130));
    expect(await push()).toMatchObject({ kind: "grown", lines: 30 });
    expect(firstDifference(await held(), readFileSync(file()))).toBeNull();
    expect((await lineVersions()).slice(0, 101)).toEqual(before);
    expect((await row())!.generation).toBe(1);
  });

  it("holds a half-written last line as pending, not as a line, until its newline comes", async () => {
    const half = entry(3).slice(0, 40);
    writeFileSync(file(), `${header}\n${lines(1, 2)}${half}`);
    expect(await push()).toMatchObject({ kind: "new", lines: 3 });
    expect((await row())!.line_count).toBe(3);
    expect(firstDifference(await held(), readFileSync(file()))).toBeNull();
    appendFileSync(file(), `${entry(3).slice(40)}\n`);
    expect(await push()).toMatchObject({ kind: "grown", lines: 1 });
    expect((await row())!.line_count).toBe(4);
    expect(firstDifference(await held(), readFileSync(file()))).toBeNull();
  });

  it("replaces a file rewritten in place, even at the same size, and counts its generation up", async () => {
    writeFileSync(file(), `${header}\n${lines(1, 20)}`);
    await push();
    const rewritten = `${header}\n${lines(1, 20).replace("message 7", "MESSAGE 7")}`;
    writeFileSync(file(), rewritten);
    expect(await push()).toMatchObject({ kind: "replaced", lines: 21 });
    expect((await held())!.toString()).toBe(rewritten);
    expect((await row())!.generation).toBe(2);
  });

  it("replaces a truncated file", async () => {
    writeFileSync(file(), `${header}\n${lines(1, 20)}`);
    await push();
    truncateSync(file(), Buffer.byteLength(`${header}\n${lines(1, 5)}`));
    expect(await push()).toMatchObject({ kind: "replaced", lines: 6 });
    expect(firstDifference(await held(), readFileSync(file()))).toBeNull();
  });

  it("leaves what was held when a push stops midway, and the next push completes it", async () => {
    writeFileSync(file(), `${header}\n${lines(1, 100)}`);
    await push();
    const before = { bytes: await held(), row: await row() };
    appendFileSync(file(), lines(101, 1500));
    const stop = async (batch: number) => {
      if (batch === 3) throw new Error("the push was stopped");
    };
    await expect(push({ batchBytes: 10_000, afterBatch: stop })).rejects.toThrow("the push was stopped");
    expect({ bytes: await held(), row: await row() }).toEqual(before);
    // a rewrite stopped midway too: the old lines stay
    await expect(push({ batchBytes: 10_000, afterBatch: stop })).rejects.toThrow();
    expect(await push({ batchBytes: 10_000 })).toMatchObject({ kind: "grown", lines: 1400 });
    expect(firstDifference(await held(), readFileSync(file()))).toBeNull();
  });

  it("refuses a file holding a line longer than the limit, naming the line, and writes none of it", async () => {
    writeFileSync(file(), `${header}\n${entry(1)}\n${entry(2, "x".repeat(5000))}\n${entry(3)}\n`);
    expect(await push({ maxLine: 1000 })).toEqual({
      kind: "refused",
      lines: 0,
      bytes: 0,
      detail: `${REL}:3: a line of more than 1000 B (PI_VIEWER_MAX_LINE_MB): the file is not pushed`.replace("1000 B", "1 KB"),
    });
    expect(await held()).toBeNull();
  });

  it("keeps a session another machine pushed with that machine, when this one holds the same bytes", async () => {
    const desktop = await archive.machine("desktop");
    writeFileSync(file(), `${header}\n${lines(1, 10)}`);
    await push({}, desktop);
    expect(await push()).toEqual({ kind: "copy", lines: 0, bytes: 0, detail: "desktop" });
    expect(await held()).toBeNull();
    // continued here: from now on it is this machine's own file as well
    appendFileSync(file(), lines(11, 12));
    expect(await push()).toMatchObject({ kind: "new", lines: 13 });
    expect(firstDifference(await held(), readFileSync(file()))).toBeNull();
  });

  it("takes turns when two pushes of one file run at once, and holds the file once", async () => {
    writeFileSync(file(), `${header}\n${lines(1, 2000)}`);
    const outcomes = await Promise.all([push({ batchBytes: 20_000 }), push({ batchBytes: 20_000 })]);
    expect(outcomes.map((o) => o.kind).sort()).toEqual(["new", "unchanged"]);
    expect(firstDifference(await held(), readFileSync(file()))).toBeNull();
  });
});
