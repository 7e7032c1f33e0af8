/**
 * Archive benchmark (`npm run bench:archive`): pushing a generated library (bench/generate-library.ts, as the library
 * bench makes it) into a PostgreSQL on this machine, started for the run (scripts/test-postgres.cjs) with its
 * durability settings left on, as a real server keeps them.
 *
 *   first push     every session of the library, from an empty archive, in a child process (what
 *                  `pi-session-viewer push` does): wall time and the child's peak RSS     (targets ≤ 120 s, ≤ 500 MB)
 *   second push    nothing changed: what a push that finds nothing to send costs (stat pass included)
 *   served         the archive as a server reads it (bench/archive-serving.ts): the library listed, 50 mixed
 *                  queries (p95 ≤ 100 ms), usage by day and by session (≤ 300 ms, ≤ 1 s), and 1,000 entries appended
 *                  to the largest session, pushed as --watch sends it, until searchable (≤ 2 s)
 *   listed again   the library listed by another server (a child process) after the first kept its summaries
 *   opened         a 100k-entry session opened in Chromium from the archive and from a directory
 *                  (bench/archive-open.ts; archive ≤ 1.5× directory)
 *
 * Environment: BENCH_SESSIONS (1000), BENCH_SIZE_MB (1000), BENCH_SEED (1), BENCH_DIR (the library is kept there
 * and used again, as by bench:library), BENCH_ARCHIVE_URL (push into this database instead of a server of the
 * run's own: it must be empty), BENCH_OPEN=0 (no browser), BENCH_OPEN_ENTRIES (100000). The last line of the
 * output is one JSON object.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { machineId, openArchive } from "../lib/server/archive/open-archive";
import { pushLibrary, type PushReport } from "../lib/server/archive/push-library";
import { closeServedArchive } from "../lib/server/archive/served-archive";
import { loadLibrary } from "../lib/server/library";
import { startPostgres } from "../scripts/test-postgres.cjs";
import { benchChild, benchLibrary, benchLibrarySettings } from "./bench-library";
import { measureArchiveOpen, type OpenFigures } from "./archive-open";
import { measureServing } from "./archive-serving";

const SETTINGS = benchLibrarySettings();
const SEED = SETTINGS.seed;
const MACHINE = "bench";

interface ChildResult {
  ms: number;
  maxRssMB: number;
  report: PushReport;
}

/** The child: a push of the whole library, as the command makes it. */
async function pushChild(dir: string, url: string): Promise<void> {
  const started = performance.now();
  const archive = await openArchive(url);
  let last = 0;
  const report = await pushLibrary(archive.pool, dir, {
    machine: MACHINE,
    machineId: await machineId(archive.pool, MACHINE),
    onProgress: (p) => {
      const now = performance.now();
      if (now - last < 5000 && p.filesDone < p.files) return;
      last = now;
      process.stderr.write(
        `  ${p.filesDone}/${p.files} files, ${(p.bytesDone / 1e6).toFixed(0)} MB, ${((now - started) / 1000).toFixed(1)} s, rss ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB\n`,
      );
    },
  });
  await archive.close();
  const result: ChildResult = { ms: performance.now() - started, maxRssMB: process.resourceUsage().maxRSS / 1024, report };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

/** A server started after the archive was listed once: its first listing, the summaries kept in the archive taken. */
async function listChild(url: string): Promise<void> {
  process.env.PI_VIEWER_DATABASE_URL = url;
  process.env.PI_VIEWER_CACHE_DIR = mkdtempSync(path.join(tmpdir(), "pi-archive-list-"));
  const started = performance.now();
  const { sessions } = await loadLibrary();
  const ms = performance.now() - started;
  await closeServedArchive();
  rmSync(process.env.PI_VIEWER_CACHE_DIR, { recursive: true, force: true });
  process.stdout.write(`${JSON.stringify({ ms, sessions: sessions.length })}\n`);
}

function runChild(dir: string, url: string): Promise<ChildResult> {
  return benchChild<ChildResult>(__filename, "--push-child", [dir, url]);
}

async function main(): Promise<void> {
  const root = process.env.BENCH_DIR ? path.resolve(process.env.BENCH_DIR) : mkdtempSync(path.join(tmpdir(), "pi-archive-bench-"));
  mkdirSync(root, { recursive: true });
  const { dir, stats } = benchLibrary(root, SETTINGS);
  console.log(`${stats.sessions} sessions, ${stats.entries.toLocaleString("en-US")} entries, ${(stats.bytes / 1e6).toFixed(0)} MB`);
  const server = process.env.BENCH_ARCHIVE_URL ? null : await startPostgres({ settings: { fsync: "on", synchronous_commit: "on", full_page_writes: "on" } });
  const url = process.env.BENCH_ARCHIVE_URL ?? server!.url;
  try {
    console.log("first push (child process):");
    const first = await runChild(dir, url);
    console.log(`  ${(first.ms / 1000).toFixed(1)} s, peak RSS ${first.maxRssMB.toFixed(0)} MB, ${first.report.lines.toLocaleString("en-US")} lines`);

    const archive = await openArchive(url);
    const id = await machineId(archive.pool, MACHINE);
    const started = performance.now();
    const again = await pushLibrary(archive.pool, dir, { machine: MACHINE, machineId: id });
    const secondMs = performance.now() - started;
    if (again.counts.unchanged !== stats.sessions) throw new Error(`a second push found changes: ${JSON.stringify(again.counts)}`);

    const dbBytes = Number((await archive.pool.query<{ size: string }>("select pg_database_size(current_database()) as size")).rows[0]!.size);
    console.log("served from the archive (the routes, in this process):");
    const serving = await measureServing({ url, pool: archive.pool, dir, stats, machine: MACHINE, machineId: id, seed: SEED });
    const other = await benchChild<{ ms: number; sessions: number }>(__filename, "--list-child", [url]);
    if (other.sessions !== stats.sessions) throw new Error(`another server listed ${other.sessions} sessions, not ${stats.sessions}`);
    console.log(`  list by another server: ${other.ms.toFixed(0)} ms (the summaries the first kept)`);
    let open: OpenFigures | null = null;
    if (process.env.BENCH_OPEN !== "0") {
      console.log("a big session opened from the directory and from the archive (Chromium):");
      open = await measureArchiveOpen(root, url, archive.pool, (name) => machineId(archive.pool, name));
    }
    await archive.close();

    const summary = {
      sessions: stats.sessions,
      libraryMB: Math.round(stats.bytes / 1e6),
      firstPushS: Number((first.ms / 1000).toFixed(1)),
      firstPushRssMB: Math.round(first.maxRssMB),
      secondPushMs: Number(secondMs.toFixed(1)),
      append1000PushMs: Number(serving.appendPushMs.toFixed(1)),
      append1000SearchableMs: Number(serving.appendSearchableMs.toFixed(1)),
      databaseMB: Math.round(dbBytes / 1e6),
      listFirstMs: Math.round(serving.listFirstMs),
      listAgainMs: Number(serving.listAgainMs.toFixed(1)),
      listOtherServerMs: Math.round(other.ms),
      queryP50Ms: Number(serving.queryP50Ms.toFixed(1)),
      queryP95Ms: Number(serving.queryP95Ms.toFixed(1)),
      queryMaxMs: Number(serving.queryMaxMs.toFixed(1)),
      usageByDayMs: Number(serving.usageByDayMs.toFixed(1)),
      usageBySessionMs: Number(serving.usageBySessionMs.toFixed(1)),
      openEntries: open?.entries ?? null,
      openDirectoryMs: open ? Math.round(open.directory.firstMs) : null,
      openArchiveMs: open ? Math.round(open.archive.firstMs) : null,
      reopenDirectoryMs: open ? Math.round(open.directory.reopenMs) : null,
      reopenArchiveMs: open ? Math.round(open.archive.reopenMs) : null,
    };
    const ms = (n: number) => `${n} ms`;
    const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
    const rows: [string, string, string][] = [
      ["first push", `${summary.firstPushS} s, peak RSS ${summary.firstPushRssMB} MB`, "≤ 120 s, ≤ 500 MB"],
      ["second push (nothing changed)", `${summary.secondPushMs} ms`, "(info)"],
      ["+1,000 entries → searchable through the server", `${ms(summary.append1000SearchableMs)} (pushed in ${ms(summary.append1000PushMs)})`, "≤ 2 s"],
      [
        "50 mixed queries through the server, p50 / p95 / max",
        `${ms(summary.queryP50Ms)} / ${ms(summary.queryP95Ms)} / ${ms(summary.queryMaxMs)}`,
        "p95 ≤ 100 ms",
      ],
      ["usage by day / by session", `${ms(summary.usageByDayMs)} / ${ms(summary.usageBySessionMs)}`, "≤ 300 ms / ≤ 1 s"],
      [
        "the library listed, first / again / by another server",
        `${ms(summary.listFirstMs)} / ${ms(summary.listAgainMs)} / ${ms(summary.listOtherServerMs)}`,
        "(info)",
      ],
      ...(open
        ? ([
            [
              `${open.entries.toLocaleString("en-US")}-entry session opened, directory → archive`,
              `${ms(summary.openDirectoryMs!)} → ${ms(summary.openArchiveMs!)} (${ratio(open.archive.firstMs, open.directory.firstMs)})`,
              "≤ 1.5×",
            ],
            [
              "… opened again (index kept), directory → archive",
              `${ms(summary.reopenDirectoryMs!)} → ${ms(summary.reopenArchiveMs!)} (${ratio(open.archive.reopenMs, open.directory.reopenMs)})`,
              "(info)",
            ],
          ] as [string, string, string][])
        : []),
      ["database", `${summary.databaseMB} MB for a ${summary.libraryMB} MB library`, ""],
    ];
    const width = Math.max(...rows.map((row) => row[0].length));
    const width2 = Math.max(...rows.map((row) => row[1].length));
    console.log();
    for (const [name, value, target] of rows) console.log(`${name.padEnd(width)}  ${value.padEnd(width2)}  ${target}`);
    console.log(JSON.stringify(summary));
  } finally {
    await server?.stop();
    if (!process.env.BENCH_DIR && !process.env.BENCH_KEEP) rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[2] === "--push-child") {
  pushChild(process.argv[3]!, process.argv[4]!).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
} else if (process.argv[2] === "--list-child") {
  listChild(process.argv[3]!).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
} else {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
