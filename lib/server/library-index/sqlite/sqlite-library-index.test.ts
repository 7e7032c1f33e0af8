import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { entryFingerprint } from "@/lib/library/inherited-entries";
import { entrySearchText, librarySearchTerms, matchesTerms, searchWords } from "@/lib/library/library-search";
import { modelLabel, Session, type SessionEntry } from "@/lib/session";
import { Rng } from "@/lib/session/testing/rng";
import { findSessionFiles } from "../../list-sessions";
import type { SearchFilters } from "../library-index";
import { LibraryIndexBusyError } from "../library-index-busy-error";
import * as newestScan from "./newest-scan";
import { SqliteLibraryIndex } from "./sqlite-library-index";

// the plans past FTS5's expansion of a common prefix, watched: which one a query took
vi.mock("./newest-scan", async (original) => {
  const actual = await original<typeof import("./newest-scan")>();
  return { ...actual, scan: vi.fn(actual.scan), drive: vi.fn(actual.drive) };
});

const E2E = path.resolve(__dirname, "../../../../e2e/fixtures/sessions");

let root: string;
let dir: string;

/** The e2e sessions and, for a few of them, forks made by pi's rules (createBranchedSession), so copies exist. */
beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "search-index-"));
  dir = path.join(root, "sessions");
  // the sessions under a megabyte: a brute-force scan of each query stays quick
  cpSync(E2E, dir, { recursive: true, filter: (source) => statSync(source).isDirectory() || statSync(source).size < 1024 * 1024 });
  const rng = new Rng(3);
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

