// The archive's library index, against a real PostgreSQL: what a push makes searchable, as the local index finds
// it (words, phrases in order, a last word as a prefix, filters, a fork's copy as one hit), capped pages, and a
// grown or replaced file's words.
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ARCHIVE_SCHEMA_VERSION, SCHEMA, schemaVersion } from "../../archive/archive-schema";
import { openArchive } from "../../archive/open-archive";
import { pushLibrary } from "../../archive/push-library";
import { testArchive, type TestArchive } from "../../archive/testing/test-archive";
import { appendEntries, generateLibrary } from "@/bench/generate-library";
import { findSessionFiles } from "../../list-sessions";
import type { LibraryIndex } from "../library-index";
import { openLibraryIndex } from "../open-library-index";
import { refreshUsageSums } from "./usage-sums";

let archive: TestArchive;
let dir: string;
let laptop: number;
let index: LibraryIndex;
const SOURCE = "--home-u-work--/2026-12-01T10-00-00-000Z_s1.jsonl";
const FORK = "--home-u-work--/2026-12-02T10-00-00-000Z_s2.jsonl";
const OTHER = "--home-u-other--/2026-12-03T10-00-00-000Z_s3.jsonl";

const header = (id: string, timestamp: string, cwd: string) => JSON.stringify({ type: "session", version: 3, id, timestamp, cwd });
const message = (id: string, parentId: string | null, role: string, content: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ type: "message", id, parentId, timestamp: "2026-12-01T10:00:01.000Z", message: { role, content, ...extra } });
const write = (rel: string, ...lines: string[]) => {
  mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  writeFileSync(path.join(dir, rel), lines.map((line) => `${line}\n`).join(""));
};
const append = (rel: string, ...lines: string[]) => appendFileSync(path.join(dir, rel), lines.map((line) => `${line}\n`).join(""));
const push = () => pushLibrary(archive.pool, dir, { machine: "laptop", machineId: laptop, concurrency: 1 });
/** Appends to OTHER entry "g" (after `parentId`), an assistant's call of 20 tools whose names take 2,000 characters each: the names. */
const appendManyTools = (parentId: string) => {
  const names = Array.from({ length: 20 }, (_, i) => `${String(i).padStart(2, "0")}${"x".repeat(1998)}`);
  const calls = names.map((name, i) => ({ type: "toolCall", id: `call${i}`, name, arguments: {} }));
  const content = [{ type: "text", text: "parsing everything" }, ...calls];
  append(OTHER, JSON.stringify({ type: "message", id: "g", parentId, timestamp: "2026-12-01T10:00:02.000Z", message: { role: "assistant", content } }));
  return names;
};
const found = async (query: string, filters = {}, limit = 100) => {
  const page = await index.searchPage(query, filters, dir, limit);
  return page.hits.map((hit) => `${hit.file.replace("laptop/", "").slice(0, 15)} ${hit.entryId} ${hit.alsoIn}`).sort();
};

beforeAll(async () => {
  archive = await testArchive();
  laptop = await archive.machine("laptop");
  index = await openLibraryIndex("", { archive: archive.pool });
});
afterAll(async () => {
  index?.close();
  await archive?.close();
});
beforeEach(async () => {
  await archive.clear();
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = mkdtempSync(path.join(tmpdir(), "postgres-index-"));
  write(
    SOURCE,
    header("s1", "2026-12-01T10:00:00.000Z", "/home/u/work"),
    message("a", null, "user", "parse the session lines"),
    message("b", "a", "user", "lines parse"),
  );
  // a fork copies "a" and answers it
  write(
    FORK,
    header("s2", "2026-12-02T10:00:00.000Z", "/home/u/work"),
    message("a", null, "user", "parse the session lines"),
    message("c", "a", "assistant", "parsing done", { provider: "anthropic", model: "claude" }),
  );
  write(OTHER, header("s3", "2026-12-03T10:00:00.000Z", "/home/u/other"), message("d", null, "toolResult", "session parsed", { toolName: "read" }));
  await push();
});

