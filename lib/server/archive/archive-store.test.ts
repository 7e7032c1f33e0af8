// The archive's files as the server opens them (archive-store.ts, archived-file-handle.ts), against a real
// PostgreSQL: listed and resolved by `<machine>/<path>`, read whole, by position and by stream range as the file's
// own bytes, refused when a path is bad or the file was replaced, and tailed across a push.
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Rng } from "@/lib/session/testing/rng";
import { openSessionFile, SessionPathError, type ResolvedSessionFile, type SessionFileHandle } from "../safe-path";
import { tailSession } from "../serve-tail";
import type { TailChunk, TailReset } from "../tail-file";
import { watchArchivedFile } from "./archive-changes";
import { findArchivedFile } from "./archive-files";
import { archivedSessionFiles, resolveArchivedPath } from "./archive-store";
import { pushLibrary } from "./push-library";
import { firstDifference } from "./testing/archived-file";
import { testArchive, type TestArchive } from "./testing/test-archive";

const MACHINE = "ws-1";
const BIG = "--home-u-app--/big.jsonl";
let archive: TestArchive;
let dir: string;
let machine: number;
const files: Record<string, Buffer> = {};
const rng = new Rng(17);
const line = () => JSON.stringify({ type: "message", id: rng.hex(8), message: { content: "é€😀".repeat(rng.range(0, 3000)) } });

const push = () => pushLibrary(archive.pool, dir, { machine: MACHINE, machineId: machine });

