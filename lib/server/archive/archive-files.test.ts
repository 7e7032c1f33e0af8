// The archive's files read back by byte range, against a real PostgreSQL: any range of any file is the file's own
// bytes, a file pushed empty or with a pending line included, and a file replaced under a reader is an error.
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Rng } from "@/lib/session/testing/rng";
import { ArchivedFileChangedError, ArchivedFileReader, findArchivedFile, listArchivedFiles } from "./archive-files";
import { machineId, openArchive, type Archive } from "./open-archive";
import { pushLibrary } from "./push-library";
import { testDatabase, type TestDatabase } from "./testing/test-database";

let db: TestDatabase;
let archive: Archive;
let dir: string;
const files: Record<string, Buffer> = {};

beforeAll(async () => {
  db = await testDatabase();
  archive = await openArchive(db.url);
  dir = mkdtempSync(path.join(tmpdir(), "archive-files-"));
  mkdirSync(path.join(dir, "--home-u-app--"));
  const rng = new Rng(5);
  const line = () => JSON.stringify({ type: "message", id: rng.hex(8), message: { content: "é".repeat(rng.range(0, 400)) } });
  files["--home-u-app--/big.jsonl"] = Buffer.from(Array.from({ length: 300 }, () => `${line()}\n`).join("") + line().slice(0, 50));
  files["--home-u-app--/empty.jsonl"] = Buffer.alloc(0);
  files["top.jsonl"] = Buffer.from(`${line()}\n\n${line()}\n`);
  for (const [rel, bytes] of Object.entries(files)) writeFileSync(path.join(dir, rel), bytes);
  await pushLibrary(archive.pool, dir, { machine: "ws-1", machineId: await machineId(archive.pool, "ws-1") });
});
afterAll(async () => {
  await archive?.close();
  await db?.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe("archived files", () => {
  it("are listed as <machine>/<path> with their size as pushed", async () => {
    const listed = await listArchivedFiles(archive.pool);
    expect(listed.map((f) => [f.rel, f.size])).toEqual(
      Object.entries(files)
        .map(([rel, bytes]) => [`ws-1/${rel}`, bytes.length])
        .sort(),
    );
    expect(await findArchivedFile(archive.pool, "ws-1/top.jsonl")).toMatchObject({ machine: "ws-1", path: "top.jsonl", lineCount: 3 });
    expect(await findArchivedFile(archive.pool, "ws-2/top.jsonl")).toBeNull();
    expect(await findArchivedFile(archive.pool, "top.jsonl")).toBeNull();
  });

  it("read any byte range as the file's own bytes", async () => {
    const rng = new Rng(9);
    for (const [rel, bytes] of Object.entries(files)) {
      const reader = new ArchivedFileReader(archive.pool, (await findArchivedFile(archive.pool, `ws-1/${rel}`))!);
      expect((await reader.bytes(0, bytes.length)).equals(bytes), rel).toBe(true);
      for (let i = 0; i < 40 && bytes.length > 0; i++) {
        const start = rng.int(bytes.length);
        const end = rng.range(start, bytes.length);
        expect((await reader.bytes(start, end)).equals(bytes.subarray(start, end)), `${rel} ${start}-${end}`).toBe(true);
      }
      const buffer = Buffer.alloc(64);
      const { bytesRead } = await reader.read(buffer, 4, 60, Math.max(0, bytes.length - 30));
      expect(bytesRead).toBe(Math.min(30, bytes.length));
      expect(buffer.subarray(4, 4 + bytesRead).equals(bytes.subarray(bytes.length - bytesRead))).toBe(true);
    }
  });

  it("do not mix a replaced file's bytes with the ones a reader found", async () => {
    const rel = "--home-u-app--/big.jsonl";
    const reader = new ArchivedFileReader(archive.pool, (await findArchivedFile(archive.pool, `ws-1/${rel}`))!);
    writeFileSync(path.join(dir, rel), "rewritten\n");
    await pushLibrary(archive.pool, dir, { machine: "ws-1", machineId: await machineId(archive.pool, "ws-1") });
    await expect(reader.bytes(0, 10)).rejects.toThrow(ArchivedFileChangedError);
    appendFileSync(path.join(dir, rel), "more\n");
    await pushLibrary(archive.pool, dir, { machine: "ws-1", machineId: await machineId(archive.pool, "ws-1") });
    const grown = new ArchivedFileReader(archive.pool, (await findArchivedFile(archive.pool, `ws-1/${rel}`))!);
    expect((await grown.bytes(0, grown.file.size)).equals(readFileSync(path.join(dir, rel)))).toBe(true);
  });
});
