// The cache's budget counts every file under the cache directory (kept indexes and snapshots, temp files of those
// being made, the search index, whatever else is there) and drops only kept indexes and their snapshots.
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { KeptWriter } from "./kept-file";
import { FORMAT, trailer, type LightMeta } from "./kept-light-index";
import { pruneKept } from "./prune-kept";

let root: string;
let light: string;

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "prune-kept-"));
  light = path.join(root, "cache", "light");
  mkdirSync(light, { recursive: true });
  mkdirSync(path.join(root, "cache", "search"));
  mkdirSync(path.join(root, "sessions"));
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

const key = (n: number) => n.toString(16).padStart(32, "0");
const HOUR = 3_600_000;

/** A kept index of `bytes` frame bytes made from the file `source`, used at `used` (ms). */
async function keep(n: number, source: string, bytes: number, used: number): Promise<string> {
  const data = path.join(light, `${key(n)}.bin`);
  const out = (await KeptWriter.create(data))!;
  await out.write(new Uint8Array(bytes).fill(n));
  const meta: Omit<LightMeta, "bytes" | "sum"> = {
    format: FORMAT,
    id: "i",
    generation: randomUUID(),
    file: source,
    size: 1,
    mtimeMs: 1,
    dev: 1,
    ino: 1,
    complete: 1,
    lines: 1,
    endAt: 0,
    tail: "",
  };
  await out.commit(trailer({ ...meta, bytes: out.bytes, sum: out.checksum }));
  utimesSync(data, used / 1000, used / 1000);
  return data;
}

function source(name: string): string {
  const file = path.join(root, "sessions", `${name}.jsonl`);
  writeFileSync(file, "{}\n");
  return file;
}

const bytesIn = (...files: string[]) => files.reduce((n, file) => n + statSync(file).size, 0);
const names = () => readdirSync(light).sort();

describe("pruneKept", () => {
  it("counts every file the cache keeps, drops what is of no use, then the least recently used index and its snapshot", async () => {
    const now = Date.now();
    const older = await keep(1, source("a"), 4000, now - 2 * HOUR);
    const olderSnap = path.join(light, `${key(1)}.snap`);
    writeFileSync(olderSnap, new Uint8Array(900));
    const newer = await keep(2, source("b"), 3000, now - HOUR);
    const newerSnap = path.join(light, `${key(2)}.snap`);
    writeFileSync(newerSnap, new Uint8Array(800));
    // of no use: an index whose file is gone, a damaged one, a snapshot without its index, an older format's index
    // and its description, a temp file left by a server that stopped an hour ago
    const gone = source("gone");
    await keep(3, gone, 100, now);
    rmSync(gone);
    writeFileSync(path.join(light, `${key(4)}.bin`), new Uint8Array(5000));
    writeFileSync(path.join(light, `${key(4)}.snap`), new Uint8Array(500));
    writeFileSync(path.join(light, `${key(5)}.snap`), new Uint8Array(600));
    writeFileSync(path.join(light, `${key(6)}.json`), "{}");
    const left = path.join(light, `${key(7)}.bin.${randomUUID()}.tmp`);
    writeFileSync(left, new Uint8Array(700));
    utimesSync(left, (now - 2 * HOUR) / 1000, (now - 2 * HOUR) / 1000);
    // counted, never dropped: a temp file being written, the search index, a file this code does not know
    const making = path.join(light, `${key(8)}.snap.${randomUUID()}.tmp`);
    writeFileSync(making, new Uint8Array(1100));
    const search = path.join(root, "cache", "search", "0abc.sqlite");
    writeFileSync(search, new Uint8Array(1300));
    const unknown = path.join(light, "notes.txt");
    writeFileSync(unknown, "x");
    const all = bytesIn(older, olderSnap, newer, newerSnap, making, search, unknown);

    await pruneKept(path.join(root, "cache"), all, now);
    const kept = [older, olderSnap, newer, newerSnap, making, unknown].map((file) => path.basename(file)).sort();
    expect(names()).toEqual(kept);
    expect(bytesIn(older, olderSnap, newer, newerSnap, making, search, unknown)).toBe(all);

    // a byte over: the least recently used index goes, with its snapshot; what is not a kept index stays
    await pruneKept(path.join(root, "cache"), all - 1, now);
    expect(names()).toEqual([newer, newerSnap, making, unknown].map((file) => path.basename(file)).sort());
    await pruneKept(path.join(root, "cache"), bytesIn(making, search, unknown), now);
    expect(names()).toEqual([making, unknown].map((file) => path.basename(file)).sort());
    expect(readdirSync(path.join(root, "cache", "search"))).toEqual(["0abc.sqlite"]);
  });

  it("counts the snapshot and the temp files: the index that fit beside them alone is dropped", async () => {
    const now = Date.now();
    const data = await keep(1, source("a"), 4000, now);
    const budget = bytesIn(data);
    await pruneKept(path.join(root, "cache"), budget, now);
    expect(names()).toEqual([path.basename(data)]);
    for (const extra of [`${key(1)}.snap`, `${key(1)}.bin.${randomUUID()}.tmp`]) {
      writeFileSync(path.join(light, extra), new Uint8Array(10));
      await pruneKept(path.join(root, "cache"), budget, now);
      expect(names(), extra).not.toContain(path.basename(data));
      rmSync(path.join(light, extra), { force: true });
      await keep(1, source("a"), 4000, now);
    }
  });
});
