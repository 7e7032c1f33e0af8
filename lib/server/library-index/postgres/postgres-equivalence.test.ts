// The archive's library index gives the local index's answers. A generated library (forks, a session still being
// written, a file with broken and reused lines) is pushed into a fresh database and indexed by the SQLite
// implementation from the same directory; then both are asked many random searches with random filters, their
// facets, problems and usage. Ranking differs by design (ts_rank, not bm25): a ranked page is compared as a set of
// hits (every hit asked for), a capped page (newest first, in both) hit by hit in order.
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appendEntries, generateLibrary } from "@/bench/generate-library";
import { entrySearchText, librarySearchTerms, searchWords } from "@/lib/library/library-search";
import type { LibrarySearchHit } from "@/lib/library/search-api";
import { bucketRows, USAGE_GROUPINGS, type UsageRow } from "@/lib/library/usage";
import type { SessionEntry } from "@/lib/session/types";
import { Rng } from "@/lib/session/testing/rng";
import { machineId, openArchive, type Archive } from "../../archive/open-archive";
import { pushFile } from "../../archive/push-file";
import { testDatabase, type TestDatabase } from "../../archive/testing/test-database";
import { findSessionFiles } from "../../list-sessions";
import type { ResolvedSessionFile } from "../../safe-path";
import type { LibraryIndex, SearchFilters, SearchPage, StoredUsage } from "../library-index";
import { openLibraryIndex } from "../open-library-index";

const MACHINE = "ci-7";
const CAP = 40;
const HOSTILE = "--home-dev-projects-hostile--/2025-06-01T00-00-00-000Z_h1.jsonl";

let db: TestDatabase;
let archive: Archive;
let root: string;
let work: string;
let laptop: number;
let local: LibraryIndex;
let archived: LibraryIndex;
let files: { resolved: ResolvedSessionFile; project: string; headerTime: string }[];

/** The library's files as the local index is given them, oldest first (the order both indexes take them in). */
async function describedFiles() {
  const listed = (await findSessionFiles(work)).map((resolved) => {
    const header = JSON.parse(readFileSync(resolved.file, "utf8").split("\n", 1)[0]!) as { timestamp: string; cwd: string };
    return { resolved, project: header.cwd, headerTime: header.timestamp };
  });
  return listed.sort((a, b) => (a.headerTime < b.headerTime ? -1 : a.headerTime > b.headerTime ? 1 : 0));
}

/** Pushes the changed files, oldest first, and brings the local index up to them. */
async function update() {
  files = await describedFiles();
  for (const file of files) await pushFile(archive.pool, laptop, file.resolved);
  await local.update(files);
}

const local_ = (file: string) => file.slice(MACHINE.length + 1);
const hitText = (hit: LibrarySearchHit, file: string) =>
  `${file} ${hit.entryId} alsoIn=${hit.alsoIn} active=${hit.onActivePath} ${hit.role} ${hit.time} ${hit.snippet}`;
const localHits = (page: SearchPage) => page.hits.map((hit) => hitText(hit, hit.file));
const archivedHits = (page: SearchPage) =>
  page.hits.map((hit) => {
    expect(hit.file.startsWith(`${MACHINE}/`)).toBe(true);
    return hitText(hit, local_(hit.file));
  });

beforeAll(async () => {
  db = await testDatabase();
  archive = await openArchive(db.url);
  laptop = await machineId(archive.pool, MACHINE);
  root = mkdtempSync(path.join(os.tmpdir(), "postgres-equivalence-"));
  work = path.join(root, "sessions");
  const stats = generateLibrary(work, { sessions: 40, sizeMB: 3, seed: 11, forkChance: 0.3 });
  expect(stats.forks).toBeGreaterThan(5);
  // a session still being written: its last line has no newline yet
  const growing = path.join(work, stats.largest);
  appendFileSync(growing, readFileSync(growing, "utf8").split("\n")[1]!.slice(0, 50));
  const entry = (id: string, text: string) =>
    JSON.stringify({ type: "message", id, parentId: null, timestamp: "2025-06-01T00:00:01.000Z", message: { role: "user", content: text } });
  mkdirSync(path.dirname(path.join(work, HOSTILE)), { recursive: true });
  writeFileSync(
    path.join(work, HOSTILE),
    [
      JSON.stringify({ type: "session", version: 3, id: "h1", timestamp: "2025-06-01T00:00:00.000Z", cwd: "/home/dev/projects/hostile" }),
      entry("x", "walrus one"),
      "{broken",
      entry("x", "walrus one"),
      entry("x", "walrus two"),
      Buffer.from([0xff, 0xfe]).toString("latin1"),
      "",
    ].join("\n"),
  );
  local = await openLibraryIndex(work, { cacheRoot: path.join(root, "cache"), tuning: { rankedHits: CAP } });
  // the library scaled down to the tuning: searches are read through the words' index, walked, or both
  archived = await openLibraryIndex(work, { archive: archive.pool, tuning: { rankedHits: CAP, indexedHits: 20, probedEntries: 300 } });
  await update();
}, 120_000);

