/**
 * Core benchmark (`npm run bench`): how fast lib/session reads and indexes a
 * session file, against plain JSON.parse and against pi's own SessionManager,
 * and how fast it builds the context at the deepest entry.
 *
 * For each size (10k and 100k entries by default) it writes a generated
 * session (bench/generate.ts) to os.tmpdir(), then measures in rounds: one
 * warm-up round, then BENCH_RUNS rounds; in each round every contender runs
 * once (order rotated per round) after a full GC; the median is reported.
 *
 *   JSON.parse baseline      text.split("\n"), JSON.parse of every non-empty
 *                            line, the values collected in an array — from the
 *                            string already in memory (file reading not included)
 *   ours (string)            new SessionParser(); push(text); end();
 *                            new Session(p); session.leafId — same string
 *   ours readSessionFile     lib/server/read-session.ts, what the app uses: the
 *                            file streamed in 1 MiB chunks (createReadStream),
 *                            TextDecoder per chunk, parser.push per chunk, Session
 *   ours 1 MiB sync          the same read with readSync into one reused 1 MiB
 *                            buffer, i.e. pi's own read loop (info)
 *   pi open                  SessionManager.open(file).getLeafId(); pi reads the
 *                            file itself (1 MiB readSync + StringDecoder, then
 *                            JSON.parse per line, then its byId/label index)
 *
 *   parseVsJsonParse = ours (string) ÷ JSON.parse baseline      (target ≤ 1.3)
 *   parseVsPi        = ours readSessionFile ÷ pi open           (target ≤ 1.0)
 *   contextDeepestMs = session.context(deepestId) — the first call on a
 *                      freshly parsed Session (cold memo)       (target ≤ 5 ms)
 *   llmDeepestMs     = modelView(session, deepestId): context, convertToLlm
 *                      and pi's token count, first call on another fresh
 *                      Session                                  (target ≤ 20 ms; warm ≤ 5 ms)
 *   compactionDeepestMs = session.compaction(deepestId): pi's prepareCompaction
 *                      there with its default settings, the first call on a
 *                      Session and again                        (target ≤ 20 ms)
 *
 * Each call is also timed a second time including one forced scavenge right
 * after it ("settled"): a run that ends just before the young generation fills
 * up leaves its survivors' copying to whoever runs next; the settled ratio shows
 * the comparison without that luck (it matters at 10k, hardly at 100k).
 *
 * Two clocks are read around every call: wall time (performance.now) and the
 * process's CPU time (user + system, process.cpuUsage: all threads, so GC
 * helper threads and the read thread pool count). The headline numbers and the
 * final JSON use BENCH_CLOCK: "cpu" (default: immune to other processes on a
 * shared machine) or "wall".
 *
 * Before timing, the answers are cross-checked (leaf, entry count, depth of the
 * deepest entry, context entries and messages there; on small files also the
 * schema check) between ours, pi and the generator; a mismatch is printed and
 * makes the exit code 1.
 *
 * Environment: BENCH_RUNS (5), BENCH_SIZES ("10000,100000"), BENCH_SEED (1),
 * BENCH_CLOCK ("cpu" | "wall"), BENCH_EXTRA=1 (also time readFileSync
 * variants), BENCH_KEEP=1 (keep the files), BENCH_DIR (write them there).
 * The last line of the output is one JSON object, for the largest size.
 */
import { closeSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { modelView, Session, SessionParser } from "../lib/session";
import { readSessionFile } from "../lib/server/read-session";
import { sessionChunks, type GenerateStats } from "./generate";

// ---------------------------------------------------------------- setup

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as (options?: { type: "minor" | "major" }) => void;

const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 5));
const SIZES = (process.env.BENCH_SIZES ?? "10000,100000").split(",").map(Number);
const SEED = Number(process.env.BENCH_SEED ?? 1);
const KEEP = process.env.BENCH_KEEP === "1";
const EXTRA = process.env.BENCH_EXTRA === "1";
type Clock = "wall" | "cpu";
const CLOCK: Clock = process.env.BENCH_CLOCK === "wall" ? "wall" : "cpu";
const CHUNK = 1 << 20;

