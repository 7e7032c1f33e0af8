import { appendFileSync, cpSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { entryFingerprint } from "@/lib/library/inherited-entries";
import { entrySearchText, librarySearchTerms, matchesTerms, searchWords } from "@/lib/library/library-search";
import { Session, type SessionEntry } from "@/lib/session";
import { mulberry32 } from "@/lib/session/testing/random-session";
import { findSessionFiles } from "./list-sessions";
import { SearchIndex } from "./search-index";

const E2E = path.resolve(__dirname, "../../e2e/fixtures/sessions");

let root: string;
let dir: string;

/** The e2e sessions and, for a few of them, forks made by pi's rules (createBranchedSession), so copies exist. */
beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "search-index-"));
  dir = path.join(root, "sessions");
  // the sessions under a megabyte: a brute-force scan of each query stays quick
  cpSync(E2E, dir, { recursive: true, filter: (source) => statSync(source).isDirectory() || statSync(source).size < 1024 * 1024 });
  const rng = mulberry32(3);
  const project = path.join(dir, "--home-dev-projects-webapp--");
  for (const [i, name] of [
    "2026-01-13T16-00-00-001Z_019bb815-e000-7e66-8931-733e7ccbef30.jsonl",
    "2026-01-06T09-00-00-001Z_019b9288-d680-7712-abd1-4c1fae7679e4.jsonl",
  ].entries()) {
    const session = Session.fromText(readFileSync(path.join(project, name), "utf8"));
    const fork = session.fork(rng.pick([...session.tree.ids()]), { sourcePath: path.join(project, name), timestamp: `2026-03-0${i + 1}T00:00:00.000Z` }, "ca");
    writeFileSync(path.join(project, `fork-${i}.jsonl`), fork.text);
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function library() {
  return (await findSessionFiles(dir)).map((resolved) => {
    const first = readFileSync(resolved.file, "utf8").split("\n", 1)[0]!;
    let headerTime = "";
    try {
      const header = JSON.parse(first) as { type?: unknown; timestamp?: unknown };
      if (header.type === "session" && typeof header.timestamp === "string") headerTime = header.timestamp;
    } catch {
      // no header: sorted first among copies, as the index does with its empty time
    }
    return { resolved, project: resolved.rel.split("/")[0]!, headerTime };
  });
}

/** Every entry line of every file with its words: what a brute-force scan searches. */
async function scanAll() {
  const out: { file: string; headerTime: string; entryId: string; key: string; words: string[] }[] = [];
  for (const { resolved, headerTime } of await library()) {
    let offset = 0;
    for (const line of readFileSync(resolved.file).toString("utf8").split("\n")) {
      const at = offset;
      offset += Buffer.byteLength(line) + 1;
      let value: Record<string, unknown>;
      try {
        value = JSON.parse(line);
      } catch {
        continue;
      }
      if (typeof value !== "object" || value === null || value.type === "session" || (value.kind !== undefined && value.kind !== "entry")) continue;
      const fingerprint = entryFingerprint(value);
      const entryId = fingerprint?.id ?? `line@${at}`;
      out.push({
        file: resolved.rel,
        headerTime,
        entryId,
        key: fingerprint ? `${fingerprint.id} ${fingerprint.hash}` : `${resolved.rel} ${at}`,
        words: searchWords(entrySearchText(value as SessionEntry)),
      });
    }
  }
  return out;
}

/** The brute force's hits: every matching entry, a copy shown once in its oldest file. */
function bruteForce(scan: Awaited<ReturnType<typeof scanAll>>, query: string): string[] {
  const terms = librarySearchTerms(query);
  const best = new Map<string, (typeof scan)[number]>();
  for (const entry of scan) {
    if (!matchesTerms(entry.words, terms)) continue;
    const held = best.get(entry.key);
    if (!held || entry.headerTime < held.headerTime || (entry.headerTime === held.headerTime && entry.file < held.file)) best.set(entry.key, entry);
  }
  return [...best.values()].map((e) => `${e.file} ${e.entryId}`).sort();
}

describe("SearchIndex", () => {
  it("finds every hit a brute-force scan over the files finds, and no other, for random queries", async () => {
    const index = await SearchIndex.open(path.join(root, "cache", "a.sqlite"));
    try {
      const report = await index.update(await library());
      expect(report.indexed).toBeGreaterThan(20);
      const scan = await scanAll();
      const rng = mulberry32(11);
      const withWords = scan.filter((e) => e.words.length > 2);
      let nonEmpty = 0;
      for (let q = 0; q < 150; q++) {
        const doc = rng.pick(withWords).words;
        const at = rng.int(doc.length - 1);
        const word = doc[at]!;
        const query = [
          word,
          word.slice(0, 1 + rng.int(word.length)),
          `"${doc.slice(at, at + 2).join(" ")}"`,
          `${word} ${rng.pick(withWords).words[0]}`,
          `${word.toUpperCase()} -- "${doc[at + 1]}`,
        ][q % 5]!;
        const expected = bruteForce(scan, query);
        const hits = await index.search(query, {}, dir, Infinity);
        expect(hits.map((h) => `${h.file} ${h.entryId}`).sort(), query).toEqual(expected);
        if (expected.length) nonEmpty++;
      }
      expect(nonEmpty).toBeGreaterThan(100);
    } finally {
      index.close();
    }
  });

  it("shows an entry a fork copied once, in its source, with how many other files hold it", async () => {
    const index = await SearchIndex.open(path.join(root, "cache", "b.sqlite"));
    try {
      await index.update(await library());
      const lines = readFileSync(path.join(dir, "--home-dev-projects-webapp--", "fork-0.jsonl"), "utf8")
        .trimEnd()
        .split("\n")
        .slice(1);
      const entry = lines.map((line) => JSON.parse(line) as SessionEntry).find((e) => e.type === "message" && searchWords(entrySearchText(e)).length >= 4)!;
      const words = searchWords(entrySearchText(entry));
      const hits = await index.search(`"${words.slice(0, 4).join(" ")}"`, {}, dir, Infinity);
      const hit = hits.find((h) => h.entryId === entry.id)!;
      expect(hit.file).not.toContain("fork-");
      expect(hit.alsoIn).toBeGreaterThanOrEqual(1);
      expect(hit.snippet.toLowerCase()).toContain(words[0]!);
    } finally {
      index.close();
    }
  });

  it("reads only what changed: a grown file from where it was indexed, a replaced one whole, a removed one out", async () => {
    const work = path.join(root, "inc");
    cpSync(path.join(dir, "--home-dev-projects-webapp--"), path.join(work, "--p--"), { recursive: true });
    const files = async () => (await findSessionFiles(work)).map((resolved) => ({ resolved, project: "p", headerTime: "" }));
    const index = await SearchIndex.open(path.join(root, "cache", "c.sqlite"));
    try {
      const first = await index.update(await files());
      expect(first.indexed).toBe(4);
      expect((await index.update(await files())).indexed).toBe(0);
      const target = path.join(work, "--p--", "fork-1.jsonl");
      appendFileSync(
        target,
        JSON.stringify({
          type: "message",
          id: "zz01",
          parentId: null,
          timestamp: "2026-03-09T00:00:00Z",
          message: { role: "user", content: "quokkaword appended" },
        }) + "\n",
      );
      // a line being written: read when it is complete
      appendFileSync(target, '{"type":"message","id":"zz02"');
      const grown = await index.update(await files());
      expect(grown).toMatchObject({ indexed: 1, entries: 1 });
      const known = grown.unreadable;
      expect((await index.search("quokkaword", {}, work)).map((h) => h.entryId)).toEqual(["zz01"]);
      appendFileSync(target, ',"parentId":"zz01","message":{"role":"user","content":"wombatword"}}\nnot json\n');
      const more = await index.update(await files());
      expect(more.entries).toBe(1);
      const lines = readFileSync(target, "utf8").trimEnd().split("\n").length;
      expect(more.unreadable).toEqual([...known, { file: "--p--/fork-1.jsonl", line: lines, message: expect.any(String) }]);
      // said again while it is there, though the file is not read again
      expect((await index.update(await files())).unreadable).toEqual(more.unreadable);
      expect((await index.search("wombatword", {}, work)).map((h) => h.entryId)).toEqual(["zz02"]);
      // replaced (a new inode): indexed again whole, the old words gone
      const replaced = path.join(work, "--p--", "replaced.tmp");
      writeFileSync(replaced, JSON.stringify({ type: "session", version: 3, id: "r", timestamp: "2026-03-10T00:00:00Z", cwd: "/p" }) + "\n");
      renameSync(replaced, target);
      await index.update(await files());
      expect(await index.search("quokkaword", {}, work)).toEqual([]);
      rmSync(path.join(work, "--p--", "fork-0.jsonl"));
      expect((await index.update(await files())).removed).toBe(1);
    } finally {
      index.close();
    }
  });

  it("filters by role, tool and the active path", async () => {
    const index = await SearchIndex.open(path.join(root, "cache", "d.sqlite"));
    try {
      await index.update(await library());
      const all = await index.search("the", {}, dir, Infinity);
      const users = await index.search("the", { role: "user" }, dir, Infinity);
      expect(users.length).toBeGreaterThan(0);
      expect(users.length).toBeLessThan(all.length);
      const active = await index.search("the", { activeOnly: true }, dir, Infinity);
      expect(active.every((h) => h.onActivePath)).toBe(true);
      expect(active.length).toBe(all.filter((h) => h.onActivePath).length);
      const reads = await index.search("the", { tool: "read" }, dir, Infinity);
      expect(reads.length).toBeGreaterThan(0);
    } finally {
      index.close();
    }
  });

  it("answers searches asked at once, one after the other", async () => {
    const { searchLibrary } = await import("./library-search");
    const files = (await library()).map((f) => f.resolved);
    const cacheRoot = path.join(root, "cache-turns");
    const queries = ["the", "build", "test", "the build", "redis"];
    const together = await Promise.all(queries.map((q) => searchLibrary(dir, files, q, {}, { cacheRoot, limit: 20 })));
    for (const [i, q] of queries.entries()) {
      const alone = await searchLibrary(dir, files, q, {}, { cacheRoot, limit: 20 });
      expect(together[i]!.hits, q).toEqual(alone.hits);
    }
    expect(together[0]!.report.indexed).toBeGreaterThan(0);
  });
});