afterAll(async () => {
  local?.close();
  archived?.close();
  await archive?.close();
  await db?.drop();
  if (root) rmSync(root, { recursive: true, force: true });
});

/** Both indexes' answers to one search: equal hits, totals and capping, as the module comment says. */
async function compare(query: string, filters: SearchFilters): Promise<"capped" | "ranked" | "none"> {
  const label = `${query} ${JSON.stringify(filters)}`;
  const [mine, theirs] = [await archived.searchPage(query, filters, work, 10), await local.searchPage(query, filters, work, 10)];
  expect(mine.capped, label).toBe(theirs.capped);
  if (theirs.capped) {
    expect(archivedHits(mine), label).toEqual(localHits(theirs));
    expect(mine.hits.every((hit) => hit.score === 0)).toBe(true);
    // SQLite's plan for a common prefix may know a larger lower bound than the newest hits hold
    expect(mine.total, label).toBeLessThanOrEqual(theirs.total);
    expect(mine.total, label).toBeGreaterThanOrEqual(mine.hits.length);
    return "capped";
  }
  expect(mine.total, label).toBe(theirs.total);
  expect(mine.hits.length, label).toBe(theirs.hits.length);
  const [all, allLocal] = [await archived.searchPage(query, filters, work, Infinity), await local.searchPage(query, filters, work, Infinity)];
  expect(archivedHits(all).sort(), label).toEqual(localHits(allLocal).sort());
  // a page is the best of every hit, best first
  expect(all.hits.slice(0, 10)).toEqual(mine.hits);
  expect(all.hits.every((hit, i) => i === 0 || all.hits[i - 1]!.score <= hit.score)).toBe(true);
  return theirs.total ? "ranked" : "none";
}

const closeRows = (actual: readonly UsageRow[], expected: readonly UsageRow[], label: string) => {
  expect(
    actual.map((row) => [row.key, row.calls]),
    label,
  ).toEqual(expected.map((row) => [row.key, row.calls]));
  actual.forEach((row, i) => {
    const other = expected[i]!;
    for (const field of ["input", "output", "cacheRead", "cacheWrite", "cost"] as const)
      expect(row[field], `${label} ${row.key} ${field}`).toBeCloseTo(other[field], 6);
  });
};

const localUsage = (usage: StoredUsage) => ({ buckets: usage.buckets, copied: usage.copied });
const archivedUsage = (usage: StoredUsage) => ({
  // (a directory's buckets name no machine)
  buckets: usage.buckets.map((bucket) => ({ ...bucket, file: local_(bucket.file), machine: undefined })),
  copied: new Map([...usage.copied].map(([file, sum]) => [local_(file), sum])),
});

async function compareUsage() {
  const mine = archivedUsage(await archived.usageSums());
  const theirs = localUsage(await local.usageSums());
  for (const by of USAGE_GROUPINGS) closeRows(bucketRows(mine.buckets, by), bucketRows(theirs.buckets, by), `by ${by}`);
  expect([...mine.copied.keys()].sort()).toEqual([...theirs.copied.keys()].sort());
  for (const [file, sum] of theirs.copied) {
    expect(mine.copied.get(file)!.calls, file).toBe(sum.calls);
    expect(mine.copied.get(file)!.cost, file).toBeCloseTo(sum.cost, 6);
  }
  for (const file of files.slice(0, 12)) {
    const rel = file.resolved.rel;
    expect(await archived.usageBranches(`${MACHINE}/${rel}`, null), rel).toEqual(await local.usageBranches(rel, null));
  }
}

