import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findSessionFiles } from "../list-sessions";
import { openLibraryIndex } from "./open-library-index";

let root: string;
let dir: string;

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "open-library-index-"));
  dir = path.join(root, "sessions");
  mkdirSync(path.join(dir, "--p--"), { recursive: true });
  const lines = [
    { type: "session", version: 3, id: "s1", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/p" },
    { type: "message", id: "a1", parentId: null, timestamp: "2025-01-01T00:00:01.000Z", message: { role: "user", content: "the walrus sings" } },
  ];
  writeFileSync(path.join(dir, "--p--", "a.jsonl"), lines.map((line) => JSON.stringify(line)).join("\n") + "\n");
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("openLibraryIndex", () => {
  it("gives an index that updates and answers, kept open once released and opened anew once closed", async () => {
    const cacheRoot = path.join(root, "cache");
    const files = (await findSessionFiles(dir)).map((resolved) => ({ resolved, project: "/p", headerTime: "2025-01-01T00:00:00.000Z" }));
    const index = await openLibraryIndex(dir, { cacheRoot });
    const report = await index.update(files);
    expect(report).toMatchObject({ indexed: 1, entries: 1, unreadable: [] });
    expect((await index.searchPage("walrus", {}, dir, 10)).hits.map((hit) => hit.entryId)).toEqual(["a1"]);
    expect(await index.problems()).toEqual([]);
    expect(await index.facets()).toEqual({ models: [], tools: [], roles: ["user"] });
    index.release();
    const again = await openLibraryIndex(dir, { cacheRoot });
    expect(again).toBe(index);
    again.close();
    const fresh = await openLibraryIndex(dir, { cacheRoot });
    try {
      expect(fresh).not.toBe(index);
      expect((await fresh.update(files)).unchanged).toBe(1);
    } finally {
      fresh.close();
    }
  });
});
