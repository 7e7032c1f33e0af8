import { appendFileSync, mkdtempSync, renameSync, rmSync, truncateSync, unlinkSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { tailFile, type Tail, type TailChunk, type TailReset } from "./tail-file";

let dir: string;
let file: string;
const tails: Tail[] = [];

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "tail-file-"));
  file = path.join(dir, "s.jsonl");
});

afterEach(() => {
  for (const tail of tails.splice(0)) tail.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A tail that records what it sends; the poll is slow so that most tests drive it with check(). */
async function follow(offset: number, pollMs = 60_000, maxChunkBytes?: number) {
  const chunks: TailChunk[] = [];
  const resets: TailReset[] = [];
  const tail = await tailFile(file, offset, { append: (c) => chunks.push(c), reset: (r) => resets.push(r) }, { pollMs, maxChunkBytes });
  tails.push(tail);
  await tail.check();
  return {
    tail,
    chunks,
    resets,
    /** everything sent, checked to be contiguous from `offset` */
    text(): string {
      let at = offset;
      for (const c of chunks) {
        expect(c.offset).toBe(at);
        expect(c.end - c.offset).toBe(Buffer.byteLength(c.text));
        at = c.end;
      }
      return chunks.map((c) => c.text).join("");
    },
  };
}

const bytes = (s: string) => Buffer.byteLength(s);

describe("tailFile", () => {
  it("sends the lines appended after the offset, and nothing before it", async () => {
    writeFileSync(file, "one\ntwo\n");
    const t = await follow(bytes("one\n"));
    expect(t.text()).toBe("two\n"); // written before the tail started, after the offset
    appendFileSync(file, "three\nfour\n");
    await t.tail.check();
    expect(t.text()).toBe("two\nthree\nfour\n");
    expect(t.tail.offset).toBe(bytes("one\ntwo\nthree\nfour\n"));
  });

  it("holds a line until its newline is written, and never splits a UTF-8 character", async () => {
    writeFileSync(file, "a\n");
    const t = await follow(2);
    const line = Buffer.from('{"text":"héllo ✓ 🌍"}\n');
    const insideE = line.indexOf(Buffer.from("é")) + 1;
    const insideGlobe = line.indexOf(Buffer.from("🌍")) + 2;
    appendFileSync(file, line.subarray(0, insideE));
    await t.tail.check();
    expect(t.chunks).toEqual([]);
    appendFileSync(file, line.subarray(insideE, insideGlobe));
    await t.tail.check();
    expect(t.chunks).toEqual([]);
    appendFileSync(file, line.subarray(insideGlobe));
    await t.tail.check();
    expect(t.text()).toBe(line.toString("utf8"));
  });

  it("notices appends by itself (fs.watch, else the poll)", async () => {
    writeFileSync(file, "");
    const t = await follow(0, 50);
    appendFileSync(file, "x\n");
    await vi.waitFor(() => expect(t.text()).toBe("x\n"), { timeout: 10_000 });
  });

  it("sends a large append in several chunks, a line longer than a chunk whole", async () => {
    writeFileSync(file, "");
    const t = await follow(0, 60_000, 16);
    const long = "L".repeat(100) + "\n";
    const text = Array.from({ length: 20 }, (_, i) => `line ${i}\n`).join("") + long + "end\n";
    appendFileSync(file, text);
    await t.tail.check();
    expect(t.text()).toBe(text);
    expect(t.chunks.length).toBeGreaterThan(1);
    expect(t.chunks.some((c) => c.text.includes(long))).toBe(true);
  });

  it("resets when the file is cut below the offset", async () => {
    writeFileSync(file, "one\ntwo\n");
    const t = await follow(bytes("one\ntwo\n"));
    truncateSync(file, 2);
    await t.tail.check();
    expect(t.resets).toEqual(["truncated"]);
  });

  it("resets at once when the offset is past the end", async () => {
    writeFileSync(file, "one\n");
    const t = await follow(100);
    expect(t.resets).toEqual(["truncated"]);
  });

  it("resets when another file is renamed over it", async () => {
    writeFileSync(file, "one\n");
    const t = await follow(4);
    writeFileSync(path.join(dir, "new.jsonl"), "one\ntwo\n");
    renameSync(path.join(dir, "new.jsonl"), file);
    await t.tail.check();
    expect(t.resets).toEqual(["replaced"]);
    expect(t.chunks).toEqual([]);
  });

  it("resets when the opener hands it another file than the one it started on, and sends none of it", async () => {
    writeFileSync(file, "a\n");
    const other = path.join(dir, "other.jsonl");
    writeFileSync(other, "OTHER\n".repeat(10));
    let target = file;
    const chunks: TailChunk[] = [];
    const resets: TailReset[] = [];
    const tail = await tailFile(file, 0, { append: (c) => chunks.push(c), reset: (r) => resets.push(r) }, { pollMs: 60_000, open: () => open(target, "r") });
    tails.push(tail);
    await tail.check();
    expect(chunks.map((c) => c.text)).toEqual(["a\n"]);
    target = other; // as a path swapped between the tail's stat and its open would
    appendFileSync(file, "b\n");
    await tail.check();
    expect(resets).toEqual(["replaced"]);
    expect(chunks.map((c) => c.text)).toEqual(["a\n"]);
  });

  it("resets when the file is rewritten in place, even if it grew", async () => {
    writeFileSync(file, "one\n");
    const t = await follow(4);
    writeFileSync(file, "ONE\ntwo\n"); // same inode, new content before the offset
    await t.tail.check();
    expect(t.resets).toEqual(["rewritten"]);
    expect(t.chunks).toEqual([]);
  });

  it("resets when the file is removed, and stops", async () => {
    writeFileSync(file, "one\n");
    const t = await follow(4);
    unlinkSync(file);
    await t.tail.check();
    writeFileSync(file, "one\ntwo\n");
    await t.tail.check();
    expect(t.resets).toEqual(["removed"]);
    expect(t.chunks).toEqual([]);
  });

  /** A tail whose every read is counted: the bytes it read, and how many reads. */
  async function counted(offset: number, options: { maxPendingBytes?: number; maxBytes?: number } = {}) {
    const reads = { bytes: 0, count: 0 };
    const chunks: TailChunk[] = [];
    const resets: [TailReset, number | undefined][] = [];
    const opener = async () => {
      const handle = await open(file, "r");
      const read = handle.read.bind(handle) as (...args: unknown[]) => Promise<{ bytesRead: number }>;
      Object.assign(handle, {
        read: async (...args: unknown[]) => {
          const result = await read(...args);
          reads.bytes += result.bytesRead;
          reads.count++;
          return result;
        },
      });
      return handle;
    };
    const tail = await tailFile(
      file,
      offset,
      { append: (c) => chunks.push(c), reset: (r, size) => resets.push([r, size]) },
      { pollMs: 60_000, open: opener, ...options },
    );
    tails.push(tail);
    await tail.check();
    return { tail, reads, chunks, resets };
  }

  it("reads each byte of a line still being written once, however many looks it takes to end", async () => {
    writeFileSync(file, "a\n");
    const t = await counted(2);
    const piece = "x".repeat(5000);
    const looks = 40;
    for (let i = 0; i < looks; i++) {
      appendFileSync(file, piece);
      await t.tail.check();
    }
    expect(t.chunks).toEqual([]);
    appendFileSync(file, "\n");
    await t.tail.check();
    const line = piece.repeat(looks) + "\n";
    expect(t.chunks.map((c) => c.text)).toEqual([line]);
    expect(t.chunks[0]).toMatchObject({ offset: 2, end: 2 + line.length });
    // the line once, and before each read the few bytes that tell a rewrite; reading the line again at every look
    // would be 41 * 100 KB on average
    expect(t.reads.bytes).toBeGreaterThanOrEqual(line.length);
    expect(t.reads.bytes).toBeLessThanOrEqual(line.length + 64 * t.reads.count);
  });

  it("reads a line longer than it keeps twice in all: as it comes, and once more when it ends", async () => {
    writeFileSync(file, "");
    const t = await counted(0, { maxPendingBytes: 10_000 });
    const piece = "y".repeat(4000);
    for (let i = 0; i < 25; i++) {
      appendFileSync(file, piece);
      await t.tail.check();
    }
    appendFileSync(file, "\nnext\n");
    await t.tail.check();
    const line = piece.repeat(25) + "\n";
    expect(t.chunks.map((c) => c.text).join("")).toBe(line + "next\n");
    expect(t.reads.bytes).toBeLessThanOrEqual(2 * line.length + "next\n".length + 64 * t.reads.count);
  });

  it("stops when the file grows past the limit, and sends nothing past it", async () => {
    writeFileSync(file, "a\n");
    const t = await counted(2, { maxBytes: 1000 });
    appendFileSync(file, `${"b".repeat(500)}\n`);
    await t.tail.check();
    expect(t.chunks.map((c) => c.text)).toEqual([`${"b".repeat(500)}\n`]);
    appendFileSync(file, `${"c".repeat(600)}\n`);
    await t.tail.check();
    appendFileSync(file, "d\n");
    await t.tail.check();
    expect(t.chunks).toHaveLength(1);
    expect(t.resets).toEqual([["too-large", 2 + 501 + 601]]);
    // and at once for a file already past it
    const late = await counted(2, { maxBytes: 1000 });
    expect(late.resets).toEqual([["too-large", 2 + 501 + 601 + 2]]);
    expect(late.chunks).toEqual([]);
  });

  it("resets when a line still being written is cut, though not below the offset", async () => {
    writeFileSync(file, "a\n");
    const t = await follow(2);
    appendFileSync(file, "partial line");
    await t.tail.check();
    truncateSync(file, 5);
    await t.tail.check();
    expect(t.resets).toEqual(["truncated"]);
    expect(t.chunks).toEqual([]);
  });
});
