/**
 * Library search benchmark (`npm run bench:library`): the library index (lib/server/library-index/) on a generated
 * library (bench/generate-library.ts) of BENCH_SESSIONS sessions, about BENCH_SIZE_MB megabytes.
 *
 *   full index     a first index, from no index file, in a child process (what a server does on its first
 *                  search: searchLibrary with the directory's files); wall time, the child's peak RSS
 *                  (process.resourceUsage().maxRSS) and its progress as it goes    (targets ≤ 60 s, ≤ 1 GB)
 *   re-index       the largest session grows by 1,000 entries (its leaf moves); the next searchLibrary call,
 *                  which reads what was appended, stat pass and query included        (target ≤ 1 s)
 *   queries        50 mixed queries through searchLibrary, as the server asks them (the update's stat pass over
 *                  every file included; limit 50): common and rare words, short and long prefixes, phrases,
 *                  two terms, and filters by project, role, tool, model, dates and the active path; p50, p95
 *                  and max                                                            (target p95 ≤ 100 ms)
 *   usage          the library's usage by day, then by session (libraryUsage: the sums the index keeps, stat
 *                  pass included; by session adds every session's name and branch split), median of 5
 *                                                                               (target by day ≤ 300 ms)
 *
 * The words queried are drawn from the library itself (the sessions of one project read and counted), so
 * "common" and "rare" are what the index holds. Listing the directory (findSessionFiles, which the server does
 * per request too) is timed apart, as "list".
 *
 * Environment: BENCH_SESSIONS (1000), BENCH_SIZE_MB (1000), BENCH_SEED (1), BENCH_DIR (the library and the index
 * are kept there; a library already there with the same settings is used again), BENCH_KEEP=1 (keep the temp
 * directory), BENCH_REUSE_INDEX=1 (keep the index BENCH_DIR holds: the query timings alone). The grown session is
 * cut back to its size afterwards. The last line of the output is one JSON object.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, truncateSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { searchLibrary } from "../lib/server/library-search";
import { libraryUsage } from "../lib/server/library-usage";
import { findSessionFiles } from "../lib/server/list-sessions";
import { appendEntries } from "./generate-library";
import { benchChild, benchLibrary, benchLibrarySettings, mixedQueries, percentile } from "./bench-library";

const SETTINGS = benchLibrarySettings();
const SEED = SETTINGS.seed;
const LIMIT = 50;

interface ChildResult {
  ms: number;
  maxRssMB: number;
  indexed: number;
  entries: number;
  indexBytes: number;
}

/** The child: a first index of the library, as searchLibrary makes it. */
async function indexChild(library: string, cacheRoot: string): Promise<void> {
  const started = performance.now();
  const files = await findSessionFiles(library);
  let last = 0;
  const { report } = await searchLibrary(
    library,
    files,
    "benchmark",
    {},
    {
      cacheRoot,
      onProgress: ({ done, total }) => {
        const now = performance.now();
        if (now - last > 2000 || done === total) {
          last = now;
          process.stderr.write(
            `  progress ${done}/${total} sessions, ${((now - started) / 1000).toFixed(1)} s, rss ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB\n`,
          );
        }
      },
    },
  );
  const ms = performance.now() - started;
  const indexBytes = readdirSync(path.join(cacheRoot, "search"))
    .filter((name) => name.endsWith(".sqlite"))
    .reduce((sum, name) => sum + statSync(path.join(cacheRoot, "search", name)).size, 0);
  const result: ChildResult = { ms, maxRssMB: process.resourceUsage().maxRSS / 1024, indexed: report.indexed, entries: report.entries, indexBytes };
  process.stdout.write(JSON.stringify(result) + "\n");
}

function runChild(library: string, cacheRoot: string): Promise<ChildResult> {
  return benchChild<ChildResult>(__filename, "--index-child", [library, cacheRoot]);
}

const ms = (n: number) => `${n.toFixed(1)} ms`;