/** The part of pi's SessionManager (0.84.1) used here. */
interface PiSessionManager {
  getLeafId(): string | null;
  branch(id: string): void;
  buildSessionContext(): { messages: unknown[] };
  buildContextEntries(): { id: string }[];
}
interface PiModule {
  SessionManager: { open(path: string, sessionDir?: string): PiSessionManager };
}

// the package root does not import on Node 20; the session manager module does
const PI_SESSION_MANAGER = resolve(process.cwd(), "node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js");

// ---------------------------------------------------------------- contenders

function jsonParseBaseline(text: string): unknown[] {
  const values: unknown[] = [];
  for (const line of text.split("\n")) if (line.length !== 0) values.push(JSON.parse(line));
  return values;
}

function ours(text: string): Session {
  const parser = new SessionParser();
  parser.push(text);
  parser.end();
  const session = new Session(parser);
  void session.leafId;
  return session;
}

function oursSyncChunks(file: string): Session {
  const parser = new SessionParser();
  const fd = openSync(file, "r");
  try {
    const buffer = Buffer.allocUnsafe(CHUNK);
    const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
    for (;;) {
      const n = readSync(fd, buffer, 0, CHUNK, null);
      if (n === 0) break;
      parser.push(decoder.decode(buffer.subarray(0, n), { stream: true }));
    }
    parser.push(decoder.decode());
  } finally {
    closeSync(fd);
  }
  const session = new Session(parser.end());
  void session.leafId;
  return session;
}

async function oursProduction(file: string): Promise<Session> {
  const session = await readSessionFile(file);
  void session.leafId;
  return session;
}

// ---------------------------------------------------------------- clocks and statistics

interface Sample {
  wall: number;
  cpu: number;
}

function now(): Sample {
  const u = process.cpuUsage();
  return { wall: performance.now(), cpu: (u.user + u.system) / 1000 };
}

function since(start: Sample, times = 1): Sample {
  const end = now();
  return { wall: (end.wall - start.wall) / times, cpu: (end.cpu - start.cpu) / times };
}

interface Stat {
  median: number;
  min: number;
  max: number;
}
type Timing = Record<Clock, Stat>;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function stat(xs: number[]): Stat {
  return { median: median(xs), min: Math.min(...xs), max: Math.max(...xs) };
}

function timing(samples: Sample[]): Timing {
  return { wall: stat(samples.map((s) => s.wall)), cpu: stat(samples.map((s) => s.cpu)) };
}

/** Results are kept here until the next timed call, so no work can be optimised away. */
let sink: unknown = null;
function releaseSink(): void {
  void sink;
  sink = null;
}

interface Contender {
  run: () => unknown;
  /** called untimed with the result; `timed`: not the warm-up round; `first`: the first round run */
  after?: (result: unknown, timed: boolean, first: boolean) => void;
}

/** Rounds of every contender in turn (order rotated per round), a full GC before each timed call. */
async function measure(
  contenders: Record<string, Contender>,
  runs: number,
  warmUp: boolean,
): Promise<{ plain: Record<string, Timing>; settled: Record<string, Timing> }> {
  const names = Object.keys(contenders);
  const samples: Record<string, Sample[]> = Object.fromEntries(names.map((n) => [n, []]));
  const settledSamples: Record<string, Sample[]> = Object.fromEntries(names.map((n) => [n, []]));
  const firstRound = warmUp ? 0 : 1;
  for (let round = firstRound; round <= runs; round++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + round) % names.length]!;
      const contender = contenders[name]!;
      releaseSink();
      gc();
      const start = now();
      sink = await contender.run();
      const dt = since(start);
      // the same call plus one scavenge: young objects still waiting to be copied are paid for here
      gc({ type: "minor" });
      const settled = since(start);
      if (round > 0) {
        samples[name]!.push(dt);
        settledSamples[name]!.push(settled);
      }
      contender.after?.(sink, round > 0, round === firstRound);
    }
  }
  releaseSink();
  gc();
  const all = (from: Record<string, Sample[]>) => Object.fromEntries(names.map((n) => [n, timing(from[n]!)]));
  return { plain: all(samples), settled: all(settledSamples) };
}