describe("the archive's library index", () => {
  it("finds words, phrases in order and a last word as a prefix, a fork's copy once in the oldest file", async () => {
    expect(await found("lines")).toEqual(["--home-u-work-- a 1", "--home-u-work-- b 0"]);
    expect(await found('"parse the"')).toEqual(["--home-u-work-- a 1"]);
    expect(await found('"lines parse"')).toEqual(["--home-u-work-- b 0"]);
    expect(await found("pars")).toHaveLength(4);
    // a last word shorter than three characters matches only itself
    expect(await found("pa")).toEqual([]);
    const page = await index.searchPage("session", {}, dir, 10);
    expect(page.hits.find((hit) => hit.entryId === "a")).toMatchObject({ file: `laptop/${SOURCE}`, snippet: "parse the session lines", role: "user" });
  });

  it("finds a word longer than a tsvector holds, and the other words of its entry", async () => {
    const long = "x".repeat(3000);
    append(OTHER, message("e", "d", "user", `walrus ${long} narwhal`));
    await push();
    expect(await found(long)).toEqual(["--home-u-other- e 0"]);
    expect(await found(long.slice(0, 2500))).toEqual(["--home-u-other- e 0"]);
    expect(await found(`"walrus ${long.slice(0, 2100)}"`)).toEqual(["--home-u-other- e 0"]);
    expect(await found(`${long}y`)).toEqual([]);
    expect(await found("narwhal walrus")).toEqual(["--home-u-other- e 0"]);
  });

  it("filters by project, role, model, tool and the active path", async () => {
    expect(await found("pars", { project: "/home/u/other" })).toEqual(["--home-u-other- d 0"]);
    expect(await found("pars", { role: "assistant" })).toEqual(["--home-u-work-- c 0"]);
    expect(await found("pars", { model: "anthropic/claude" })).toEqual(["--home-u-work-- c 0"]);
    expect(await found("pars", { tool: "read" })).toEqual(["--home-u-other- d 0"]);
    // "b" is on its file's path; "a" is on both
    expect((await found("lines", { activeOnly: true })).sort()).toEqual(["--home-u-work-- a 1", "--home-u-work-- b 0"]);
    expect(await index.facets()).toEqual({ models: ["anthropic/claude"], tools: ["read"], roles: ["assistant", "toolResult", "user"] });
  });

  it("filters by a tool whose name a tsquery must escape, by one too long to be a lexeme, and by one of too many", async () => {
    const odd = "it's\\tool";
    const long = `t${"o".repeat(2100)}l`;
    append(OTHER, message("e", "d", "toolResult", "parsed again", { toolName: odd }), message("f", "e", "toolResult", "parsed thrice", { toolName: long }));
    await push();
    expect(await found("pars", { tool: odd })).toEqual(["--home-u-other- e 0"]);
    expect(await found("pars", { tool: long })).toEqual(["--home-u-other- f 0"]);
    expect(await found("pars", { tool: "it" })).toEqual([]);
    // 20 tools of 2,000 characters: more than an entry's facts may take among its words; found on its line
    const many = appendManyTools("f");
    await push();
    expect(await found("pars", { tool: many[7] })).toEqual(["--home-u-other- g 0"]);
    expect(await found("pars", { role: "assistant" })).toEqual(["--home-u-other- g 0", "--home-u-work-- c 0"]);
  });

  it("filters by role, model and tool in an archive of version 3 once brought up to this version in place", async () => {
    // a model whose name holds a space: its lexeme as the push makes it and as the upgrade makes it
    append(SOURCE, message("m", "b", "assistant", "parsed locally", { provider: "local", model: "big one" }));
    await push();
    expect(await found("pars", { model: "local/big one" })).toEqual(["--home-u-work-- m 0"]);
    // and an entry of 20 tools whose names take more than its facts may (version 3 did not mark it partial)
    const many = appendManyTools("d");
    await push();
    // version 3 kept an entry's words alone (its role, model and tools were not among them), and no ranges of seq
    await archive.pool.query(
      `update ${SCHEMA}.entries set words = ts_delete(words, array(select lexeme from unnest(words) where lexeme like ':%')) where words is not null;
       update ${SCHEMA}.entries set partial = false where entry_id = 'g';
       drop index ${SCHEMA}.entries_seq_ranges;
       update ${SCHEMA}.meta set value = '3' where key = 'schema_version'`,
    );
    expect(await found("pars", { role: "assistant" })).toEqual([]);
    // a server opens it while another process holds the schema's lock longer than a served statement may last
    const holder = await archive.pool.connect();
    const notices: string[] = [];
    try {
      await holder.query("begin");
      await holder.query("select pg_advisory_xact_lock(hashtext($1))", [SCHEMA]);
      const opening = openArchive(archive.url, { statementTimeoutMs: 100, onUpgrade: (from, to) => notices.push(`${from} -> ${to}`) });
      await new Promise((resolve) => setTimeout(resolve, 400));
      await holder.query("commit");
      await (await opening).close();
      expect(notices).toEqual([`3 -> ${ARCHIVE_SCHEMA_VERSION}`]);
      expect(await schemaVersion(holder)).toBe(ARCHIVE_SCHEMA_VERSION);
      expect((await holder.query("select to_regclass($1) as found", [`${SCHEMA}.entries_seq_ranges`])).rows[0].found).not.toBeNull();
    } finally {
      holder.release();
    }
    await (await openArchive(archive.url, { onUpgrade: (from, to) => notices.push(`${from} -> ${to}`) })).close();
    expect(notices).toHaveLength(1);
    expect(await found("pars", { role: "assistant" })).toEqual(["--home-u-other- g 0", "--home-u-work-- c 0", "--home-u-work-- m 0"]);
    expect(await found("pars", { model: "anthropic/claude" })).toEqual(["--home-u-work-- c 0"]);
    expect(await found("pars", { model: "local/big one" })).toEqual(["--home-u-work-- m 0"]);
    expect(await found("pars", { tool: "read" })).toEqual(["--home-u-other- d 0"]);
    expect(await found("pars", { tool: many[7] })).toEqual(["--home-u-other- g 0"]);
    expect(await found("pars")).toHaveLength(6);
  });

  it("caps a page past the ranked hits: the newest first (pushed last), unscored, a copy in its oldest file", async () => {
    const capped = await openLibraryIndex("", { archive: archive.pool, tuning: { rankedHits: 2 } });
    const page = await capped.searchPage("pars", {}, dir, 2);
    expect(page.capped).toBe(true);
    // pushed in the order the files are listed: the other project's first, the fork last
    expect(page.hits.map((hit) => [hit.entryId, hit.score, hit.file, hit.alsoIn])).toEqual([
      ["c", 0, `laptop/${FORK}`, 0],
      ["a", 0, `laptop/${SOURCE}`, 1],
    ]);
    expect((await capped.searchPage("pars", {}, dir, Infinity)).hits).toHaveLength(4);
  });

  it("caps a project's page at its newest hits when its files grew in turns, and another project's came after", async () => {
    // four files of one project grow in turns, pushed after each: their entries' push order interleaves
    const zoo = [0, 1, 2, 3].map((f) => `--home-u-zoo--/2026-12-0${f + 4}T10-00-00-000Z_z${f}.jsonl`);
    zoo.forEach((rel, f) => write(rel, header(`z${f}`, `2026-12-0${f + 4}T10:00:00.000Z`, "/home/u/zoo")));
    let parent: (string | null)[] = [null, null, null, null];
    for (let round = 0; round < 6; round++)
      for (const [f, rel] of zoo.entries()) {
        // the last round adds two entries a file, the others eight
        for (let i = 0; i < (round === 5 ? 2 : 8); i++) {
          const id = `r${round}f${f}i${i}`;
          append(rel, message(id, parent[f]!, "user", `zebra number ${id}`));
          parent = parent.map((was, at) => (at === f ? id : was));
        }
        await push();
      }
    // the newest zebras of all are in another project
    append(OTHER, ...[0, 1, 2, 3, 4, 5].map((i) => message(`o${i}`, i ? `o${i - 1}` : "d", "user", "zebra elsewhere")));
    await push();
    await archive.pool.query("analyze");
    const capped = await openLibraryIndex("", { archive: archive.pool, tuning: { rankedHits: 5, indexedHits: 10 } });
    const page = await capped.searchPage("zebra", { project: "/home/u/zoo" }, dir, 5);
    expect(page).toMatchObject({ capped: true, total: 5 });
    expect(page.hits.map((hit) => hit.entryId)).toEqual(["r5f3i1", "r5f3i0", "r5f2i1", "r5f2i0", "r5f1i1"]);
    expect((await capped.searchPage("zebra", { project: "/home/u/zoo", role: "user" }, dir, 3)).hits.map((hit) => hit.entryId)).toEqual([
      "r5f3i1",
      "r5f3i0",
      "r5f2i1",
    ]);
    expect((await capped.searchPage("zebra", { project: "/home/u/zoo" }, dir, Infinity)).hits).toHaveLength(4 * (5 * 8 + 2));
  });

  it("caps a page at the newest of many hits, read a range of entries at a time, rows whose words did not fit among them", async () => {
    // every other entry of 800 holds the word, one of them with a word too long for a tsvector
    const long = "y".repeat(3000);
    const spread = Array.from({ length: 800 }, (_, i) =>
      message(`q${i}`, i ? `q${i - 1}` : null, "user", i % 2 ? `filler ${i}` : `quokka jumps ${i}${i === 796 ? ` ${long}` : ""}`),
    );
    write("--home-u-ranges--/2026-12-05T10-00-00-000Z_q1.jsonl", header("q1", "2026-12-05T10:00:00.000Z", "/home/u/ranges"), ...spread);
    await push();
    await archive.pool.query("analyze");
    // then an entry with more words than a tsvector holds, the word among those left out: 125,000 of 8 bytes fill it
    const many = Array.from({ length: 125_000 }, (_, k) => `w${String(k).padStart(6, "0")}x`).join(" ");
    write(
      "--home-u-ranges--/2026-12-06T10-00-00-000Z_q2.jsonl",
      header("q2", "2026-12-06T10:00:00.000Z", "/home/u/ranges"),
      message("over", null, "user", `${many} quokka jumps`),
    );
    await push();
    const capped = await openLibraryIndex("", { archive: archive.pool, tuning: { rankedHits: 5 } });
    const ids = async (query: string, limit: number) => (await capped.searchPage(query, {}, dir, limit)).hits.map((hit) => hit.entryId);
    const page = await capped.searchPage("quokka", {}, dir, 5);
    expect(page).toMatchObject({ capped: true, total: 5 });
    expect(page.hits.map((hit) => hit.entryId)).toEqual(["over", "q798", "q796", "q794", "q792"]);
    expect(await ids('"quokka jumps"', 3)).toEqual(["over", "q798", "q796"]);
    expect(await ids(`quokka ${long}`, 3)).toEqual(["q796"]);
    // 300 entries without the word pushed after them: the newest range holds none, the rest is read
    const nothing = Array.from({ length: 300 }, (_, i) => message(`n${i}`, i ? `n${i - 1}` : null, "user", `nothing ${i}`));
    write("--home-u-ranges--/2026-12-07T10-00-00-000Z_q3.jsonl", header("q3", "2026-12-07T10:00:00.000Z", "/home/u/ranges"), ...nothing);
    await push();
    expect(await ids("quokka", 5)).toEqual(["over", "q798", "q796", "q794", "q792"]);
    expect(await ids("quokka", Infinity)).toHaveLength(401);
    capped.close();
  });

  it("caps a page at the newest hits of a word the newest entries do not hold, where a sample of the entries finds them", async () => {
    // 2,000 entries of the word, then 2,000 without it: reading every hit visits 2,000 rows, a tenth of the pages fewer
    const wombats = Array.from({ length: 2000 }, (_, i) => message(`w${i}`, i ? `w${i - 1}` : null, "user", `wombat ${i}`));
    write("--home-u-zoo--/2026-12-05T10-00-00-000Z_w1.jsonl", header("w1", "2026-12-05T10:00:00.000Z", "/home/u/zoo"), ...wombats);
    await push();
    const nothing = Array.from({ length: 2000 }, (_, i) => message(`n${i}`, i ? `n${i - 1}` : null, "user", `nothing ${i}`));
    write("--home-u-zoo--/2026-12-06T10-00-00-000Z_w2.jsonl", header("w2", "2026-12-06T10:00:00.000Z", "/home/u/zoo"), ...nothing);
    await push();
    await archive.pool.query("analyze");
    const capped = await openLibraryIndex("", { archive: archive.pool, tuning: { rankedHits: 5, indexedHits: 10, probedEntries: 50, sampledPercent: 10 } });
    const page = await capped.searchPage("wombat", {}, dir, 5);
    expect(page).toMatchObject({ capped: true, total: 5 });
    expect(page.hits.map((hit) => hit.entryId)).toEqual(["w1999", "w1998", "w1997", "w1996", "w1995"]);
    capped.close();
  });

  it("finds a grown file's new entries once pushed, and no longer a replaced file's old words", async () => {
    append(OTHER, message("e", "d", "user", "walrus"));
    expect((await push()).counts.grown).toBe(1);
    expect(await found("walrus")).toEqual(["--home-u-other- e 0"]);
    write(OTHER, header("s3", "2026-12-03T10:00:00.000Z", "/home/u/other"), message("f", null, "user", "narwhal"));
    expect((await push()).counts.replaced).toBe(1);
    expect(await found("walrus")).toEqual([]);
    expect(await found("narwhal")).toEqual(["--home-u-other- f 0"]);
    expect((await index.facets()).tools).toEqual([]);
  });

  it("names the lines it cannot read, by <machine>/<path> and line", async () => {
    append(OTHER, "{broken");
    await push();
    expect(await index.problems()).toEqual([{ file: `laptop/${OTHER}`, line: 3, message: expect.stringContaining("JSON") }]);
    expect((await index.update([])).unreadable).toHaveLength(1);
  });

  it("splits a fork's usage by branch anew when its source comes after it, and when it grows", async () => {
    await archive.clear();
    rmSync(dir, { recursive: true, force: true });
    dir = mkdtempSync(path.join(tmpdir(), "postgres-index-"));
    const usage = {
      input: 10,
      output: 5,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 15,
      cost: { input: 0.1, output: 0.2, cacheRead: 0, cacheWrite: 0, total: 0.3 },
    };
    const answer = (id: string, parentId: string) => message(id, parentId, "assistant", "done", { provider: "p", model: "m", usage });
    const source = [header("s1", "2026-12-01T10:00:00.000Z", "/home/u/work"), message("a", null, "user", "go"), answer("b", "a")];
    write(FORK, header("s2", "2026-12-02T10:00:00.000Z", "/home/u/work"), ...source.slice(1), answer("c", "b"));
    await push();
    const input = async () => (await index.usageBranches(`laptop/${FORK}`, null)).reduce((sum, branch) => sum + branch.input, 0);
    // alone, the fork counts both answers; once its source is there, the copied one counts in the source
    expect(await input()).toBe(20);
    write(SOURCE, ...source);
    await push();
    expect(await input()).toBe(10);
    append(FORK, answer("d", "c"));
    await push();
    expect(await input()).toBe(20);
  });

  it("keeps usage sums right when forks are pushed while their sources grow", async () => {
    await archive.clear();
    rmSync(dir, { recursive: true, force: true });
    const stats = generateLibrary(dir, { sessions: 24, sizeMB: 1, seed: 3, forkChance: 0.5 });
    expect(stats.forks).toBeGreaterThan(5);
    const listed = await findSessionFiles(dir);
    const isFork = (file: string) => readFileSync(file, "utf8").split("\n", 1)[0]!.includes('"parentSession"');
    const sources = listed.filter((file) => !isFork(file.file));
    const only = new Set(sources.map((file) => file.rel));
    expect((await pushLibrary(archive.pool, dir, { machine: "laptop", machineId: laptop, concurrency: 4, only })).failed).toEqual([]);
    // the sources grow while their forks come: each fork's push rewrites the sums of a source being pushed
    for (const [i, file] of sources.entries()) appendEntries(file.file, 3, i);
    const again = await pushLibrary(archive.pool, dir, { machine: "laptop", machineId: laptop, concurrency: 4 });
    expect(again.failed).toEqual([]);
    expect(again.counts).toMatchObject({ grown: sources.length, new: stats.forks });
    // sums added in another order may differ in their last bits
    const rounded = (value: object) => JSON.stringify(value, (_, v: unknown) => (typeof v === "number" ? Number(v.toPrecision(12)) : v));
    const sums = async () => {
      const { buckets, copied } = await index.usageSums();
      return { buckets: buckets.map(rounded).sort(), copied: [...copied].map(rounded).sort() };
    };
    const pushed = await sums();
    const { rows } = await archive.pool.query<{ id: string }>(`select id from ${SCHEMA}.files`);
    await refreshUsageSums(
      archive.pool,
      rows.map((row) => row.id),
    );
    expect(await sums()).toEqual(pushed);
    expect(pushed.copied.length).toBeGreaterThan(0);
  });
});
