// The archive served: what `npm run bench:archive` measures of a server reading the archive (PI_VIEWER_DATABASE_URL),
// asked through the routes' own functions in this process, as a request reaches them (every figure includes what a
// request does first: the library listed from the archive, the index opened).
//
//   list            GET /api/sessions: every session described from the archive's bytes (summaries made, then kept)
//   queries         the 50 mixed searches of bench:library through GET /api/search (limit 50)   (target p95 ≤ 100 ms)
//   usage           GET /api/usage by day and by session, median of 5              (targets ≤ 300 ms, ≤ 1 s)
//   searchable      1,000 entries appended to the largest session, pushed as --watch pushes a file, then searched
//                   through GET /api/search until its last entry is a hit                      (target ≤ 2 s)
import { mkdtempSync, readFileSync, statSync, truncateSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type pg from "pg";
import { entrySearchText, searchWords } from "../lib/library/library-search";
import type { LibrarySearchHit } from "../lib/library/search-api";
import type { SessionEntry } from "../lib/session/types";
import { pushLibrary } from "../lib/server/archive/push-library";
import { closeServedArchive } from "../lib/server/archive/served-archive";
import type { SearchFilters } from "../lib/server/library-index/library-index";
import { loadLibrary } from "../lib/server/library";
import { searchResponse } from "../lib/server/serve-search";
import { usageResponse } from "../lib/server/serve-usage";
import { mixedQueries, percentile } from "./bench-library";
import { appendEntries, type LibraryStats } from "./generate-library";

export interface ServingFigures {
  listFirstMs: number;
  listAgainMs: number;
  queryP50Ms: number;
  queryP95Ms: number;
  queryMaxMs: number;
  usageByDayMs: number;
  usageBySessionMs: number;
  appendPushMs: number;
  appendSearchableMs: number;
}

export interface ServingOptions {
  /** the archive's URL and an open pool to it */
  url: string;
  pool: pg.Pool;
  /** the library pushed, and the machine it was pushed as */
  dir: string;
  stats: LibraryStats;
  machine: string;
  machineId: number;
  seed: number;
  /** false: no entries appended (a second round on the same archive) */
  append?: boolean;
}

const LIMIT = 50;

/** A search's filters as GET /api/search takes them. */
function searchQuery(q: string, filters: SearchFilters, limit: number): URLSearchParams {
  const params = new URLSearchParams({ q, limit: String(limit) });
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  if (filters.from !== undefined) params.set("since", day(filters.from));
  if (filters.to !== undefined) params.set("until", day(filters.to));
  for (const key of ["project", "role", "tool", "model"] as const) if (filters[key] !== undefined) params.set(key, filters[key]);
  if (filters.activeOnly) params.set("active", "1");
  return params;
}

async function ok(response: Response): Promise<Response> {
  if (response.status !== 200) throw new Error(`${response.status}: ${await response.text()}`);
  return response;
}

const median = (runs: number[]) =>
  percentile(
    [...runs].sort((a, b) => a - b),
    0.5,
  );

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

export async function measureServing(options: ServingOptions): Promise<ServingFigures> {
  const saved = { url: process.env.PI_VIEWER_DATABASE_URL, cache: process.env.PI_VIEWER_CACHE_DIR };
  process.env.PI_VIEWER_DATABASE_URL = options.url;
  process.env.PI_VIEWER_CACHE_DIR = mkdtempSync(path.join(tmpdir(), "pi-archive-serving-"));
  try {
    const first = await timed(() => loadLibrary());
    if (first.value.source !== "archive" || first.value.sessions.length !== options.stats.sessions)
      throw new Error(`the served library is not the archive's ${options.stats.sessions} sessions: ${first.value.source}, ${first.value.sessions.length}`);
    const again = await timed(() => loadLibrary());
    console.log(`  list: first ${first.ms.toFixed(0)} ms (every summary read from the archive), again ${again.ms.toFixed(1)} ms`);

    const times: number[] = [];
    for (const query of mixedQueries(options.dir, options.stats, options.seed)) {
      const { ms, value } = await timed(async () => (await ok(await searchResponse(searchQuery(query.q, query.filters, LIMIT)))).json() as Promise<unknown[]>);
      times.push(ms);
      console.log(`  ${ms.toFixed(1).padStart(7)} ms  ${query.kind.padEnd(26)} ${query.q.slice(0, 60).padEnd(60)} ${value.length} hits`);
    }
    const sorted = times.sort((a, b) => a - b);

    const usage = async (by: string) => {
      const runs: number[] = [];
      for (let i = 0; i < 5; i++) runs.push((await timed(async () => (await ok(await usageResponse(new URLSearchParams({ by })))).json())).ms);
      return median(runs);
    };
    const usageByDayMs = await usage("day");
    const usageBySessionMs = await usage("session");

    const { pushMs: appendPushMs, searchableMs: appendSearchableMs } =
      options.append === false ? { pushMs: NaN, searchableMs: NaN } : await searchableAfterAppend(options);
    return {
      listFirstMs: first.ms,
      listAgainMs: again.ms,
      queryP50Ms: percentile(sorted, 0.5),
      queryP95Ms: percentile(sorted, 0.95),
      queryMaxMs: sorted.at(-1)!,
      usageByDayMs,
      usageBySessionMs,
      appendPushMs,
      appendSearchableMs,
    };
  } finally {
    await closeServedArchive();
    process.env.PI_VIEWER_DATABASE_URL = saved.url;
    process.env.PI_VIEWER_CACHE_DIR = saved.cache;
    if (saved.url === undefined) delete process.env.PI_VIEWER_DATABASE_URL;
    if (saved.cache === undefined) delete process.env.PI_VIEWER_CACHE_DIR;
  }
}

/**
 * 1,000 entries appended to the largest session, then: the file pushed alone (as --watch pushes it), and searches
 * for the last entry's longest word until it is a hit. The file is cut back afterwards (the archive keeps the grown
 * one): measure this before anything else appends to that file.
 */
async function searchableAfterAppend({ pool, dir, stats, machine, machineId, seed }: ServingOptions): Promise<{ pushMs: number; searchableMs: number }> {
  const grown = path.join(dir, stats.largest);
  const size = statSync(grown).size;
  try {
    const lastId = appendEntries(grown, 1000, seed + 1);
    const lines = readFileSync(grown, "utf8").trimEnd().split("\n");
    const last = lines.map((line) => JSON.parse(line) as SessionEntry).find((entry) => entry.id === lastId)!;
    const word = searchWords(entrySearchText(last)).sort((a, b) => b.length - a.length)[0]!;
    const started = performance.now();
    const report = await pushLibrary(pool, dir, { machine, machineId, only: new Set([stats.largest]) });
    const pushMs = performance.now() - started;
    if (report.counts.grown !== 1) throw new Error(`the grown session was not pushed as grown: ${JSON.stringify(report.counts)}`);
    for (;;) {
      const hits = (await (await ok(await searchResponse(new URLSearchParams({ q: word, limit: "500" })))).json()) as LibrarySearchHit[];
      if (hits.some((hit) => hit.entryId === lastId)) break;
      if (performance.now() - started > 60_000) throw new Error(`the appended entry ${lastId} was not found by "${word}" within a minute`);
    }
    const searchableMs = performance.now() - started;
    console.log(`  +1,000 entries to ${stats.largest}: pushed in ${pushMs.toFixed(0)} ms, found by "${word}" after ${searchableMs.toFixed(0)} ms`);
    return { pushMs, searchableMs };
  } finally {
    truncateSync(grown, size);
  }
}