async function main(): Promise<void> {
  const root = process.env.BENCH_DIR ? path.resolve(process.env.BENCH_DIR) : mkdtempSync(path.join(tmpdir(), "pi-library-bench-"));
  mkdirSync(root, { recursive: true });
  const { dir, stats } = benchLibrary(root, SETTINGS);
  const cacheRoot = path.join(root, "cache");
  console.log(`${stats.sessions} sessions (${stats.forks} forks), ${stats.entries.toLocaleString("en-US")} entries, ${(stats.bytes / 1e6).toFixed(0)} MB`);

  let full: ChildResult = { ms: NaN, maxRssMB: NaN, indexed: 0, entries: 0, indexBytes: NaN };
  if (process.env.BENCH_REUSE_INDEX && existsSync(cacheRoot)) console.log("full index: skipped (BENCH_REUSE_INDEX)");
  else {
    rmSync(cacheRoot, { recursive: true, force: true });
    console.log("full index (child process):");
    full = await runChild(dir, cacheRoot);
    console.log(`  ${(full.ms / 1000).toFixed(1)} s, peak RSS ${full.maxRssMB.toFixed(0)} MB, index file ${(full.indexBytes / 1e6).toFixed(0)} MB`);
  }

  let listed = await findSessionFiles(dir);
  // this process's first search: loads SQLite, finds nothing to read
  const firstStart = performance.now();
  await searchLibrary(dir, listed, "warm", {}, { cacheRoot, limit: LIMIT });
  const firstSearchMs = performance.now() - firstStart;

  const grown = path.join(dir, stats.largest);
  const size = statSync(grown).size;
  let reindex: { ms: number; indexed: number; entries: number };
  try {
    appendEntries(grown, 1000, SEED);
    listed = await findSessionFiles(dir);
    const started = performance.now();
    const { report } = await searchLibrary(dir, listed, "retry", {}, { cacheRoot, limit: LIMIT });
    reindex = { ms: performance.now() - started, indexed: report.indexed, entries: report.entries };
  } finally {
    truncateSync(grown, size);
  }
  console.log(
    `re-index after 1,000 entries appended to ${stats.largest} (${(size / 1e6).toFixed(0)} MB): ${ms(reindex.ms)} (${reindex.indexed} file, ${reindex.entries} entries)`,
  );
  // the truncated file is indexed whole again, outside the timings
  listed = await findSessionFiles(dir);
  await searchLibrary(dir, listed, "warm", {}, { cacheRoot, limit: LIMIT });

  const queries = mixedQueries(dir, stats, SEED);
  const times: number[] = [];
  const lists: number[] = [];
  console.log(`${queries.length} queries (limit ${LIMIT}):`);
  for (const query of queries) {
    const listStart = performance.now();
    listed = await findSessionFiles(dir);
    lists.push(performance.now() - listStart);
    const started = performance.now();
    const result = await searchLibrary(dir, listed, query.q, query.filters, { cacheRoot, limit: LIMIT });
    const took = performance.now() - started;
    times.push(took);
    const filters = Object.keys(query.filters).length ? ` ${JSON.stringify(query.filters)}` : "";
    console.log(
      `  ${took.toFixed(1).padStart(7)} ms  ${query.kind.padEnd(26)} ${`${query.q}${filters}`.slice(0, 90).padEnd(90)} ${result.total}${result.capped ? "+" : ""} hits`,
    );
  }
  const usageMs = async (by: "day" | "session") => {
    const runs: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      await libraryUsage(dir, await findSessionFiles(dir), by, null, { cacheRoot });
      runs.push(performance.now() - started);
    }
    return percentile(
      runs.sort((a, b) => a - b),
      0.5,
    );
  };
  const usageDayMs = await usageMs("day");
  const usageSessionMs = await usageMs("session");
  const sorted = [...times].sort((a, b) => a - b);
  const listSorted = [...lists].sort((a, b) => a - b);
  const summary = {
    sessions: stats.sessions,
    entries: stats.entries,
    libraryMB: Math.round(stats.bytes / 1e6),
    fullIndexS: Number((full.ms / 1000).toFixed(1)),
    fullIndexRssMB: Math.round(full.maxRssMB),
    indexMB: Math.round(full.indexBytes / 1e6),
    firstSearchMs: Number(firstSearchMs.toFixed(1)),
    reindexMs: Number(reindex.ms.toFixed(1)),
    queryP50Ms: Number(percentile(sorted, 0.5).toFixed(1)),
    queryP95Ms: Number(percentile(sorted, 0.95).toFixed(1)),
    queryMaxMs: Number(sorted.at(-1)!.toFixed(1)),
    listP50Ms: Number(percentile(listSorted, 0.5).toFixed(1)),
    usageByDayMs: Number(usageDayMs.toFixed(1)),
    usageBySessionMs: Number(usageSessionMs.toFixed(1)),
  };
  const rows: [string, string, string][] = [
    ["full index", `${summary.fullIndexS} s, peak RSS ${summary.fullIndexRssMB} MB`, "≤ 60 s, ≤ 1000 MB"],
    ["re-index (+1,000 entries)", ms(summary.reindexMs), "≤ 1000 ms"],
    ["query p50 / p95 / max", `${ms(summary.queryP50Ms)} / ${ms(summary.queryP95Ms)} / ${ms(summary.queryMaxMs)}`, "p95 ≤ 100 ms"],
    ["usage by day / by session", `${ms(summary.usageByDayMs)} / ${ms(summary.usageBySessionMs)}`, "by day ≤ 300 ms"],
    ["list the directory (p50)", ms(summary.listP50Ms), "(info)"],
    ["library", `${summary.libraryMB} MB, ${summary.sessions} sessions, ${summary.entries} entries; index ${summary.indexMB} MB`, ""],
  ];
  const width = Math.max(...rows.map((row) => row[0].length));
  const width2 = Math.max(...rows.map((row) => row[1].length));
  console.log();
  for (const [name, value, target] of rows) console.log(`${name.padEnd(width)}  ${value.padEnd(width2)}  ${target}`);
  if (!process.env.BENCH_DIR && !process.env.BENCH_KEEP) rmSync(root, { recursive: true, force: true });
  console.log(JSON.stringify(summary));
}

if (process.argv[2] === "--index-child") {
  indexChild(process.argv[3]!, process.argv[4]!).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
} else {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