describe("SqliteLibraryIndex", () => {
  it("finds every hit a brute-force scan over the files finds, and no other, for random queries", async () => {
    const index = await SqliteLibraryIndex.open(path.join(root, "cache", "a.sqlite"));
    try {
      const report = await index.update(await library());
      expect(report.indexed).toBeGreaterThan(20);
      const scan = await scanAll();
      const rng = new Rng(11);
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
    const index = await SqliteLibraryIndex.open(path.join(root, "cache", "b.sqlite"));
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
    const index = await SqliteLibraryIndex.open(path.join(root, "cache", "c.sqlite"));
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

  it("names a file it cannot open, on every update, and indexes the others", async () => {
    const work = path.join(root, "unopened");
    cpSync(path.join(dir, "--home-dev-projects-webapp--"), path.join(work, "--p--"), { recursive: true });
    const listed = (await findSessionFiles(work)).map((resolved) => ({ resolved, project: "p", headerTime: "" }));
    // gone between the listing and the reading, as a file a user deletes while the index is made
    const gone = listed.find((f) => f.resolved.rel.endsWith("fork-1.jsonl"))!;
    rmSync(gone.resolved.file);
    const index = await SqliteLibraryIndex.open(path.join(root, "cache", "unopened.sqlite"));
    try {
      for (let i = 0; i < 2; i++) {
        const report = await index.update(listed);
        expect(report.unreadable).toEqual([{ file: gone.resolved.rel, line: 0, message: expect.stringMatching(/^cannot be read: ./) }]);
        expect(report.indexed).toBe(i === 0 ? listed.length - 1 : 0);
      }
      expect((await index.search("the", {}, work, Infinity)).some((hit) => hit.file === gone.resolved.rel)).toBe(false);
      expect((await index.search("the", {}, work, Infinity)).length).toBeGreaterThan(0);
    } finally {
      index.close();
    }
  });

  it("filters by role, tool and the active path", async () => {
    const index = await SqliteLibraryIndex.open(path.join(root, "cache", "d.sqlite"));
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
    const { searchLibrary } = await import("../../library-search");
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

/**
 * A generated library (bench/generate-library.ts: Zipf words, so some prefixes are common and others rare, and
 * forks) with a brute-force model of what the index holds: every entry row in the order the index writes them
 * (files by header time, lines in order), its words, copy key, filter fields and whether it is on the active path.
 */
describe("SqliteLibraryIndex on a generated library", () => {
  let work: string;
  let files: Awaited<ReturnType<typeof generatedFiles>>;
  let rows: ModelRow[];

  interface ModelRow {
    file: string;
    headerTime: string;
    project: string;
    entryId: string;
    key: string;
    words: string[];
    role: string | null;
    model: string | null;
    tools: string[];
    time: number | null;
    active: boolean;
  }

  async function generatedFiles() {
    return (await findSessionFiles(work)).map((resolved) => {
      const header = JSON.parse(readFileSync(resolved.file, "utf8").split("\n", 1)[0]!) as { timestamp: string; cwd: string };
      return { resolved, project: header.cwd, headerTime: header.timestamp };
    });
  }

  function model(): ModelRow[] {
    const out: ModelRow[] = [];
    for (const { resolved, project, headerTime } of [...files].sort((a, b) => (a.headerTime < b.headerTime ? -1 : 1))) {
      const fileRows: (ModelRow & { id: string | null; parentId: string | null })[] = [];
      const parents = new Map<string, string | null>();
      let leaf: string | null = null;
      let offset = 0;
      for (const line of readFileSync(resolved.file, "utf8").split("\n")) {
        const at = offset;
        offset += Buffer.byteLength(line) + 1;
        if (!line) continue;
        const value = JSON.parse(line) as Record<string, unknown>;
        if (value.type === "session") continue;
        const id = typeof value.id === "string" ? value.id : null;
        const parentId = typeof value.parentId === "string" ? value.parentId : null;
        if (id) parents.set(id, parentId);
        leaf = value.type === "leaf" ? (value.targetId as string) : (id ?? leaf);
        const message = (value.message ?? null) as Record<string, unknown> | null;
        const fingerprint = entryFingerprint(value)!;
        const content = message && Array.isArray(message.content) ? (message.content as Record<string, unknown>[]) : [];
        fileRows.push({
          file: resolved.rel,
          headerTime,
          project,
          entryId: id ?? `line@${at}`,
          key: `${fingerprint.id} ${fingerprint.hash}`,
          words: searchWords(entrySearchText(value as SessionEntry)),
          role: message ? (message.role as string) : (value.type as string),
          model: message?.role === "assistant" ? modelLabel(message.provider, message.model) : null,
          tools:
            message?.role === "toolResult"
              ? [message.toolName as string]
              : message?.role === "assistant"
                ? content.filter((block) => block.type === "toolCall").map((block) => block.name as string)
                : [],
          time: Date.parse(value.timestamp as string),
          active: false,
          id,
          parentId,
        });
      }
      const onPath = new Set<string>();
      for (let at = leaf; at !== null && parents.has(at) && !onPath.has(at); at = parents.get(at)!) onPath.add(at);
      for (const row of fileRows) out.push({ ...row, active: row.id !== null && onPath.has(row.id) });
    }
    return out;
  }

  const passes = (row: ModelRow, f: SearchFilters) =>
    (f.project === undefined || row.project === f.project) &&
    (f.role === undefined || row.role === f.role) &&
    (f.model === undefined || row.model === f.model) &&
    (f.tool === undefined || row.tools.includes(f.tool)) &&
    (f.from === undefined || (row.time !== null && row.time >= f.from)) &&
    (f.to === undefined || (row.time !== null && row.time < f.to)) &&
    (!f.activeOnly || row.active);

  /** A copy key's hit as the index shows it: in the oldest file passing the filters, the others counted. */
  function shown(key: string, matching: readonly ModelRow[]): string {
    const copies = matching.filter((row) => row.key === key);
    const first = copies[0]!; // rows are in index order: files by header time, so the first is the oldest
    return `${first.file} ${first.entryId} alsoIn=${copies.length - 1} active=${first.active}`;
  }

  beforeAll(async () => {
    work = path.join(root, "generated");
    const { generateLibrary } = await import("@/bench/generate-library");
    const stats = generateLibrary(work, { sessions: 40, sizeMB: 3, seed: 5, forkChance: 0.3 });
    expect(stats.forks).toBeGreaterThan(5);
    files = await generatedFiles();
    rows = model();
  });

  it("finds with a finite limit what the model finds: every hit when there are few, else the newest", async () => {
    const cap = 40;
    const index = await SqliteLibraryIndex.open(path.join(root, "cache", "g.sqlite"), { rankedHits: cap });
    const drive = vi.mocked(newestScan.drive);
    const scan = vi.mocked(newestScan.scan);
    drive.mockClear();
    scan.mockClear();
    try {
      await index.update(files);
      const rng = new Rng(21);
      const counts = new Map<string, number>();
      for (const row of rows) for (const word of new Set(row.words)) counts.set(word, (counts.get(word) ?? 0) + 1);
      const byCount = [...counts].filter(([word]) => /^[a-z]{3,}$/.test(word)).sort((a, b) => b[1] - a[1]);
      const common = byCount.slice(0, 15).map(([word]) => word);
      const rare = byCount.filter(([, n]) => n >= 2 && n <= 6).map(([word]) => word);
      const months = [Date.UTC(2025, 5, 1), Date.UTC(2025, 8, 1), Date.UTC(2025, 11, 1)];
      let capped = 0;
      let complete = 0;
      // phrases that end in a common prefix, however rare the phrase
      const endings = rows.flatMap((row) =>
        row.words
          .slice(1, 40)
          .flatMap((next, i) => (common.includes(next) && !common.includes(row.words[i]!) ? [`"${row.words[i]} ${next.slice(0, 3)}"`] : [])),
      );
      for (let q = 0; q < 144; q++) {
        const word = rng.pick(common);
        const query = [
          word,
          word.slice(0, 3),
          `${word.slice(0, 4)} ${rng.pick(rare)}`,
          rng.pick(rare),
          `"${rng
            .pick(rows.filter((r) => r.words.length > 3))
            .words.slice(0, 2)
            .join(" ")}"`,
          rng.pick(endings),
        ][q % 6]!;
        const filters: SearchFilters = [
          {},
          { role: "toolResult" },
          { activeOnly: true },
          { project: files[q % files.length]!.project },
          { tool: "read" },
          { model: "anthropic/claude-sonnet-4-5" },
          { from: months[q % 3], to: months[q % 3]! + 90 * 86_400_000 },
        ][q % 7]!;
        const terms = librarySearchTerms(query);
        const matching = rows.filter((row) => passes(row, filters) && matchesTerms(row.words, terms));
        const result = await index.searchPage(query, filters, work, 10);
        const label = `${query} ${JSON.stringify(filters)}`;
        expect(result.capped, label).toBe(matching.length > cap);
        if (result.capped) {
          // the newest `cap` rows, an entry once (where it is newest), shown in its oldest copy; the total counts
          // them, or is a lower bound known otherwise, of at least one more entry than it shows
          const keys = [
            ...new Set(
              [...matching]
                .reverse()
                .slice(0, cap)
                .map((row) => row.key),
            ),
          ];
          expect(result.total, label).toBeLessThanOrEqual(new Set(matching.map((row) => row.key)).size);
          expect(result.total, label).toBeGreaterThanOrEqual(Math.min(keys.length, 11));
          expect(
            result.hits.map((hit) => `${hit.file} ${hit.entryId} alsoIn=${hit.alsoIn} active=${hit.onActivePath}`),
            label,
          ).toEqual(keys.slice(0, 10).map((key) => shown(key, matching)));
          expect(result.hits.every((hit) => hit.score === 0)).toBe(true);
          capped++;
        } else {
          const keys = [...new Set(matching.map((row) => row.key))];
          expect(result.total, label).toBe(keys.length);
          const all = await index.searchPage(query, filters, work, cap);
          expect(all.hits.map((hit) => `${hit.file} ${hit.entryId} alsoIn=${hit.alsoIn} active=${hit.onActivePath}`).sort(), label).toEqual(
            keys.map((key) => shown(key, matching)).sort(),
          );
          expect(all.hits.slice(0, 10)).toEqual(result.hits);
          // bm25 (negative: lower is better), best first
          expect(
            all.hits.every((hit, i) => hit.score < 0 && (i === 0 || all.hits[i - 1]!.score <= hit.score)),
            label,
          ).toBe(true);
          if (keys.length) complete++;
        }
      }
      expect(capped).toBeGreaterThan(20);
      expect(complete).toBeGreaterThan(20);
      // both ways past FTS5's expansion of a common prefix were taken
      expect(scan).toHaveBeenCalled();
      expect(drive).toHaveBeenCalled();
      // and a phrase's words before its common prefix were asked of FTS5 alone
      expect(drive.mock.calls.some(([, match]) => typeof match === "string" && !match.includes("*"))).toBe(true);
    } finally {
      index.close();
    }
  });

  it("gives every hit, ranked, when the limit is Infinity, and says a page is capped only past the cap", async () => {
    const index = await SqliteLibraryIndex.open(path.join(root, "cache", "g2.sqlite"), { rankedHits: 30 });
    try {
      await index.update(files);
      const terms = librarySearchTerms("the");
      const keys = new Set(rows.filter((row) => matchesTerms(row.words, terms)).map((row) => row.key));
      expect(keys.size).toBeGreaterThan(100);
      const all = await index.searchPage("the", {}, work, Infinity);
      expect(all).toMatchObject({ total: keys.size, capped: false });
      expect(all.hits).toHaveLength(keys.size);
      // bm25, best (lowest) first
      expect(all.hits.map((hit) => hit.score)).toEqual(all.hits.map((hit) => hit.score).sort((a, b) => a - b));
      const page = await index.searchPage("the", {}, work, 5);
      expect(page).toMatchObject({ capped: true });
      expect(page.hits).toHaveLength(5);
      expect(page.total).toBeGreaterThan(5);
      expect(page.total).toBeLessThanOrEqual(30);
    } finally {
      index.close();
    }
  });
});

describe("SqliteLibraryIndex on a growing session", () => {
  const line = (value: Record<string, unknown>) => JSON.stringify(value) + "\n";
  const message = (id: string, parentId: string | null, text: string) =>
    line({ type: "message", id, parentId, timestamp: "2026-03-01T00:00:00Z", message: { role: "user", content: text } });

  it("keeps whether each entry is on the active path as the file grows and its leaf moves to another branch", async () => {
    const work = path.join(root, "growing");
    const file = path.join(work, "--p--", "s.jsonl");
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(
      file,
      line({ type: "session", version: 3, id: "s", timestamp: "2026-03-01T00:00:00Z", cwd: "/p" }) +
        message("a1", null, "rootword") +
        message("b1", "a1", "branchword one") +
        message("b2", "b1", "branchword two"),
    );
    const files = async () => (await findSessionFiles(work)).map((resolved) => ({ resolved, project: "p", headerTime: "" }));
    const index = await SqliteLibraryIndex.open(path.join(root, "cache", "growing.sqlite"));
    const active = async (query: string, filters: SearchFilters = {}) =>
      Object.fromEntries((await index.search(query, filters, work, Infinity)).map((hit) => [hit.entryId, hit.onActivePath]));
    try {
      await index.update(await files());
      expect(await active("branchword")).toEqual({ b1: true, b2: true });
      // the session goes back to a1 and on from there: b1 and b2 leave the active path
      appendFileSync(file, message("c1", "a1", "otherword") + message("c2", "c1", "otherword again"));
      expect(await index.update(await files())).toMatchObject({ indexed: 1, entries: 2 });
      expect(await active("branchword")).toEqual({ b1: false, b2: false });
      expect(await active("otherword")).toEqual({ c1: true, c2: true });
      expect(await active("rootword")).toEqual({ a1: true });
      expect(await active("branchword", { activeOnly: true })).toEqual({});
      // an HX leaf entry moves it back
      appendFileSync(file, line({ type: "leaf", id: "l1", parentId: null, targetId: "b2", timestamp: "2026-03-01T00:00:00Z" }));
      await index.update(await files());
      expect(await active("branchword", { activeOnly: true })).toEqual({ b1: true, b2: true });
      expect(await active("otherword")).toEqual({ c1: false, c2: false });
    } finally {
      index.close();
    }
  });

  it("takes an entry another file holds with the same id and content for a copy, and one with other content for another entry", async () => {
    const work = path.join(root, "copies");
    const folder = path.join(work, "--p--");
    mkdirSync(folder, { recursive: true });
    const header = (id: string, time: string) => line({ type: "session", version: 3, id, timestamp: time, cwd: "/p" });
    writeFileSync(path.join(folder, "a.jsonl"), header("a", "2026-01-01T00:00:00Z") + message("x1", null, "alphaword") + message("x2", "x1", "betaword"));
    // a fork re-chained (parentId differs: still a copy), and an entry that only shares an id
    writeFileSync(path.join(folder, "b.jsonl"), header("b", "2026-01-02T00:00:00Z") + message("x1", "zz", "alphaword") + message("x2", "x1", "betaword other"));
    const files = async () =>
      (await findSessionFiles(work)).map((resolved) => ({
        resolved,
        project: "p",
        headerTime: resolved.rel.includes("a.") ? "1" : resolved.rel.includes("b.") ? "2" : "3",
      }));
    const index = await SqliteLibraryIndex.open(path.join(root, "cache", "copies.sqlite"));
    const hits = async (query: string) => (await index.search(query, {}, work, Infinity)).map((hit) => `${hit.file} ${hit.entryId} +${hit.alsoIn}`).sort();
    try {
      await index.update(await files());
      expect(await hits("alphaword")).toEqual(["--p--/a.jsonl x1 +1"]);
      expect(await hits("betaword")).toEqual(["--p--/a.jsonl x2 +0", "--p--/b.jsonl x2 +0"]);
      // a later update: its copies are told from the rows already there, and within the file itself
      writeFileSync(
        path.join(folder, "c.jsonl"),
        header("c", "2026-01-03T00:00:00Z") +
          message("x2", null, "betaword") +
          message("x3", "x2", "gammaword") +
          message("x3", "x2", "gammaword") +
          message("x1", "x3", "alphaword"),
      );
      await index.update(await files());
      expect(await hits("alphaword")).toEqual(["--p--/a.jsonl x1 +2"]);
      expect(await hits("betaword")).toEqual(["--p--/a.jsonl x2 +1", "--p--/b.jsonl x2 +0"]);
      expect(await hits("gammaword")).toEqual(["--p--/c.jsonl x3 +1"]);
    } finally {
      index.close();
    }
  });

  it("offers the filters' values the index holds, and forgets those only a removed file held", async () => {
    const work = path.join(root, "facets");
    const folder = path.join(work, "--p--");
    mkdirSync(folder, { recursive: true });
    const assistant = (id: string, model: string, tool: string) =>
      line({
        type: "message",
        id,
        parentId: null,
        timestamp: "2026-03-01T00:00:00Z",
        message: { role: "assistant", provider: "acme", model, content: [{ type: "toolCall", id: "t", name: tool, arguments: {} }] },
      });
    writeFileSync(path.join(folder, "a.jsonl"), assistant("a1", "common", "read") + message("a2", "a1", "hello"));
    writeFileSync(path.join(folder, "b.jsonl"), assistant("b1", "rare", "zap") + assistant("b2", "common", "read"));
    const files = async () => (await findSessionFiles(work)).map((resolved) => ({ resolved, project: "p", headerTime: "" }));
    const index = await SqliteLibraryIndex.open(path.join(root, "cache", "facets.sqlite"));
    try {
      await index.update(await files());
      expect(await index.facets()).toEqual({ models: ["acme/common", "acme/rare"], tools: ["read", "zap"], roles: ["assistant", "user"] });
      rmSync(path.join(folder, "b.jsonl"));
      await index.update(await files());
      expect(await index.facets()).toEqual({ models: ["acme/common"], tools: ["read"], roles: ["assistant", "user"] });
    } finally {
      index.close();
    }
  });

  it("matches a last word under three characters as a whole word, a longer one as a prefix", async () => {
    const work = path.join(root, "prefix");
    const file = path.join(work, "--p--", "s.jsonl");
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, message("x1", null, "ab abc") + message("x2", "x1", "abcdef") + message("x3", "x2", "xy zabc"));
    const index = await SqliteLibraryIndex.open(path.join(root, "cache", "prefix.sqlite"));
    const ids = async (query: string) => (await index.search(query, {}, work, Infinity)).map((hit) => hit.entryId).sort();
    try {
      await index.update((await findSessionFiles(work)).map((resolved) => ({ resolved, project: "p", headerTime: "" })));
      expect(await ids("ab")).toEqual(["x1"]);
      expect(await ids("abc")).toEqual(["x1", "x2"]);
      expect(await ids("x")).toEqual([]);
      expect(await ids('"xy zab"')).toEqual(["x3"]);
      expect(await ids('"xy za"')).toEqual([]);
    } finally {
      index.close();
    }
  });
});

describe("SqliteLibraryIndex on a damaged or older index file", () => {
  it("makes anew an index file SQLite cannot read, and empties one of an older schema", async () => {
    const file = path.join(root, "cache", "damaged.sqlite");
    writeFileSync(file, "this is no SQLite file, but a cache that was damaged ".repeat(200));
    const index = await SqliteLibraryIndex.open(file);
    try {
      expect((await index.update(await library())).indexed).toBeGreaterThan(20);
      expect((await index.search("the", {}, dir, 5)).length).toBe(5);
    } finally {
      index.close();
    }
    const older = path.join(root, "cache", "older.sqlite");
    const { Database } = (await import("node-sqlite3-wasm")) as unknown as {
      Database: new (file: string) => { exec(sql: string): void; close(): void };
    };
    const db = new Database(older);
    db.exec("CREATE TABLE files(id INTEGER PRIMARY KEY, path TEXT); INSERT INTO files(path) VALUES ('x.jsonl')");
    db.close();
    const again = await SqliteLibraryIndex.open(older);
    try {
      expect((await again.update(await library())).removed).toBe(0);
      expect((await again.search("the", {}, dir, 5)).length).toBe(5);
    } finally {
      again.close();
    }
  });
});

describe("SqliteLibraryIndex and another connection holding the file", () => {
  async function held(file: string) {
    const { Database } = (await import("node-sqlite3-wasm")) as unknown as { Database: new (file: string) => { exec(sql: string): void; close(): void } };
    mkdirSync(path.dirname(file), { recursive: true });
    const other = new Database(file);
    other.exec("BEGIN IMMEDIATE");
    return other;
  }

  it("waits while another connection writes, then answers", async () => {
    const file = path.join(root, "cache", "busy.sqlite");
    const index = await SqliteLibraryIndex.open(file, { busyTimeoutMs: 10_000 });
    try {
      await index.update(await library());
      const expected = await index.search("the", {}, dir, 20);
      const other = await held(file);
      let released = false;
      setTimeout(() => {
        other.exec("COMMIT");
        other.close();
        released = true;
      }, 300);
      expect(await index.search("the", {}, dir, 20)).toEqual(expected);
      expect(released).toBe(true);
    } finally {
      index.close();
    }
  });

  it("gives up after the busy timeout with an error naming the index file, and answers once the file is free", async () => {
    const file = path.join(root, "cache", "busy2.sqlite");
    const index = await SqliteLibraryIndex.open(file, { busyTimeoutMs: 300 });
    try {
      const other = await held(file);
      try {
        const error = await index.search("the", {}, dir, 20).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(LibraryIndexBusyError);
        expect((error as Error).message).toContain(file);
        await expect(index.update(await library())).rejects.toThrow(file);
      } finally {
        other.exec("ROLLBACK");
        other.close();
      }
      // the same index, not opened again: one that failed connects anew for its next question
      await index.update(await library());
      expect((await index.search("the", {}, dir, 5)).length).toBe(5);
    } finally {
      index.close();
    }
  });

  it("takes questions asked at once in turn, and says how far an update has come without waiting for it", async () => {
    const index = await SqliteLibraryIndex.open(path.join(root, "cache", "together.sqlite"));
    try {
      const files = await library();
      const statuses: Promise<unknown>[] = [];
      const updating = index.update(files, () => statuses.push(index.status()));
      // asked before the update is done: answered after it, from the updated index
      const [report, hits, facets] = await Promise.all([updating, index.search("the", {}, dir, 5), index.facets()]);
      expect(hits).toHaveLength(5);
      expect(facets.roles).toContain("user");
      const seen = (await Promise.all(statuses)) as { progress: { done: number } | null }[];
      expect(seen.map((status) => status.progress?.done)).toEqual(files.map((_, i) => i).concat(files.length));
      expect(await index.status()).toEqual({ progress: null, unreadable: report.unreadable });
    } finally {
      index.close();
    }
    await expect(index.search("the", {}, dir, 5)).rejects.toThrow(/closed/);
  });
});
