// One hostile file never breaks the library: a library of the e2e sessions beside files made to break it (a value
// nested 300,000 levels deep under a repeated id, lines longer than the line limit with and without their newline,
// an id used again with other content and one line repeated thousands of times, bytes that are not UTF-8) answers
// search, usage, facets and families; what it answers of the other files is what a library without the hostile
// ones answers; and each hostile line is named by file and line with why. That the reader never holds a long line
// whole is checked on a line of gigabytes in file-lines.test.ts.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LibrarySearchHit, UnreadableLine } from "@/lib/library/search-api";
import { NO_MACHINE, USAGE_GROUPINGS, type SessionUsageRow, type UsageRow } from "@/lib/library/usage";
import { forkInfo, libraryFamilies, type ForkInfo } from "./library-families";
import { openLibraryIndex } from "./library-index/open-library-index";
import { libraryFacets, searchLibrary } from "./library-search";
import { libraryUsage } from "./library-usage";
import { findSessionFiles } from "./list-sessions";
import { familyParamsResponse, forkPointsResponse } from "./serve-family";
import { searchFacetsResponse, searchResponse, searchStatusResponse } from "./serve-search";
import { usageResponse } from "./serve-usage";

const E2E = path.resolve(__dirname, "../../e2e/fixtures/sessions");
const HOSTILE = "--home-dev-hostile--";
const SOURCE = "--home-dev-projects-forks--";
const DEPTH = 300_000;
const MAX_LINE_MB = 1;
const LONG = 3 * 1024 * 1024;
const REPEATS = 5_000;

const saved = { maxLine: process.env.PI_VIEWER_MAX_LINE_MB, dir: process.env.PI_SESSIONS_DIR, cache: process.env.PI_VIEWER_CACHE_DIR };
let root: string;
/** the e2e sessions alone, and beside the hostile files */
let clean: string;
let hostile: string;
let sourceFile: string;

const header = (id: string, extra: object = {}) =>
  JSON.stringify({ type: "session", version: 3, id, timestamp: "2030-01-01T00:00:00.000Z", cwd: "/home/dev/hostile", ...extra });
const message = (id: string, parentId: string | null, text: string, extra: object = {}) =>
  JSON.stringify({
    type: "message",
    id,
    parentId,
    timestamp: "2030-01-01T00:00:01.000Z",
    message: { role: "user", content: [{ type: "text", text }] },
    ...extra,
  });
const answer = (id: string, parentId: string | null, text: string) =>
  JSON.stringify({
    type: "message",
    id,
    parentId,
    timestamp: "2030-01-01T00:00:02.000Z",
    message: {
      role: "assistant",
      content: [{ type: "text", text }],
      provider: "hostile",
      model: "model",
      usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, cost: { total: 0.5 } },
    },
  });

