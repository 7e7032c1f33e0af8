// What goes wrong reading one file that no check foresaw (here: the words of one entry cannot be made) is that
// file's: it is named at its line, none of it is searched or counted, and the other files are indexed. The file is
// not read again until it changes.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { findSessionFiles } from "../../list-sessions";
import { SqliteLibraryIndex } from "./sqlite-library-index";

vi.mock("@/lib/library/library-search", async (original) => {
  const actual = await original<typeof import("@/lib/library/library-search")>();
  return {
    ...actual,
    entrySearchText: (entry: { id?: unknown }) => {
      if (entry.id === "boom") throw new TypeError("no words for this entry");
      return actual.entrySearchText(entry as Parameters<typeof actual.entrySearchText>[0]);
    },
  };
});

let root: string;
const line = (value: object) => JSON.stringify(value) + "\n";
const header = (id: string) => line({ type: "session", version: 3, id, timestamp: "2026-03-01T10:00:00.000Z", cwd: "/w" });
const answer = (id: string, text: string) =>
  line({
    type: "message",
    id,
    parentId: null,
    timestamp: "2026-03-01T10:00:01.000Z",
    message: { role: "assistant", content: [{ type: "text", text }], provider: "p", model: "m", usage: { input: 1, output: 1, cost: { total: 1 } } },
  });

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "file-failure-"));
  mkdirSync(path.join(root, "sessions", "--w--"), { recursive: true });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("a file that fails to be read", () => {
  it("is named at its line and left out; the others are searched and counted; it is read again once it changes", async () => {
    const dir = path.join(root, "sessions");
    const bad = path.join(dir, "--w--", "b.jsonl");
    writeFileSync(path.join(dir, "--w--", "a.jsonl"), header("a") + answer("a1", "walrus one"));
    writeFileSync(bad, header("b") + answer("b1", "walrus two") + answer("boom", "walrus three") + answer("b3", "walrus four"));
    writeFileSync(path.join(dir, "--w--", "c.jsonl"), header("c") + answer("c1", "walrus five"));
    const files = async () => (await findSessionFiles(dir)).map((resolved) => ({ resolved, project: "w", headerTime: resolved.rel }));
    const index = await SqliteLibraryIndex.open(path.join(root, "cache", "index.sqlite"));
    try {
      const report = await index.update(await files());
      expect(report.unreadable).toEqual([{ file: "--w--/b.jsonl", line: 3, message: "not indexed: no words for this entry" }]);
      const hits = async () => (await index.search("walrus", {}, dir, 50)).map((hit) => `${hit.file} ${hit.entryId}`).sort();
      expect(await hits()).toEqual(["--w--/a.jsonl a1", "--w--/c.jsonl c1"]);
      const usage = await index.usageSums();
      expect(usage.buckets.map((bucket) => [bucket.file, bucket.calls]).sort()).toEqual([
        ["--w--/a.jsonl", 1],
        ["--w--/c.jsonl", 1],
      ]);
      expect((await index.facets()).models).toEqual(["p/m"]);

      // unchanged: not read again, still named
      expect(await index.update(await files())).toMatchObject({ indexed: 0, unreadable: report.unreadable });
      // changed: read again whole
      writeFileSync(bad, header("b") + answer("b1", "walrus two") + answer("b3", "walrus four"));
      utimesSync(bad, new Date(), new Date(Date.now() + 5000));
      expect(await index.update(await files())).toMatchObject({ indexed: 1, unreadable: [] });
      expect(await hits()).toEqual(["--w--/a.jsonl a1", "--w--/b.jsonl b1", "--w--/b.jsonl b3", "--w--/c.jsonl c1"]);
    } finally {
      index.close();
    }
  });
});
