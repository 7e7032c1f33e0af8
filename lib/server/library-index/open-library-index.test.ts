import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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

  it("takes its settings from the options: how many hits it ranks, how many entries a transaction writes", async () => {
    const other = path.join(root, "other");
    mkdirSync(path.join(other, "--p--"), { recursive: true });
    const lines = [
      { type: "session", version: 3, id: "s2", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/p" },
      ...["b1", "b2", "b3"].map((id, i) => ({
        type: "message",
        id,
        parentId: i ? `b${i}` : null,
        timestamp: `2025-01-01T00:00:0${i + 1}.000Z`,
        message: { role: "user", content: `the walrus dances ${i}` },
      })),
    ];
    writeFileSync(path.join(other, "--p--", "b.jsonl"), lines.map((line) => JSON.stringify(line)).join("\n") + "\n");
    const files = (await findSessionFiles(other)).map((resolved) => ({ resolved, project: "/p", headerTime: "2025-01-01T00:00:00.000Z" }));
    const pages = [];
    for (const tuning of [{}, { rankedHits: 2, batchEntries: 1 }]) {
      const index = await openLibraryIndex(other, { cacheRoot: path.join(root, `cache-${pages.length}`), tuning });
      try {
        expect((await index.update(files)).entries).toBe(3);
        pages.push(await index.searchPage("walrus", {}, other, 1));
      } finally {
        index.close();
      }
    }
    expect(pages.map((page) => page.capped)).toEqual([false, true]);
    // capped: the newest hit, unranked
    expect(pages[1]!.hits.map((hit) => [hit.entryId, hit.score])).toEqual([["b3", 0]]);
  });

  it("is the only way into the SQLite folder: routes, the CLI, pages and benches ask the interface", () => {
    const repo = path.resolve(__dirname, "../../..");
    const sqlite = path.join(__dirname, "sqlite") + path.sep;
    const importers: string[] = [];
    for (const top of ["app", "lib", "components", "bench", "e2e", "scripts"])
      for (const entry of readdirSync(path.join(repo, top), { recursive: true, withFileTypes: true })) {
        const file = path.join(entry.parentPath, entry.name);
        if (!entry.isFile() || !/\.(ts|tsx|mts|mjs)$/.test(entry.name) || file.startsWith(sqlite)) continue;
        for (const [, spec] of readFileSync(file, "utf8").matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)) {
          const target = spec!.startsWith("@/") ? path.join(repo, spec!.slice(2)) : spec!.startsWith(".") ? path.resolve(path.dirname(file), spec!) : null;
          if (target?.startsWith(sqlite)) importers.push(path.relative(repo, file));
        }
      }
    expect([...new Set(importers)]).toEqual([path.join("lib", "server", "library-index", "open-library-index.ts")]);
  });
});