// ---------------------------------------------------------------- one size

interface SizeResult {
  label: string;
  stats: GenerateStats;
  genMs: number;
  t: Record<string, Timing>;
  settled: Record<string, Timing>;
  contextCold: Timing;
  contextWarm: Timing;
  llmCold: Timing;
  llmWarm: Timing;
  compactionAt: Timing;
  compactionAgain: Timing;
  piContext: Timing;
  contextMessages: number;
  contextEntries: number;
  checks: string[];
}

const BASELINE = "JSON.parse baseline (string)";
const OURS = "ours parse+index (string)";
const PRODUCTION = "ours readSessionFile (1 MiB stream)";
const SYNC = "ours 1 MiB readSync + parse+index";
const PI = "pi SessionManager.open";

function writeSession(file: string, entries: number): { stats: GenerateStats; ms: number } {
  const t0 = performance.now();
  let stats!: GenerateStats;
  const fd = openSync(file, "w");
  try {
    for (const chunk of sessionChunks({ entries, seed: SEED }, (s) => (stats = s))) writeSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
  return { stats, ms: performance.now() - t0 };
}

/** Our answers against the generator's and pi's (untimed). */
function crossCheck(session: Session, sm: PiSessionManager, stats: GenerateStats): string[] {
  const checks: string[] = [];
  const deepestId = stats.deepestId!;
  if (session.leafId !== stats.leafId) checks.push(`leaf: ours ${session.leafId}, generator ${stats.leafId}`);
  if (sm.getLeafId() !== stats.leafId) checks.push(`leaf: pi ${sm.getLeafId()}, generator ${stats.leafId}`);
  if (session.tree.size !== stats.entries) checks.push(`entries: ours ${session.tree.size}, generator ${stats.entries}`);
  const problems = session.parser.diagnostics.filter((d) => d.severity !== "info");
  if (problems.length)
    checks.push(
      `parser diagnostics: ${problems
        .slice(0, 3)
        .map((d) => `line ${d.line}: ${d.message}`)
        .join(" | ")}`,
    );
  // the file should look exactly like what pi writes (the schema check is slow: smaller files only)
  if (stats.entries <= 20_000) {
    const schema = session.schemaDiagnostics();
    if (schema.length) checks.push(`schema: ${schema.length} entries differ from pi's shapes, e.g. line ${schema[0]!.line}: ${schema[0]!.message}`);
  }
  const fresh = new Session(session.parser);
  const ctx = fresh.context(deepestId);
  const depth = fresh.pathSummary(deepestId).depth;
  if (depth !== stats.deepestDepth) checks.push(`deepest depth: ours ${depth}, generator ${stats.deepestDepth}`);
  sm.branch(deepestId);
  const piIds = sm.buildContextEntries().map((e) => e.id);
  const piMessages = sm.buildSessionContext().messages.length;
  if (piIds.join() !== ctx.entryIds.join()) checks.push(`context entries at deepest: ours ${ctx.entryIds.length}, pi ${piIds.length}`);
  if (piMessages !== ctx.messages.length) checks.push(`context messages at deepest: ours ${ctx.messages.length}, pi ${piMessages}`);
  return checks;
}

async function runSize(dir: string, entries: number, pi: PiModule, warmUp: boolean): Promise<SizeResult> {
  const label = entries >= 1000 ? `${entries / 1000}k` : String(entries);
  const file = join(dir, `bench-${label}-seed${SEED}.jsonl`);
  const { stats, ms: genMs } = writeSession(file, entries);
  process.stderr.write(`[bench] ${label}: generated ${fmtBytes(stats.bytes)} in ${(genMs / 1000).toFixed(1)} s; measuring…\n`);

  const text = readFileSync(file, "utf8");
  const deepestId = stats.deepestId!;
  let checks: string[] = [];
  // the first round's results of ours and pi are cross-checked, whichever comes first
  let checkSession: Session | null = null;
  let checkPi: PiSessionManager | null = null;
  const maybeCheck = () => {
    if (!checkSession || !checkPi) return;
    checks = crossCheck(checkSession, checkPi, stats);
    checkSession = null;
    checkPi = null;
  };
  const cold: Sample[] = [];
  const warm: Sample[] = [];
  const llmCold: Sample[] = [];
  const llmWarm: Sample[] = [];
  const compactionAt: Sample[] = [];
  const compactionAgain: Sample[] = [];
  const piCtx: Sample[] = [];
  let contextMessages = 0;
  let contextEntries = 0;

  const contenders: Record<string, Contender> = {
    [BASELINE]: { run: () => jsonParseBaseline(text) },
    [OURS]: {
      run: () => ours(text),
      // context at the deepest entry on this fresh Session: cold = first call (empty memo), warm = later calls
      after: (result, timed, first) => {
        const session = result as Session;
        gc();
        const start = now();
        const ctx = session.context(deepestId);
        const coldCall = since(start);
        contextMessages = ctx.messages.length;
        contextEntries = ctx.entryIds.length;
        const repeat = 20;
        const again = now();
        for (let i = 0; i < repeat; i++) session.context(deepestId);
        const later = since(again, repeat);
        if (timed) {
          cold.push(coldCall);
          warm.push(later);
          // what the model is sent there, on a Session of its own (its context memo empty too)
          const other = ours(text) as Session;
          gc();
          const llmStart = now();
          modelView(other, deepestId);
          llmCold.push(since(llmStart));
          const llmAgain = now();
          for (let i = 0; i < repeat; i++) modelView(other, deepestId);
          llmWarm.push(since(llmAgain, repeat));
          const compactionStart = now();
          other.compaction(deepestId);
          compactionAt.push(since(compactionStart));
          const compactionNext = now();
          other.compaction(deepestId);
          compactionAgain.push(since(compactionNext));
        }
        // cross-check only after timing: it fills the memo of this tree
        if (first) {
          checkSession = session;
          maybeCheck();
        }
      },
    },
    [PRODUCTION]: { run: () => oursProduction(file) },
    [PI]: {
      run: () => {
        const sm = pi.SessionManager.open(file, dir);
        void sm.getLeafId();
        return sm;
      },
      // reference: pi's own context at the deepest entry (it walks the whole path every time)
      after: (result, timed, first) => {
        const sm = result as PiSessionManager;
        if (first) {
          checkPi = sm;
          maybeCheck();
        }
        sm.branch(deepestId);
        gc();
        const start = now();
        sm.buildSessionContext();
        if (timed) piCtx.push(since(start));
      },
    },
  };
  if (EXTRA) {
    contenders[SYNC] = { run: () => oursSyncChunks(file) };
    contenders["ours readFileSync + parse+index"] = { run: () => ours(readFileSync(file, "utf8")) };
    contenders["readFileSync only"] = { run: () => readFileSync(file, "utf8").length };
  }
  const { plain: t, settled } = await measure(contenders, RUNS, warmUp);

  if (!KEEP) rmSync(file, { force: true });
  return {
    label,
    stats,
    genMs,
    t,
    settled,
    contextCold: timing(cold),
    contextWarm: timing(warm),
    llmCold: timing(llmCold),
    llmWarm: timing(llmWarm),
    compactionAt: timing(compactionAt),
    compactionAgain: timing(compactionAgain),
    piContext: timing(piCtx),
    contextMessages,
    contextEntries,
    checks,
  };
}

// ---------------------------------------------------------------- output

function fmtBytes(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)} MB` : `${(n / 1e3).toFixed(1)} kB`;
}

function num(x: number): string {
  return x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2);
}

function fmtStat(s: Stat): string {
  return `${num(s.median)} [${num(s.min)}–${num(s.max)}]`;
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows.map((r) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join("   ")).join("\n");
}

function ratios(r: SizeResult, clock: Clock) {
  const m = (name: string) => r.t[name]![clock].median;
  return {
    parseVsJsonParse: m(OURS) / m(BASELINE),
    settledVsJsonParse: r.settled[OURS]![clock].median / r.settled[BASELINE]![clock].median,
    parseVsPi: m(PRODUCTION) / m(PI),
    syncVsPi: r.t[SYNC] ? m(SYNC) / m(PI) : NaN,
    contextDeepestMs: r.contextCold[clock].median,
    llmDeepestMs: r.llmCold[clock].median,
    llmDeepestWarmMs: r.llmWarm[clock].median,
    compactionDeepestMs: r.compactionAt[clock].median,
    compactionDeepestAgainMs: r.compactionAgain[clock].median,
  };
}

function report(results: SizeResult[]): string {
  const out: string[] = [];
  const other: Clock = CLOCK === "cpu" ? "wall" : "cpu";
  out.push(`Core benchmark — node ${process.version}; ${RUNS} runs per measurement after 1 warm-up; median [min–max] in ms; full GC before each timed call.`);
  out.push(
    `Headline clock: ${CLOCK === "cpu" ? "process CPU time (user+system, all threads)" : "wall time"} (BENCH_CLOCK=${CLOCK}); ${other} time shown alongside.`,
  );
  out.push("");
  out.push(
    table([
      ["session", ...results.map((r) => r.label)],
      ["entries", ...results.map((r) => r.stats.entries.toLocaleString("en-US"))],
      ["bytes", ...results.map((r) => `${r.stats.bytes.toLocaleString("en-US")} (${fmtBytes(r.stats.bytes)})`)],
      ["deepest path (entries, root to deepest)", ...results.map((r) => r.stats.deepestDepth.toLocaleString("en-US"))],
      ["side branches (entries in them)", ...results.map((r) => `${r.stats.sideBranches} (${r.stats.sideBranchEntries})`)],
      ["compactions", ...results.map((r) => String(r.stats.compactions))],
      ["context at deepest: entries / messages", ...results.map((r) => `${r.contextEntries} / ${r.contextMessages}`)],
      ["generated and written in", ...results.map((r) => `${(r.genMs / 1000).toFixed(1)} s`)],
    ]),
  );
  out.push("");
  const rows: [string, (r: SizeResult) => Timing][] = [
    ...Object.keys(results[0]!.t).map((name): [string, (r: SizeResult) => Timing] => [name, (r) => r.t[name]!]),
    ["context at deepest, cold (fresh Session)", (r) => r.contextCold],
    ["context at deepest, warm (memo filled)", (r) => r.contextWarm],
    ["sent to model + tokens at deepest, cold (modelView)", (r) => r.llmCold],
    ["sent to model + tokens at deepest, warm", (r) => r.llmWarm],
    ["compaction preview at deepest, first call", (r) => r.compactionAt],
    ["compaction preview at deepest, again", (r) => r.compactionAgain],
    ["pi buildSessionContext at deepest (reference)", (r) => r.piContext],
  ];
  out.push(
    table([
      ["time, ms", ...results.flatMap((r) => [`${r.label} ${CLOCK}`, `${r.label} ${other}`])],
      ...rows.map(([name, get]) => [name, ...results.flatMap((r) => [fmtStat(get(r)[CLOCK]), num(get(r)[other].median)])]),
    ]),
  );
  out.push("");
  const verdict = (x: number, target: number) => `${x.toFixed(2)} ${x <= target ? "ok  " : "MISS"}`;
  const cell = (r: SizeResult, key: keyof ReturnType<typeof ratios>, target: number | null) => [
    target === null ? ratios(r, CLOCK)[key].toFixed(2) : verdict(ratios(r, CLOCK)[key], target),
    ratios(r, other)[key].toFixed(2),
  ];
  out.push(
    table([
      ["ratio", "target", ...results.flatMap((r) => [`${r.label} ${CLOCK}`, `${r.label} ${other}`])],
      ["ours (string) ÷ JSON.parse baseline", "≤ 1.3", ...results.flatMap((r) => cell(r, "parseVsJsonParse", 1.3))],
      ["  same, each incl. one settling scavenge (info)", "", ...results.flatMap((r) => cell(r, "settledVsJsonParse", null))],
      ["ours readSessionFile ÷ pi open", "≤ 1.0", ...results.flatMap((r) => cell(r, "parseVsPi", 1.0))],
      ...(EXTRA ? [["ours 1 MiB readSync ÷ pi open (info)", "", ...results.flatMap((r) => cell(r, "syncVsPi", null))]] : []),
      ["context at deepest, cold, ms", "≤ 5", ...results.flatMap((r) => cell(r, "contextDeepestMs", 5))],
      ["sent to model + tokens at deepest, cold, ms", "≤ 20", ...results.flatMap((r) => cell(r, "llmDeepestMs", 20))],
      ["compaction preview at deepest, first call, ms", "≤ 20", ...results.flatMap((r) => cell(r, "compactionDeepestMs", 20))],
      ["sent to model + tokens at deepest, warm, ms", "≤ 5", ...results.flatMap((r) => cell(r, "llmDeepestWarmMs", 5))],
    ]),
  );
  out.push("");
  const failed = results.flatMap((r) => r.checks.map((c) => `${r.label}: ${c}`));
  out.push(
    failed.length
      ? `CHECKS FAILED (ours vs pi vs generator):\n  ${failed.join("\n  ")}`
      : "checks: leaf, entry count, deepest depth, context entries and messages at the deepest entry agree (ours = pi = generator); no parser or schema diagnostics",
  );
  return out.join("\n");
}

async function main(): Promise<void> {
  const started = performance.now();
  const pi = (await import(pathToFileURL(PI_SESSION_MANAGER).href)) as PiModule;
  const dir = process.env.BENCH_DIR ?? mkdtempSync(join(tmpdir(), "pi-viewer-bench-"));
  const results: SizeResult[] = [];
  try {
    // the first size warms the code up; later sizes skip the warm-up round (it would only cost time)
    for (const n of SIZES) results.push(await runSize(dir, n, pi, results.length === 0));
  } finally {
    if (!KEEP && !process.env.BENCH_DIR) rmSync(dir, { recursive: true, force: true });
  }
  console.log(report(results));
  console.log(`total bench time ${((performance.now() - started) / 1000).toFixed(0)} s`);

  const last = results[results.length - 1]!;
  const r = ratios(last, CLOCK);
  const round = (x: number) => Math.round(x * 1000) / 1000;
  console.log(
    JSON.stringify({
      parseVsJsonParse: round(r.parseVsJsonParse),
      parseVsPi: round(r.parseVsPi),
      contextDeepestMs: round(r.contextDeepestMs),
      llmDeepestMs: round(r.llmDeepestMs),
      llmDeepestWarmMs: round(r.llmDeepestWarmMs),
      compactionDeepestMs: round(r.compactionDeepestMs),
      compactionDeepestAgainMs: round(r.compactionDeepestAgainMs),
      entries: last.stats.entries,
      bytes: last.stats.bytes,
    }),
  );
  if (results.some((x) => x.checks.length)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