describe("the archive's library index answers as the local one", () => {
  it("gives the same hits, totals and capping for random searches with random filters", async () => {
    const rng = new Rng(44);
    const texts = files.flatMap((file) =>
      readFileSync(file.resolved.file, "utf8")
        .split("\n")
        .slice(1)
        .flatMap((line) => {
          try {
            return [searchWords(entrySearchText(JSON.parse(line) as SessionEntry))];
          } catch {
            return [];
          }
        }),
    );
    const counts = new Map<string, number>();
    for (const words of texts) for (const word of new Set(words)) counts.set(word, (counts.get(word) ?? 0) + 1);
    const byCount = [...counts].filter(([word]) => /^[a-z]{3,}$/.test(word)).sort((a, b) => b[1] - a[1]);
    const common = byCount.slice(0, 15).map(([word]) => word);
    const rare = byCount.filter(([, n]) => n >= 2 && n <= 6).map(([word]) => word);
    const months = [Date.UTC(2025, 5, 1), Date.UTC(2025, 8, 1), Date.UTC(2025, 11, 1)];
    const facets = await local.facets();
    expect(await archived.facets()).toEqual(facets);
    const seen = { capped: 0, ranked: 0, none: 0 };
    for (let q = 0; q < 120; q++) {
      const word = rng.pick(common);
      const long = rng.pick(texts.filter((words) => words.length > 3));
      const at = rng.int(long.length - 2);
      const query = [
        word,
        word.slice(0, 3),
        `${word.slice(0, 4)} ${rng.pick(rare)}`,
        rng.pick(rare),
        `"${long.slice(at, at + 2).join(" ")}"`,
        `"${long[at]} ${long[at + 1]!.slice(0, 3)}"`,
        "walrus",
      ][q % 7]!;
      const filters: SearchFilters = [
        {},
        { role: rng.pick(facets.roles) },
        { activeOnly: true },
        { project: rng.pick(files).project },
        { tool: rng.pick(facets.tools) },
        { model: rng.pick(facets.models) },
        { from: months[q % 3], to: months[q % 3]! + 90 * 86_400_000 },
        { project: rng.pick(files).project, activeOnly: true, role: "assistant" },
      ][rng.int(8)]!;
      seen[await compare(query, filters)]++;
      expect(librarySearchTerms(query).length).toBeGreaterThan(0);
    }
    // the comparison met every kind of page
    expect(seen.capped).toBeGreaterThan(5);
    expect(seen.ranked).toBeGreaterThan(20);
  }, 120_000);

  it("names the same unreadable lines, and sums usage alike by day, week, model, project and session", async () => {
    const problems = (await archived.problems()).map((problem) => ({ ...problem, file: local_(problem.file) }));
    expect(problems).toEqual(await local.problems());
    expect(problems.map((problem) => problem.line)).toEqual([3, 5, 6]);
    await compareUsage();
  });

  it("finds a grown file's new entries once pushed, and answers alike after it", async () => {
    const grown = files.find((file) => !file.resolved.rel.startsWith("--home-dev-projects-hostile"))!;
    appendEntries(grown.resolved.file, 30, 99);
    await update();
    // an appended entry, found by its own words
    const appended = readFileSync(grown.resolved.file, "utf8")
      .trimEnd()
      .split("\n")
      .slice(-30)
      .map((line) => JSON.parse(line) as SessionEntry);
    const entry = appended.find((value) => searchWords(entrySearchText(value)).length >= 2)!;
    const words = searchWords(entrySearchText(entry));
    const hits = (await archived.searchPage(`"${words[0]} ${words[1]}"`, {}, work, Infinity)).hits;
    expect(hits.map((hit) => hit.entryId)).toContain(entry.id);
    for (const query of ["the", "fix", '"of the"', `"${words[0]} ${words[1]}"`]) await compare(query, { activeOnly: true });
    await compareUsage();
  }, 60_000);

  it("forgets a replaced file's old words and lines", async () => {
    writeFileSync(
      path.join(work, HOSTILE),
      JSON.stringify({ type: "session", version: 3, id: "h1", timestamp: "2025-06-01T00:00:00.000Z", cwd: "/home/dev/projects/hostile" }) + "\n",
    );
    await update();
    expect(await compare("walrus", {})).toBe("none");
    expect(await archived.problems()).toEqual([]);
    await compareUsage();
  }, 60_000);
});
