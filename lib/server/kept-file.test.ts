// The cache's files written whole or not at all, however two writers interleave or one stops midway; a length read
// from one refused before it is allocated; a file checked once not read again until it is written.
import { randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { boundedRead, KeptWriter, rangeMatches } from "./kept-file";
import { FORMAT, framesIntact, readKeptIndex, trailer, type LightMeta } from "./kept-light-index";

let dir: string;
let target: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "kept-file-"));
  target = path.join(dir, "k.bin");
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

const bytesOf = (seed: number, length: number) => Buffer.from(Array.from({ length }, (_, i) => (i * 31 + seed * 17) & 0xff));

/** A writer's part of a kept index: its frames in pieces, and the meta that will describe them. */
async function writer(seed: number) {
  const out = (await KeptWriter.create(target))!;
  const pieces = [bytesOf(seed, 5000), bytesOf(seed + 1, 3000), bytesOf(seed + 2, 7)];
  const meta = (): LightMeta => ({
    format: FORMAT,
    id: `id-${seed}`,
    generation: randomUUID(),
    file: path.join(dir, "s.jsonl"),
    size: 8007,
    mtimeMs: 1,
    dev: 1,
    ino: seed,
    complete: 8007,
    lines: seed,
    endAt: 8000,
    tail: "t",
    bytes: out.bytes,
    sum: out.checksum,
  });
  return { out, pieces, frames: Buffer.concat(pieces), commit: () => out.commit(trailer(meta())) };
}

/** The kept index at `target`, accepted (its trailer and frames checked): its frames and which writer's it is. */
async function accepted(): Promise<{ frames: Buffer; ino: number } | null> {
  const kept = await readKeptIndex(target);
  if (!kept || !(await framesIntact(kept, target))) return null;
  await kept.handle.close();
  return { frames: readFileSync(target).subarray(0, kept.meta.bytes), ino: kept.meta.ino };
}

describe("KeptWriter", () => {
  it("leaves one writer's file whole, described by its own trailer, however two writers' writes and renames interleave", async () => {
    for (const order of [
      ["a", "b"],
      ["b", "a"],
    ] as const) {
      const a = await writer(1);
      const b = await writer(2);
      // piece by piece, in turn
      for (let i = 0; i < 3; i++) {
        await a.out.write(a.pieces[i]!);
        await b.out.write(b.pieces[i]!);
      }
      const first = order[0] === "a" ? a : b;
      const last = order[0] === "a" ? b : a;
      expect(await first.commit()).toBe(true);
      expect((await accepted())?.frames.equals(first.frames)).toBe(true);
      expect(await last.commit()).toBe(true);
      const kept = await accepted();
      expect(kept?.ino, order.join(" then ")).toBe(last === a ? 1 : 2);
      expect(kept?.frames.equals(last.frames)).toBe(true);
    }
    expect(readdirSync(dir)).toEqual(["k.bin"]);
  });

  it("leaves the kept file as it was when a writer stops midway, and keeps nothing of one that failed", async () => {
    const a = await writer(1);
    for (const piece of a.pieces) await a.out.write(piece);
    await a.commit();
    const cut = await writer(2);
    await cut.out.write(cut.pieces[0]!);
    // (a server stopped here: its temp file stays until the budget's sweep; see prune-kept.test.ts)
    expect((await accepted())?.frames.equals(a.frames)).toBe(true);
    const failed = await writer(3);
    await failed.out.discard();
    await failed.out.write(failed.pieces[0]!);
    expect(await failed.commit()).toBe(false);
    expect((await accepted())?.ino).toBe(1);
    expect(readdirSync(dir).filter((name) => name.endsWith(".tmp"))).toHaveLength(1);
    await cut.out.discard();
  });

  it("is null where the folder cannot be made", async () => {
    writeFileSync(path.join(dir, "file"), "");
    expect(await KeptWriter.create(path.join(dir, "file", "k.bin"))).toBeNull();
  });
});

describe("boundedRead", () => {
  it("refuses a length past the file or past the most, before allocating anything", async () => {
    writeFileSync(target, bytesOf(0, 100));
    const handle = await open(target, "r");
    const alloc = vi.spyOn(Buffer, "alloc");
    try {
      expect(await boundedRead(handle, 100, 0, 2 ** 31, 1 << 16)).toBeNull();
      expect(await boundedRead(handle, 100, 90, 20, 1 << 16)).toBeNull();
      expect(await boundedRead(handle, 100, -1, 2, 1 << 16)).toBeNull();
      expect(await boundedRead(handle, 100, 0, 50, 10)).toBeNull();
      expect(alloc).not.toHaveBeenCalled();
      expect(await boundedRead(handle, 100, 90, 10, 1 << 16)).toEqual(bytesOf(0, 100).subarray(90));
      // a file shorter than its size said: what was read is refused, not padded
      expect(await boundedRead(handle, 200, 90, 20, 1 << 16)).toBeNull();
    } finally {
      alloc.mockRestore();
      await handle.close();
    }
  });
});

describe("rangeMatches", () => {
  it("reads a file it found whole once, and again once it is written, even at its size", async () => {
    const a = await writer(1);
    for (const piece of a.pieces) await a.out.write(piece);
    await a.commit();
    const { checksum, bytes } = a.out;
    const handle = await open(target, "r");
    const read = vi.spyOn(handle, "read");
    try {
      expect(await rangeMatches(handle, target, 0, bytes, checksum)).toBe(true);
      const once = read.mock.calls.length;
      expect(once).toBeGreaterThan(0);
      expect(await rangeMatches(handle, target, 0, bytes, checksum)).toBe(true);
      expect(read.mock.calls.length).toBe(once);
      // a byte changed in place: the same inode and size, another mtime
      const damaged = readFileSync(target);
      damaged[100]! ^= 1;
      writeFileSync(target, damaged);
      expect(await rangeMatches(handle, target, 0, bytes, checksum)).toBe(false);
      expect(read.mock.calls.length).toBeGreaterThan(once);
    } finally {
      await handle.close();
    }
  });
});