/** The hostile files: what each line holds, and the problems the index must name. */
function writeHostile(dir: string): (UnreadableLine & { reason: RegExp })[] {
  const folder = path.join(dir, HOSTILE);
  mkdirSync(folder);
  const fork = { parentSession: path.join(dir, SOURCE, sourceFile) };
  const deep = (id: string) =>
    `{"type":"message","id":"${id}","parentId":"d1","timestamp":"2030-01-01T00:00:03.000Z","message":{"role":"assistant","content":[{"type":"toolCall","name":"bash","arguments":${"[".repeat(DEPTH)}${"]".repeat(DEPTH)}}]}}`;
  // a fork of a session of the library: its digest (what it inherited) reads the deep lines too
  writeFileSync(
    path.join(folder, "deep.jsonl"),
    [header("h-deep", fork), message("d1", null, "walrus deep start"), deep("dup"), deep("dup"), message("d2", "d1", "walrus deep end")].join("\n") + "\n",
  );
  const long = (id: string) => message(id, "l1", `walrus ${"x".repeat(LONG)}`);
  writeFileSync(
    path.join(folder, "long.jsonl"),
    [header("h-long"), message("l1", null, "walrus long start"), long("l2"), message("l3", "l1", "walrus long middle"), long("l4")].join("\n"),
  );
  const repeated = [header("h-rep"), message("r1", null, "walrus repeated start"), answer("same", "r1", "walrus one")];
  for (let i = 0; i < REPEATS; i++) repeated.push(answer("again", "r1", "walrus again"));
  repeated.push(answer("same", "r1", "walrus two"), answer("same", "r1", "walrus three"));
  writeFileSync(path.join(folder, "repeated.jsonl"), repeated.join("\n") + "\n");
  writeFileSync(
    path.join(folder, "bytes.jsonl"),
    Buffer.concat([
      Buffer.from(`${header("h-bytes", fork)}\n${message("b1", null, "walrus bytes start")}\n`),
      Buffer.from(message("b2", "b1", "walrus @@").replace("@@", "\u0000")).map((byte) => (byte === 0 ? 0xff : byte)),
      Buffer.from(`\n${message("b3", "b1", "walrus bytes end")}\n`),
    ]),
  );
  // values String() and Date cannot take: a provider {"toString": 1}, a time past the last day a Date holds
  const priced = { usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, cost: { total: 0.25 } } };
  writeFileSync(
    path.join(folder, "values.jsonl"),
    [
      header("h-values"),
      message("v1", null, "walrus values start"),
      JSON.stringify({
        type: "message",
        id: "v2",
        parentId: "v1",
        message: { role: "assistant", content: "walrus provider", provider: { toString: 1 }, model: "model", ...priced },
      }),
      JSON.stringify({
        type: "message",
        id: "v3",
        parentId: "v2",
        timestamp: 1e300,
        message: { role: "assistant", content: "walrus time", provider: "hostile", model: "model", ...priced },
      }),
      JSON.stringify({ type: "usage", id: "v4", parentId: "v3", kind: { toString: 1 }, provider: "hostile", model: "model", ...priced }),
    ].join("\n") + "\n",
  );
  const at = (file: string) => `${HOSTILE}/${file}`;
  const longer = /^the line is 3 MB, longer than a line may be \(1 MB, PI_VIEWER_MAX_LINE_MB\)$/;
  const reused = /^id "same" was already used on line \d+ with other content; this line replaces it/;
  return [
    { file: at("bytes.jsonl"), line: 3, message: "", reason: /^the line is not valid UTF-8$/ },
    { file: at("deep.jsonl"), line: 3, message: "", reason: /^the line nests deeper than 1000 levels$/ },
    { file: at("deep.jsonl"), line: 4, message: "", reason: /^the line nests deeper than 1000 levels$/ },
    { file: at("long.jsonl"), line: 3, message: "", reason: longer },
    // the last line, without its newline: growing cannot make it readable
    { file: at("long.jsonl"), line: 5, message: "", reason: longer },
    { file: at("repeated.jsonl"), line: REPEATS + 4, message: "", reason: reused, indexed: true },
    { file: at("repeated.jsonl"), line: REPEATS + 5, message: "", reason: reused, indexed: true },
  ];
}

let expectedProblems: ReturnType<typeof writeHostile>;

beforeAll(() => {
  process.env.PI_VIEWER_MAX_LINE_MB = String(MAX_LINE_MB);
  root = mkdtempSync(path.join(os.tmpdir(), "hostile-library-"));
  clean = path.join(root, "clean");
  hostile = path.join(root, "hostile");
  // the sessions under a megabyte: none has a line past the lowered limit
  for (const dir of [clean, hostile])
    cpSync(E2E, dir, { recursive: true, filter: (source) => statSync(source).isDirectory() || statSync(source).size < 1024 * 1024 });
  sourceFile = readdirSync(path.join(clean, SOURCE)).sort()[0]!;
  expectedProblems = writeHostile(hostile);
});

afterAll(() => {
  for (const [key, value] of [
    ["PI_VIEWER_MAX_LINE_MB", saved.maxLine],
    ["PI_SESSIONS_DIR", saved.dir],
    ["PI_VIEWER_CACHE_DIR", saved.cache],
  ] as const)
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  rmSync(root, { recursive: true, force: true });
});

/** The readable entries of the hostile files holding "walrus", as "file entryId". */
const WALRUS_HITS = [
  ["bytes", "b1"],
  ["bytes", "b3"],
  ["deep", "d1"],
  ["deep", "d2"],
  ["long", "l1"],
  ["long", "l3"],
  ["repeated", "again"],
  ["repeated", "r1"],
  ["repeated", "same"],
  ["repeated", "same"],
  ["repeated", "same"],
  ["values", "v1"],
  ["values", "v2"],
  ["values", "v3"],
]
  .map(([file, id]) => `${HOSTILE}/${file}.jsonl ${id}`)
  .sort();

const isHostile = (file: string) => file.startsWith(`${HOSTILE}/`);
const cacheOf = (dir: string) => ({ cacheRoot: path.join(root, `cache-${path.basename(dir)}`) });

