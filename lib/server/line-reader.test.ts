import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LineReader } from "./line-reader";

let root: string;
const lines = ["first line", "second", "x".repeat(5000), "last"];
const at = (i: number) => ({ path: "--p--/a.jsonl", off: lines.slice(0, i).reduce((n, line) => n + line.length + 1, 0), len: lines[i]!.length });

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "line-reader-"));
  mkdirSync(path.join(root, "--p--"));
  writeFileSync(path.join(root, "--p--", "a.jsonl"), lines.join("\n") + "\n");
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("LineReader", () => {
  it("reads lines by place, in the order asked, a missing file's as null", async () => {
    const reader = new LineReader(root, undefined, 1e6);
    try {
      expect(await reader.read([at(3), at(0), { path: "--p--/gone.jsonl", off: 0, len: 3 }, at(1)])).toEqual(["last", "first line", null, "second"]);
      expect(reader.spent).toBe(false);
    } finally {
      reader.close();
    }
  });

  it("reads no more than it is allowed, says so, and reads again once allowed more", async () => {
    const reader = new LineReader(root, undefined, 100);
    try {
      // lines close together are read as one: the long line takes the allowance
      expect(await reader.read([at(2)])).toEqual([lines[2]]);
      expect(reader.spent).toBe(true);
      expect(await reader.read([at(0), at(3)])).toEqual([null, null]);
      reader.allow(100);
      expect(await reader.read([at(0)])).toEqual(["first line"]);
    } finally {
      reader.close();
    }
  });

  it("reads a line's bytes; without a directory, no file it was not given", async () => {
    const reader = new LineReader(null, undefined, Infinity);
    try {
      expect(await reader.readBytes([at(1)])).toEqual([null]);
    } finally {
      reader.close();
    }
    const given = new LineReader(root, undefined, Infinity);
    try {
      const [bytes] = await given.readBytes([at(1)]);
      expect(bytes?.toString("utf8")).toBe("second");
    } finally {
      given.close();
    }
  });
});