beforeAll(async () => {
  archive = await testArchive();
  machine = await archive.machine(MACHINE);
  dir = mkdtempSync(path.join(tmpdir(), "archive-store-"));
  mkdirSync(path.join(dir, "--home-u-app--"));
  // more than a stream's piece of the database (several MiB) and a pending line at the end
  files[BIG] = Buffer.from(Array.from({ length: 1500 }, () => `${line()}\n`).join("") + line().slice(0, 70));
  files["--home-u-app--/empty.jsonl"] = Buffer.alloc(0);
  files["top.jsonl"] = Buffer.from(`${line()}\n\n${line()}\n`);
  for (const [rel, bytes] of Object.entries(files)) writeFileSync(path.join(dir, rel), bytes);
  await push();
});
afterAll(async () => {
  await archive?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function streamed(handle: SessionFileHandle, options?: { start?: number; end?: number; highWaterMark?: number }): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of handle.createReadStream(options)) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

describe("the archive's session store", () => {
  it("lists every file as <machine>/<path>, with its size and generation as identity", async () => {
    const listed = await archivedSessionFiles(archive.pool);
    expect(listed.map((f) => [f.rel, f.size, f.ino, f.archived?.machine, f.archived?.root])).toEqual(
      Object.keys(files)
        .sort()
        .map((rel) => [`${MACHINE}/${rel}`, files[rel]!.length, 1, MACHINE, path.resolve(dir)]),
    );
    for (const file of listed) expect(file.file).toBe(`archive:${file.rel}`);
  });

  it("opens a file as its own bytes: whole, by position, by any stream range", async () => {
    for (const [rel, bytes] of Object.entries(files)) {
      const handle = await openSessionFile(await resolveArchivedPath(archive.pool, `${MACHINE}/${rel}`));
      try {
        expect(firstDifference(await streamed(handle), bytes), rel).toBeNull();
        expect((await handle.stat()).size).toBe(bytes.length);
        for (let i = 0; i < 20 && bytes.length > 0; i++) {
          const start = rng.range(0, bytes.length - 1);
          const end = rng.range(start, bytes.length - 1);
          const wanted = bytes.subarray(start, end + 1);
          expect(firstDifference(await streamed(handle, { start, end, highWaterMark: rng.range(1, 70_000) }), wanted), `${rel} ${start}-${end}`).toBeNull();
          const buffer = Buffer.alloc(end - start + 1);
          const { bytesRead } = await handle.read(buffer, 0, buffer.length, start);
          expect(bytesRead).toBe(buffer.length);
          expect(firstDifference(buffer, wanted)).toBeNull();
        }
        // past the end: nothing, as a file gives
        expect((await handle.read(Buffer.alloc(10), 0, 10, bytes.length)).bytesRead).toBe(0);
      } finally {
        await handle.close();
      }
    }
  });

  it("refuses paths a directory refuses, paths of more than machine, folder and file, and files it does not hold", async () => {
    for (const bad of ["../x.jsonl", "ws-1/../top.jsonl", "/ws-1/top.jsonl", "ws-1/a/b/c.jsonl", "ws-1/top.txt", "ws-1%2ftop.jsonl", "top.jsonl", ""]) {
      const error = await resolveArchivedPath(archive.pool, bad).catch((e: unknown) => e);
      expect(error, bad).toBeInstanceOf(SessionPathError);
      expect((error as SessionPathError).code, bad).toBe("invalid");
    }
    for (const missing of ["ws-2/top.jsonl", "ws-1/--home-u-app--/top.jsonl", "ws-1/none.jsonl"]) {
      const error = await resolveArchivedPath(archive.pool, missing).catch((e: unknown) => e);
      expect((error as SessionPathError).code, missing).toBe("not-found");
    }
  });

  it("refuses to open a file replaced since it was resolved, as a local file swapped after its check", async () => {
    const rel = "top.jsonl";
    const before: ResolvedSessionFile = await resolveArchivedPath(archive.pool, `${MACHINE}/${rel}`);
    files[rel] = Buffer.from(`${line()}\n`);
    writeFileSync(path.join(dir, rel), files[rel]);
    await push();
    const error = await openSessionFile(before).catch((e: unknown) => e);
    expect((error as SessionPathError).code).toBe("forbidden");
    const after = await resolveArchivedPath(archive.pool, `${MACHINE}/${rel}`);
    expect(after.ino).toBe(before.ino + 1);
    const handle = await openSessionFile(after);
    expect(firstDifference(await streamed(handle), files[rel])).toBeNull();
  });

  it("hears a push for a watch started while the last watch's stop was on its way", async () => {
    const { fileId } = (await findArchivedFile(archive.pool, `${MACHINE}/${BIG}`))!;
    const stop = watchArchivedFile(archive.pool, fileId, () => undefined);
    stop();
    let heard = 0;
    const stopAgain = watchArchivedFile(archive.pool, fileId, () => heard++);
    try {
      // the connection is listening again (or still): a push is heard without any timer
      await new Promise((resolve) => setTimeout(resolve, 200));
      appendFileSync(path.join(dir, BIG), `${line()}\n`);
      files[BIG] = readFileSync(path.join(dir, BIG));
      await push();
      for (let i = 0; i < 100 && heard === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(heard).toBeGreaterThan(0);
    } finally {
      stopAgain();
    }
  });

  it("tails a file across pushes: appended lines come as they are pushed, a replaced file resets", async () => {
    const resolved = await resolveArchivedPath(archive.pool, `${MACHINE}/${BIG}`);
    const complete = files[BIG]!.lastIndexOf(0x0a) + 1;
    const chunks: TailChunk[] = [];
    const resets: TailReset[] = [];
    let wake: () => void = () => undefined;
    const tail = await tailSession(
      resolved,
      complete,
      {
        append: (chunk) => {
          chunks.push(chunk);
          wake();
        },
        reset: (reason) => {
          resets.push(reason);
          wake();
        },
      },
      // a long poll: what comes within it came by the push's notice
      { pollMs: 60_000 },
    );
    try {
      const added = `${line()}\n${line()}\n`;
      const heard = new Promise<void>((resolve) => (wake = resolve));
      appendFileSync(path.join(dir, BIG), added);
      await push();
      await Promise.race([heard, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      const now = readFileSync(path.join(dir, BIG));
      expect(chunks.map((c) => c.offset)).toEqual([complete]);
      expect(chunks[0]!.text).toBe(now.subarray(complete, now.lastIndexOf(0x0a) + 1).toString("utf8"));
      expect(resets).toEqual([]);

      const reset = new Promise<void>((resolve) => (wake = resolve));
      writeFileSync(path.join(dir, BIG), `${line()}\n`);
      await push();
      await Promise.race([reset, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      expect(resets).toEqual(["replaced"]);
    } finally {
      tail.close();
    }
  });
});