/** A hit as both libraries must give it: bm25 weighs a word by the whole library, so scores and order may differ. */
const comparable = (hits: readonly LibrarySearchHit[]) =>
  hits
    .filter((hit) => !isHostile(hit.file))
    .map((hit) => JSON.stringify({ ...hit, score: 0 }))
    .sort();

const QUERIES: [string, Parameters<typeof searchLibrary>[3]][] = [
  ["token bucket", {}],
  ["redis", {}],
  ["migration", {}],
  ['"rate limit"', {}],
  ["test", {}],
  ["test", { role: "user" }],
  ["error", { activeOnly: true }],
  ["cache", {}],
  ["mig", {}],
  ["err", {}],
];

describe("a library with hostile files", () => {
  it("searches every other file as a library without them does, and names each hostile line with why", async () => {
    const [withFiles, withoutFiles] = await Promise.all([findSessionFiles(hostile), findSessionFiles(clean)]);
    for (const [query, filters] of QUERIES) {
      const found = await searchLibrary(hostile, withFiles, query, filters, { limit: 500, ...cacheOf(hostile) });
      const expected = await searchLibrary(clean, withoutFiles, query, filters, { limit: 500, ...cacheOf(clean) });
      expect(found.capped || expected.capped).toBe(false);
      expect(expected.hits.length).toBeGreaterThan(0);
      expect(comparable(found.hits)).toEqual(comparable(expected.hits));
    }

    const found = await searchLibrary(hostile, withFiles, "walrus", {}, { limit: 500, ...cacheOf(hostile) });
    const clear = (await searchLibrary(clean, withoutFiles, "walrus", {}, cacheOf(clean))).report.unreadable;
    // the readable lines of the hostile files are searched, those around a bad line included; the id used again
    // with other content is a hit per line, the line repeated thousands of times one hit
    expect(found.hits.map((hit) => `${hit.file} ${hit.entryId}`).sort()).toEqual(WALRUS_HITS);
    expect(found.capped).toBe(false);

    const problems = found.report.unreadable.filter((line) => isHostile(line.file));
    expect(found.report.unreadable.filter((line) => !isHostile(line.file))).toEqual(clear);
    expect(problems.map(({ file, line, indexed }) => ({ file, line, indexed }))).toEqual(
      expectedProblems.map(({ file, line, indexed }) => ({ file, line, indexed })),
    );
    for (const [i, problem] of problems.entries()) expect(problem.message).toMatch(expectedProblems[i]!.reason);
  });

  it("answers a query whose newest lines are too long to check within a search's allowance as one that checks them", async () => {
    const files = (await findSessionFiles(hostile)).map((resolved) => ({ resolved, project: resolved.rel.split("/")[0]!, headerTime: resolved.rel }));
    const answers = [];
    // a few kilobytes: the scan of the newest lines stops at once, and FTS5's plan answers
    for (const checkedBytes of [undefined, 4096]) {
      const index = await openLibraryIndex(hostile, { cacheRoot: path.join(root, `allowance-${checkedBytes}`), tuning: { checkedBytes } });
      try {
        await index.update(files);
        answers.push(await index.searchPage("err", {}, hostile, 50));
      } finally {
        index.close();
      }
    }
    expect(answers[0]!.hits.length).toBeGreaterThan(0);
    expect(answers[1]).toEqual(answers[0]);
  });

  it("counts every other file's usage as a library without them does, and the hostile file's own as pi counts it", async () => {
    const [withFiles, withoutFiles] = await Promise.all([findSessionFiles(hostile), findSessionFiles(clean)]);
    // the hostile usage is on a day, a model and a project of its own
    const foreign = (row: UsageRow) =>
      ["2030-01-01", "2029-12-31", "(no date)", "hostile/model", "model", "/home/dev/hostile"].includes(row.key) || isHostile(row.key);
    // (by machine, a directory's usage is one row, "(this machine)": it holds the hostile usage too, checked below)
    for (const by of USAGE_GROUPINGS.filter((grouping) => grouping !== "machine")) {
      const rows = await libraryUsage(hostile, withFiles, by, null, cacheOf(hostile));
      const expected = await libraryUsage(clean, withoutFiles, by, null, cacheOf(clean));
      expect(rows.filter((row) => !foreign(row))).toEqual(expected);
      expect(expected.length).toBeGreaterThan(0);
    }
    const byMachine = await libraryUsage(hostile, withFiles, "machine", null, cacheOf(hostile));
    const byModel = await libraryUsage(hostile, withFiles, "model", null, cacheOf(hostile));
    expect(byMachine.map((row) => [row.key, row.calls])).toEqual([[NO_MACHINE, byModel.reduce((sum, row) => sum + row.calls, 0)]]);
    const bySession = (await libraryUsage(hostile, withFiles, "session", null, cacheOf(hostile))) as SessionUsageRow[];
    // every answer line counts, the repeated ones each time and the id used again on each of its lines, as pi's /session does
    const repeated = bySession.find((row) => row.key === `${HOSTILE}/repeated.jsonl`)!;
    expect(repeated).toMatchObject({ calls: REPEATS + 3, input: 10 * (REPEATS + 3), output: 5 * (REPEATS + 3) });
    expect(repeated.cost).toBeCloseTo(0.5 * (REPEATS + 3));
    expect(repeated.branches.reduce((sum, branch) => sum + branch.cost, 0)).toBeCloseTo(repeated.cost);
    // a provider String() cannot write, a time no Date holds: counted all the same, the second without a day (a
    // line whose kind is no "entry" is a v4 record, no entry)
    expect(bySession.find((row) => row.key === `${HOSTILE}/values.jsonl`)).toMatchObject({ calls: 2, input: 2, output: 2 });
    const byDay = await libraryUsage(hostile, withFiles, "day", null, cacheOf(hostile));
    expect(byDay.find((row) => row.key === "(no date)")).toMatchObject({ calls: 2 });
  });

  it("offers every other file's facets", async () => {
    const facets = await libraryFacets(hostile, await findSessionFiles(hostile), cacheOf(hostile));
    const expected = await libraryFacets(clean, await findSessionFiles(clean), cacheOf(clean));
    // a provider that is no string: the model alone, as every view names it (modelLabel)
    expect(facets.models).toEqual(expect.arrayContaining(["hostile/model", "model"]));
    expect({ ...facets, models: facets.models.filter((model) => !["hostile/model", "model"].includes(model)) }).toEqual(expected);
  });

  it("links every other file into its family as a library without them does; a hostile fork is linked to its source", async () => {
    const library = await libraryFamilies(hostile, await findSessionFiles(hostile));
    const expected = await libraryFamilies(clean, await findSessionFiles(clean));
    const without = (info: ForkInfo | null) => info && { ...info, forks: info.forks.filter((fork) => !isHostile(fork)) };
    for (const file of expected.files.keys()) expect(without(await forkInfo(library, file))).toEqual(await forkInfo(expected, file));
    const source = `${SOURCE}/${sourceFile}`;
    expect((await forkInfo(library, source))!.forks).toEqual(expect.arrayContaining([`${HOSTILE}/deep.jsonl`, `${HOSTILE}/bytes.jsonl`]));
    for (const fork of ["deep", "bytes"]) {
      const info = (await forkInfo(library, `${HOSTILE}/${fork}.jsonl`))!;
      expect(info.source).toMatchObject({ file: source, by: "path", fromEntryId: null });
      expect(info.inherited.size).toBe(0);
    }
  });

  it("answers the routes: /api/search, /api/search/facets, /api/search/status, /api/usage, /api/sessions/family and /forks", async () => {
    process.env.PI_SESSIONS_DIR = hostile;
    process.env.PI_VIEWER_CACHE_DIR = path.join(root, "cache-routes");
    const ok = async (response: Promise<Response>) => {
      const answer = await response;
      expect(answer.status).toBe(200);
      return answer.json() as Promise<unknown>;
    };
    expect(
      ((await ok(searchResponse(new URLSearchParams("q=walrus&limit=500")))) as LibrarySearchHit[]).map((hit) => `${hit.file} ${hit.entryId}`).sort(),
    ).toEqual(WALRUS_HITS);
    for (const by of USAGE_GROUPINGS) expect(((await ok(usageResponse(new URLSearchParams({ by })))) as unknown[]).length).toBeGreaterThan(0);
    expect(await ok(searchFacetsResponse())).toMatchObject({ models: expect.arrayContaining(["hostile/model"]) });
    const status = (await ok(searchStatusResponse())) as { unreadable: UnreadableLine[] };
    expect(status.unreadable.filter((line) => isHostile(line.file))).toHaveLength(expectedProblems.length);
    expect(await ok(familyParamsResponse(new URLSearchParams({ path: `${HOSTILE}/deep.jsonl` })))).toMatchObject({
      source: { path: `${SOURCE}/${sourceFile}` },
    });
    expect(Object.keys((await ok(forkPointsResponse())) as object)).toEqual(expect.arrayContaining([`${HOSTILE}/deep.jsonl`, `${HOSTILE}/bytes.jsonl`]));
  });
});
