import { mkdtempSync, renameSync, rmSync, statSync, utimesSync, writeFileSync, appendFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FileStateCache } from "./file-state-cache";

const dir = mkdtempSync(path.join(tmpdir(), "file-state-cache-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("FileStateCache", () => {
  it("keeps a value while the file is unchanged, and misses once it grew", () => {
    const file = path.join(dir, "grown.jsonl");
    writeFileSync(file, "one\n");
    const cache = new FileStateCache<string>(4);
    cache.set(file, statSync(file), "made from one line");
    expect(cache.get(file, statSync(file))).toBe("made from one line");
    appendFileSync(file, "two\n");
    expect(cache.get(file, statSync(file))).toBeUndefined();
  });

  it("misses a file replaced by another of the same size and mtime", () => {
    const file = path.join(dir, "replaced.jsonl");
    const other = path.join(dir, "replacement.jsonl");
    writeFileSync(file, "abc\n");
    writeFileSync(other, "xyz\n");
    const when = new Date("2026-01-02T03:04:05Z");
    utimesSync(file, when, when);
    utimesSync(other, when, when);
    const before = statSync(file);
    const cache = new FileStateCache<string>(4);
    cache.set(file, before, "abc");
    renameSync(other, file);
    const after = statSync(file);
    expect([after.size, after.mtimeMs]).toEqual([before.size, before.mtimeMs]);
    expect(after.ino).not.toBe(before.ino);
    expect(cache.get(file, after)).toBeUndefined();
  });

  it("holds at most its bound, dropping the least recently used first", () => {
    const state = { size: 1, mtimeMs: 2, ino: 3 };
    const cache = new FileStateCache<number>(3);
    for (const name of ["a", "b", "c"]) cache.set(name, state, name.charCodeAt(0));
    expect(cache.get("a", state)).toBe(97); // a is now used after b and c
    cache.set("d", state, 100);
    expect(cache.size).toBe(3);
    expect(cache.get("b", state)).toBeUndefined();
    expect([cache.get("a", state), cache.get("c", state), cache.get("d", state)]).toEqual([97, 99, 100]);
    cache.set("c", { ...state, size: 5 }, 0); // a new value for a kept file takes its place, not another
    expect(cache.size).toBe(3);
    expect(cache.get("a", state)).toBe(97);
  });

  it("makes a value once per state, and forgets one whose promise rejects", async () => {
    const cache = new FileStateCache<Promise<string>>(4);
    const state = { size: 1, mtimeMs: 2, ino: 3 };
    let made = 0;
    const make = () => Promise.resolve(`value ${++made}`);
    expect(await cache.value("f", state, make)).toBe("value 1");
    expect(await cache.value("f", state, make)).toBe("value 1");
    expect(await cache.value("f", { ...state, mtimeMs: 4 }, make)).toBe("value 2");
    const failed = cache.value("g", state, () => Promise.reject(new Error("unreadable")));
    await expect(failed).rejects.toThrow("unreadable");
    expect(cache.get("g", state)).toBeUndefined();
    expect(await cache.value("g", state, make)).toBe("value 3");
  });

  it("keeps a newer value when an older read of the file fails", async () => {
    const cache = new FileStateCache<Promise<string>>(4);
    let fail!: (error: Error) => void;
    const older = cache.value("f", { size: 1, mtimeMs: 1, ino: 1 }, () => new Promise<string>((_, reject) => (fail = reject)));
    const newer = cache.value("f", { size: 2, mtimeMs: 2, ino: 1 }, () => Promise.resolve("grown"));
    fail(new Error("gone"));
    await expect(older).rejects.toThrow("gone");
    expect(cache.get("f", { size: 2, mtimeMs: 2, ino: 1 })).toBe(newer);
  });
});
