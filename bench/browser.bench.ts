/**
 * Browser benchmark (`npm run bench:browser`): the viewer on big sessions, in
 * headless Debian Chromium driven by Playwright, against pi's own HTML export of
 * the same files. Figures are printed, never asserted.
 *
 * For each size (10k and 100k entries by default, ≈ 10 MB and ≈ 100 MB) it
 * writes a generated session (bench/generate.ts: branches, compactions, labels,
 * a few multi-megabyte tool results and base64 images) to a temp dir, writes
 * pi 0.84.1's HTML export of it (its exportFromFile), and measures in one
 * browser:
 *
 *   loadMs            file chosen (the input's change event, as a drop) → graph
 *                     cards drawn and the main thread free: the end of the last
 *                     long task before 500 ms without one
 *   paintMs           … → first frame with graph cards (info)
 *   longestTaskMs     longest main-thread task during the load: how long the UI
 *                     could not answer input while the file was read
 *   reopenMs          the same file opened from the library by its link
 *                     (/view?file=…) a second time: navigation start → graph
 *                     interactive, as a user reopens a session later: once the
 *                     server has made the snapshot of its index (it builds one in
 *                     the background after the first open; the wait is shown)
 *   clickToContextMs  click on the Context tab with the deepest entry selected →
 *                     the first frame showing its messages with their content
 *                     (content read from the file on demand included)
 *   panFps            frames (requestAnimationFrame) per second while the mouse
 *                     drags the graph pane for 2 s
 *   heapToFileRatio   page JS heap after load and a full GC (CDP
 *                     Runtime.getHeapUsage) ÷ file size
 *   piExportMs        pi's export: navigation start → its tree and messages drawn.
 *                     Its script recurses once per level of the tree; on a deep
 *                     session Chromium's default stack overflows and it draws
 *                     nothing, so it is opened again in a browser started with a
 *                     1 GiB OS stack (ulimit -s, through a launcher script) and
 *                     a 512 MiB V8 stack (--js-flags=--stack-size), timed there
 *   vsPiExport        loadMs ÷ piExportMs (÷ the time of its error when it never
 *                     drew at all: then a bound that favours pi)
 *   shareOpenMs       the whole session as a share file (lib/share, not sealed),
 *                     opened from file:// with the network off: navigation start
 *                     → graph interactive, as loadMs
 *   shareSizeRatio    the share file's size ÷ the session's
 *
 * It also times listing a directory of 1,000 sessions (lib/server/list-sessions,
 * in this process) with the bytes the process read meanwhile, and reading
 * (bench/reading.ts): selecting an entry with a 5 MB bash output, and one with
 * 200 code blocks → the first frame showing it in the inspector.
 *
 * The app: BENCH_URL (an already running viewer whose build is current, started with --no-token), else
 * `npm start` (scripts/start.mjs: builds into NEXT_DIST_DIR if the build is
 * missing or stale) on a free port. Environment: BENCH_SIZES ("10000,100000"),
 * BENCH_PI=0 (skip writing and opening pi's export; it is skipped with a note, too, where pi
 * cannot write it: past V8's longest string),
 * BENCH_SEED (1), BENCH_KEEP=1 (keep the files), BENCH_DIR (write them there),
 * CHROMIUM_PATH (/usr/bin/chromium). The last line is one JSON object for the
 * largest size.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from "node:fs";
import { createServer } from "node:net";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser, type Page } from "@playwright/test";
import { listSessions } from "../lib/server/list-sessions";
import { readSessionFile } from "../lib/server/read-session";
import { makeShareFile } from "../lib/share/share-file";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../e2e/chromium";
import { generateSession, sessionChunks, type GenerateOptions, type GenerateStats } from "./generate";
import { measureReading, writeReadingSession, type ReadingTiming } from "./reading";

const SIZES = (process.env.BENCH_SIZES ?? "10000,100000").split(",").map(Number);
const SEED = Number(process.env.BENCH_SEED ?? 1);
const KEEP = process.env.BENCH_KEEP === "1";
const CHROMIUM = CHROMIUM_PATH;
const PI_EXPORT = resolve(process.cwd(), "node_modules/@earendil-works/pi-coding-agent/dist/core/export-html/index.js");
const PAN_MS = 2000;
const QUIET_MS = 500;
const LISTING_FILES = 1000;
const PI = process.env.BENCH_PI !== "0";
/**
 * Stacks (KB) for the second try of pi's export. V8's stack must fit in the renderer's main-thread stack,
 * which is the OS limit Chromium starts under (8 MB by default): a launcher raises that limit first.
 */
const PI_OS_STACK_KB = 1024 * 1024;
const PI_STACK_KB = 512 * 1024;

/** The targets for a session of `entries` entries: the big-session issue's table (100k, 500k, 1.5M entries). */
function targets(entries: number) {
  const tier = entries <= 100_000 ? 0 : entries <= 500_000 ? 1 : 2;
  return {
    loadMs: [1500, 5000, 15000][tier]!,
    reopenMs: [500, 1000, 2000][tier]!,
    longestTaskMs: 200,
    clickToContextMs: [50, 100, 100][tier]!,
    panFps: 30,
    heapToFileRatio: [0.5, 0.3, 0.3][tier]!,
    vsPiExport: 0.5,
    shareOpenMs: 3000,
    shareSizeRatio: 0.5,
  };
}

interface PiExport {
  exportFromFile(inputPath: string, options: { outputPath: string }): Promise<string>;
}

interface SizeResult {
  stats: GenerateStats;
  file: string;
  loadMs: number;
  paintMs: number;
  longestTaskMs: number;
  progressSteps: number;
  graphNodes: number;
  measures: Record<string, number>;
  clickToContextMs: number;
  contextRows: number;
  panFps: number;
  /** typing a two-word query → every hit found (the search box's and the runner's typing pauses included) */
  searchMs: number;
  searchHits: string;
  heapBytes: number;
  heapToFileRatio: number;
  /** ArrayBuffer backing stores after load (null where the browser does not report them) */
  bufferBytes: number | null;
  /** pi's export in the same browser */
  pi: PiExportTiming | null;
  /** the same with a bigger JS stack, when the first one overflowed */
  piBigStack: PiExportTiming | null;
  /** what loadMs is compared with: the first drawn time, else the latest error (a lower bound) */
  piExportMs: number;
  piExportBytes: number | null;
  vsPiExport: number | null;
  /** why pi's export was not measured (BENCH_PI=0, or pi could not write it) */
  piSkipped: string | null;
  share: ShareTiming | null;
  /** why no share file was measured */
  shareSkipped: string | null;
  reopen: ReopenTiming;
}

export interface ReopenTiming {
  /** the library file opened by its link (/view?file=…): navigation start → graph interactive */
  firstMs: number;
  /** the same link opened again, once the server's snapshot of the index was made */
  reopenMs: number;
  /** from the first open's end until the server had made the snapshot of the index (null: a BENCH_URL server's cache is not looked at) */
  snapshotWaitMs: number | null;
  /** the longest main-thread task of the two opens */
  longestTaskMs: number;
  /** each open's longest main-thread task: the first (the server makes the index meanwhile), the reopen */
  longestTasksMs: [number, number];
}

interface ShareTiming {
  openMs: number;
  longestTaskMs: number;
  bytes: number;
  sizeRatio: number;
  /** writing it with the CLI's code, in this process */
  writeMs: number;
}

// ---------------------------------------------------------------- files

/** The bench sessions: the generator's defaults plus a few huge tool results and more images. */
export function sessionOptions(entries: number): GenerateOptions {
  return { entries, seed: SEED, hugeResultEvery: Math.max(2500, Math.round(entries / 8)), hugeResultChars: 2 * 1024 * 1024, imageChance: 0.01 };
}

export function writeSession(file: string, options: GenerateOptions): GenerateStats {
  let stats!: GenerateStats;
  const fd = openSync(file, "w");
  try {
    for (const chunk of sessionChunks(options, (s) => (stats = s))) writeSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
  return stats;
}

// ---------------------------------------------------------------- the app

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.on("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => done(typeof address === "object" && address ? address.port : 0));
    });
  });
}

async function waitForHttp(url: string, child: ChildProcess | null, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child && child.exitCode !== null) throw new Error(`the app exited with code ${child.exitCode} before it served ${url}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

/** The app serving `sessionsDir` (or what `env` names instead: an archive), its cache beside that directory. */
export async function startApp(sessionsDir: string, env: Record<string, string> = {}): Promise<{ url: string; stop(): void }> {
  if (process.env.BENCH_URL) {
    await waitForHttp(process.env.BENCH_URL, null, 10_000);
    return { url: process.env.BENCH_URL.replace(/\/$/, ""), stop() {} };
  }
  const port = await freePort();
  // on loopback, for a run of its own: without a token every page the bench opens is let in as it is
  const child = spawn(process.execPath, ["scripts/start.mjs", "--no-token"], {
    // no size limit: the bench measures how big a session opens
    // light indexes kept beside the generated sessions (removed with them), not in the user's cache
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      PI_SESSIONS_DIR: sessionsDir,
      PI_VIEWER_CACHE_DIR: join(sessionsDir, "..", "cache"),
      NEXT_TELEMETRY_DISABLED: "1",
      PI_VIEWER_MAX_FILE_MB: "65536",
      ...env,
    },
    stdio: ["ignore", "inherit", "inherit"],
    detached: true, // its own process group: stopping it stops `next start` too
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = () => {
    if (child.exitCode === null && child.pid) process.kill(-child.pid, "SIGTERM");
  };
  try {
    await waitForHttp(url, child, 15 * 60_000); // may build first
  } catch (error) {
    stop();
    throw error;
  }
  return { url, stop };
}

// ---------------------------------------------------------------- in the page

/** Installed before the file is chosen: long tasks, progress updates, and the time the input fires. */
function instrument(): void {
  const w = window as unknown as Record<string, unknown>;
  const tasks: [number, number][] = [];
  w.__benchTasks = tasks;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) tasks.push([e.startTime, e.startTime + e.duration]);
  }).observe({ type: "longtask" });
  let steps = 0;
  let last = "";
  const watchProgress = () => {
    const text = document.querySelector('[data-testid="progress-text"]')?.textContent ?? "";
    if (text && text !== last) {
      steps++;
      last = text;
    }
    w.__benchProgressSteps = steps;
    if (!document.querySelector('[data-load-phase="ready"]')) requestAnimationFrame(watchProgress);
  };
  w.__benchStart = new Promise<number>((done) =>
    document.querySelector('[data-testid="file-input"]')!.addEventListener(
      "change",
      () => {
        requestAnimationFrame(watchProgress);
        done(performance.now());
      },
      { capture: true, once: true },
    ),
  );
}

/** Waits for the graph, then for the main thread to settle; times relative to the input's change event. */
async function awaitInteractive(
  quietMs: number,
): Promise<{ paintMs: number; loadMs: number; longestTaskMs: number; progressSteps: number; graphNodes: number; measures: Record<string, number> }> {
  const w = window as unknown as { __benchStart: Promise<number>; __benchTasks: [number, number][]; __benchProgressSteps: number };
  const start = await w.__benchStart;
  const frame = () => new Promise<number>((done) => requestAnimationFrame(done));
  while (!document.querySelector('[data-load-phase="ready"] .react-flow__node')) {
    await frame();
    if (document.querySelector('[data-load-phase="error"]')) throw new Error("the viewer failed to load the file");
  }
  await frame();
  const painted = performance.now();
  // interactive: no long task for quietMs (a task queued meanwhile would have waited for it)
  for (;;) {
    const lastEnd = Math.max(painted, ...w.__benchTasks.map(([, end]) => end));
    if (performance.now() - lastEnd >= quietMs) {
      const during = w.__benchTasks.filter(([s]) => s >= start);
      return {
        paintMs: painted - start,
        loadMs: lastEnd - start,
        longestTaskMs: Math.max(0, ...during.map(([s, e]) => e - s)),
        progressSteps: w.__benchProgressSteps,
        graphNodes: document.querySelectorAll(".react-flow__node").length,
        // the app's own user-timing measures (load-session.ts): where the time went
        measures: Object.fromEntries(performance.getEntriesByType("measure").map((m) => [m.name, Math.round(m.duration)])),
      };
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Resolves with the time from the next click on the Context tab to the first frame showing its list with its content. */
function timeContextClick(): Promise<{ ms: number; rows: number }> {
  return new Promise((done) => {
    const tab = document.getElementById("inspector-tab-context")!;
    tab.addEventListener(
      "click",
      () => {
        const t0 = performance.now();
        const tick = () => {
          const rows = document.querySelectorAll('[data-testid="context-list"] [role="listitem"]').length;
          // with its content: a session read on demand shows light rows first while the content is read
          const reading = document.querySelector('[data-testid="content-reading"]')?.textContent;
          if (rows > 0 && !reading) done({ ms: performance.now() - t0, rows });
          else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      },
      { capture: true, once: true },
    );
  });
}

// ---------------------------------------------------------------- measures

async function measureOurs(
  browser: Browser,
  url: string,
  file: string,
  stats: GenerateStats,
): Promise<Omit<SizeResult, "pi" | "piBigStack" | "piExportMs" | "piExportBytes" | "vsPiExport" | "piSkipped" | "share" | "shareSkipped" | "reopen">> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  // tsx compiles with esbuild's keepNames: functions sent to the page call its __name helper
  await context.addInitScript("window.__name = (f) => f;");
  const page = await context.newPage();
  page.setDefaultTimeout(5 * 60_000);
  try {
    await page.goto(`${url}/view`);
    await page.locator('[data-load-phase="nothing"]').waitFor();
    await page.evaluate(instrument);
    await page.getByTestId("file-input").setInputFiles(file);
    const load = await page.evaluate(awaitInteractive, QUIET_MS);

    const cdp = await context.newCDPSession(page);
    await cdp.send("HeapProfiler.collectGarbage");
    // backingStorageSize: the ArrayBuffers' bytes, outside the JS heap (the kept light text, the index's columns)
    const heap = (await cdp.send("Runtime.getHeapUsage")) as { usedSize: number; backingStorageSize?: number };
    const size = statSync(file).size;

    // the deepest entry: the leaf is selected on load; otherwise click its card
    const selected = () => new URL(page.url()).searchParams.get("entry");
    if (selected() !== stats.deepestId) await page.locator(`.react-flow__node[data-id="${stats.deepestId}"]`).click();
    if (selected() !== stats.deepestId) throw new Error(`could not select the deepest entry ${stats.deepestId} (selected: ${selected()})`);
    if ((await page.locator("#inspector-tab-context").getAttribute("aria-selected")) === "true") await page.locator("#inspector-tab-entry").click();
    const clicked = page.evaluate(timeContextClick);
    await page.locator("#inspector-tab-context").click();
    const context_ = await clicked;

    const panFps = await measurePan(page);
    const search = await measureSearch(page);
    return {
      searchMs: search.ms,
      searchHits: search.hits,
      stats,
      file,
      ...load,
      clickToContextMs: context_.ms,
      contextRows: context_.rows,
      panFps,
      heapBytes: heap.usedSize,
      heapToFileRatio: heap.usedSize / size,
      bufferBytes: heap.backingStorageSize ?? null,
    };
  } finally {
    await context.close();
  }
}

const SEARCH_QUERY = "decoder stream";

/** Types a query and waits until its search has ended (a session read on demand streams its file through a worker). */
async function measureSearch(page: Page): Promise<{ ms: number; hits: string }> {
  const t0 = performance.now();
  await page.getByTestId("search-input").fill(SEARCH_QUERY);
  await page.waitForFunction(
    () => document.querySelector('[data-testid="search-count"]') !== null && document.querySelector('[data-testid="search-progress"]') === null,
    undefined,
    { polling: "raf", timeout: 10 * 60_000 },
  );
  const ms = performance.now() - t0;
  const hits = (await page.getByTestId("search-count").textContent()) ?? "";
  await page.getByTestId("search-input").fill("");
  return { ms, hits };
}

/** Installed before a share file's own scripts run: long tasks, and its navigation start as the start. */
function instrumentShare(): void {
  const w = window as unknown as Record<string, unknown>;
  const tasks: [number, number][] = [];
  w.__benchTasks = tasks;
  w.__benchProgressSteps = 0;
  w.__benchStart = Promise.resolve(0);
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) tasks.push([e.startTime, e.startTime + e.duration]);
  }).observe({ type: "longtask" });
}

async function measureShare(browser: Browser, file: string, dir: string): Promise<ShareTiming> {
  const t0 = performance.now();
  const templateFile = resolve(__dirname, "../public/viewer/share-template.html");
  if (!existsSync(templateFile)) execFileSync(process.execPath, [resolve(__dirname, "../scripts/build-viewer.mjs")], { stdio: "inherit" });
  const template = readFileSync(templateFile, "utf8");
  const session = await readSessionFile(file);
  const share = await makeShareFile(template, session, readFileSync(file, "utf8"), "bench.jsonl", {
    scope: "session",
    entryId: null,
    tab: null,
    protection: { kind: "none" },
  });
  const html = join(dir, `share-${session.tree.size}.html`);
  writeFileSync(html, share.html);
  const writeMs = performance.now() - t0;
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.setOffline(true);
  await context.addInitScript("window.__name = (f) => f;");
  await context.addInitScript(instrumentShare);
  const page = await context.newPage();
  page.setDefaultTimeout(5 * 60_000);
  try {
    await page.goto(pathToFileURL(html).href, { waitUntil: "commit" });
    const load = await page.evaluate(awaitInteractive, QUIET_MS);
    const bytes = statSync(html).size;
    return { openMs: load.loadMs, longestTaskMs: load.longestTaskMs, bytes, sizeRatio: bytes / statSync(file).size, writeMs };
  } finally {
    await context.close();
  }
}

/**
 * Waits until the server has kept a snapshot of an index made since `since` (epoch ms): it builds one in the
 * background once a file's light index is kept, and a reopen meanwhile waits for it.
 */
async function snapshotMade(cache: string, since: number): Promise<void> {
  const light = join(cache, "light");
  for (const deadline = Date.now() + 300_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
    const names = existsSync(light) ? readdirSync(light) : [];
    if (names.some((name) => name.endsWith(".snap") && statSync(join(light, name)).mtimeMs >= since)) return;
  }
  throw new Error("the server made no snapshot of the index within 5 minutes");
}

/**
 * A library file opened twice by its link, as a user reopens a session: navigation start → graph interactive. The
 * second open comes once the server has made the snapshot of the file's index (with `cache`, the server's cache
 * folder), as when a session is opened again later.
 */
export async function measureReopen(browser: Browser, url: string, relative: string, cache: string | null): Promise<ReopenTiming> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addInitScript("window.__name = (f) => f;");
  await context.addInitScript(instrumentShare);
  const page = await context.newPage();
  page.setDefaultTimeout(5 * 60_000);
  try {
    const open = async () => {
      await page.goto(`${url}/view?file=${encodeURIComponent(relative)}`, { waitUntil: "commit" });
      return page.evaluate(awaitInteractive, QUIET_MS);
    };
    const since = Date.now();
    const first = await open();
    await page.goto("about:blank");
    const opened = Date.now();
    if (cache) await snapshotMade(cache, since);
    const snapshotWaitMs = cache ? Date.now() - opened : null;
    const again = await open();
    return {
      firstMs: first.loadMs,
      reopenMs: again.loadMs,
      snapshotWaitMs,
      longestTaskMs: Math.max(first.longestTaskMs, again.longestTaskMs),
      longestTasksMs: [first.longestTaskMs, again.longestTaskMs],
    };
  } finally {
    await context.close();
  }
}

/** Why a step cannot run at this size (pi's export, a share file: both hold the whole session in one string). */
function reason(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

async function measurePan(page: Page): Promise<number> {
  const pane = page.locator(".react-flow__pane");
  const box = (await pane.boundingBox())!;
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  await page.mouse.move(cx, cy);
  await page.mouse.down();
  await page.evaluate(() => {
    const w = window as unknown as { __benchFrames: number; __benchPanning: boolean; __benchPanStart: number };
    w.__benchFrames = 0;
    w.__benchPanning = true;
    w.__benchPanStart = performance.now();
    const count = () => {
      if (!w.__benchPanning) return;
      w.__benchFrames++;
      requestAnimationFrame(count);
    };
    requestAnimationFrame(count);
  });
  const started = Date.now();
  let i = 0;
  // a slow circle and a drift upwards: new parts of the graph come into view
  while (Date.now() - started < PAN_MS) {
    i++;
    await page.mouse.move(cx + Math.sin(i / 10) * 200, cy + Math.cos(i / 10) * 120 + ((i * 3) % 400) - 200);
  }
  const fps = await page.evaluate(() => {
    const w = window as unknown as { __benchFrames: number; __benchPanning: boolean; __benchPanStart: number };
    w.__benchPanning = false;
    return (w.__benchFrames * 1000) / (performance.now() - w.__benchPanStart);
  });
  await page.mouse.up();
  return fps;
}

interface PiExportTiming {
  /** navigation start → its tree and messages drawn, or → the error that stopped it */
  ms: number;
  drawn: boolean;
  error: string | null;
}

/**
 * pi's export, opened from disk: navigation start → its tree's status line and the leaf's messages drawn.
 * Its script walks the tree recursively, so on a deep session it may throw (stack overflow) and draw
 * nothing; then the time of that error is returned, a lower bound of what drawing would have taken.
 */
async function measurePiExport(browser: Browser, html: string): Promise<PiExportTiming> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addInitScript(
    "window.__name = (f) => f; window.addEventListener('error', (e) => { window.__benchError ??= { at: performance.now(), message: String(e.message) }; });",
  );
  const page = await context.newPage();
  page.setDefaultTimeout(15 * 60_000);
  try {
    await page.goto(pathToFileURL(html).href, { waitUntil: "load" });
    const outcome = await page.waitForFunction(
      () => {
        const w = window as unknown as { __benchDrawn?: number; __benchError?: { at: number; message: string } };
        const drawn = !!document.getElementById("tree-status")?.textContent && (document.getElementById("messages")?.childElementCount ?? 0) > 0;
        // performance.now() counts from the navigation's start
        if (drawn) return { ms: (w.__benchDrawn ??= performance.now()), drawn: true, error: null };
        if (w.__benchError) return { ms: w.__benchError.at, drawn: false, error: w.__benchError.message };
        return null;
      },
      undefined,
      { polling: "raf" },
    );
    return (await outcome.jsonValue())!;
  } finally {
    await context.close();
  }
}

/**
 * A script that starts Chromium under a bigger stack limit (a renderer's main thread gets the limit its
 * process started with), written into the bench's directory. Refuses when the hard limit is lower: a V8
 * stack bigger than the thread's would crash the renderer instead of measuring anything.
 */
function bigStackLauncher(dir: string): string {
  const hard = execFileSync("sh", ["-c", "ulimit -H -s"], { encoding: "utf8" }).trim();
  if (hard !== "unlimited" && Number(hard) < PI_OS_STACK_KB) {
    throw new Error(`the stack hard limit is ${hard} KB; pi's export needs ${PI_OS_STACK_KB} KB here (raise it, or BENCH_PI=0)`);
  }
  const launcher = join(dir, "chromium-big-stack.sh");
  writeFileSync(launcher, `#!/bin/sh\nulimit -s ${PI_OS_STACK_KB}\nexec '${CHROMIUM.replaceAll("'", "'\\''")}' "$@"\n`, { mode: 0o755 });
  return launcher;
}

/** 1,000 session files in `dir` (most small; the big benchmark sessions already there), listed as the library lists them. */
async function measureListing(dir: string, big: string[]): Promise<{ files: number; bytes: number; ms: number; readBytes: number }> {
  const sizes = [20, 60, 150, 400, 1200, 3000];
  const samples = sizes.map((entries, i) => generateSession({ entries, seed: SEED + i + 1 }));
  let bytes = big.reduce((sum, file) => sum + statSync(file).size, 0);
  let files = big.length;
  for (let i = 0; files < LISTING_FILES; i++, files++) {
    const project = join(dir, `--home-dev-project-${i % 40}--`);
    mkdirSync(project, { recursive: true });
    const text = samples[i % samples.length]!;
    writeFileSync(join(project, `2026-01-05T09-00-00-000Z_${String(i).padStart(8, "0")}.jsonl`), text);
    bytes += Buffer.byteLength(text);
  }
  const readBefore = readChars();
  const t0 = performance.now();
  const listed = await listSessions(dir);
  const ms = performance.now() - t0;
  if (listed.length !== files) throw new Error(`listing found ${listed.length} of ${files} sessions`);
  return { files, bytes, ms, readBytes: readChars() - readBefore };
}

/** Bytes this process has read through read(2) and friends (Linux /proc/self/io `rchar`). */
function readChars(): number {
  const match = /rchar: (\d+)/.exec(readFileSync("/proc/self/io", "utf8"));
  return match ? Number(match[1]) : NaN;
}

// ---------------------------------------------------------------- report

function fmtBytes(n: number): string {
  return n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(1)} MiB` : `${(n / 1024).toFixed(0)} KiB`;
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(rows[0]!), `| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`, ...rows.slice(1).map(line)].join("\n");
}

/** the reading targets (issue 21): first paint of the inspector, and no long task meanwhile */
const READING_TARGETS = { bashMs: 100, codeMs: 150, longestTaskMs: 200 };

function readingReport(reading: ReadingTiming): string {
  const ms = (x: number) => `${Math.round(x).toLocaleString("en-US")} ms`;
  const ok = (x: number, target: number) => `${x <= target ? "ok" : "MISS"} (≤ ${ms(target)})`;
  return table([
    ["reading (bench/reading.ts)", "figure"],
    [
      `select an entry with a ${fmtBytes(reading.bashOutputBytes)} bash output → inspector painted`,
      `${ms(reading.bashMs)} ${ok(reading.bashMs, READING_TARGETS.bashMs)}`,
    ],
    ["  longest task within 2 s of the click", `${ms(reading.bashLongestTaskMs)} ${ok(reading.bashLongestTaskMs, READING_TARGETS.longestTaskMs)}`],
    [`select an entry with ${reading.codeBlocks} code blocks → inspector painted`, `${ms(reading.codeMs)} ${ok(reading.codeMs, READING_TARGETS.codeMs)}`],
    ["  longest task within 2 s of the click", `${ms(reading.codeLongestTaskMs)} ${ok(reading.codeLongestTaskMs, READING_TARGETS.longestTaskMs)}`],
    ["  (info) every block highlighted", ms(reading.codeHighlightedMs)],
  ]);
}

function report(results: SizeResult[], listing: Awaited<ReturnType<typeof measureListing>>): string {
  const label = (r: SizeResult) => `${r.stats.entries / 1000}k (${fmtBytes(statSync(r.file).size)})`;
  const ok = (x: number, target: number, atLeast = false) => ((atLeast ? x >= target : x <= target) ? "ok" : "MISS");
  const ms = (x: number) => `${Math.round(x).toLocaleString("en-US")} ms`;
  const piCell = (t: PiExportTiming | null) => (t === null ? "–" : t.drawn ? ms(t.ms) : `nothing drawn: "${t.error}" after ${ms(t.ms)}`);
  // each cell against its size's target (targets(entries)), shown beside it
  const cell = (r: SizeResult, value: number | null, key: keyof ReturnType<typeof targets>, shown: string, atLeast = false) => {
    if (value === null || Number.isNaN(value)) return "–";
    const target = targets(r.stats.entries)[key];
    return `${shown} ${ok(value, target, atLeast)} (${atLeast ? "≥" : "≤"} ${key.endsWith("Ms") ? ms(target) : target})`;
  };
  const skipped = (why: string | null) => (why ? `– (${why})` : "–");
  const rows: string[][] = [
    ["measure", ...results.map(label)],
    ["file chosen → graph interactive", ...results.map((r) => cell(r, r.loadMs, "loadMs", ms(r.loadMs)))],
    ["library file opened by its link → graph interactive", ...results.map((r) => ms(r.reopen.firstMs))],
    ["library file reopened → graph interactive", ...results.map((r) => cell(r, r.reopen.reopenMs, "reopenMs", ms(r.reopen.reopenMs)))],
    [
      "(info) library: the server's snapshot of the index made, after the first open",
      ...results.map((r) => (r.reopen.snapshotWaitMs === null ? "– (BENCH_URL)" : ms(r.reopen.snapshotWaitMs))),
    ],
    ["longest main-thread task while opening (upload)", ...results.map((r) => cell(r, r.longestTaskMs, "longestTaskMs", ms(r.longestTaskMs)))],
    [
      "longest main-thread task while opening (library: first open / reopen)",
      ...results.map((r) => cell(r, r.reopen.longestTaskMs, "longestTaskMs", r.reopen.longestTasksMs.map(ms).join(" / "))),
    ],
    ["click → Context filled (deepest entry)", ...results.map((r) => cell(r, r.clickToContextMs, "clickToContextMs", ms(r.clickToContextMs)))],
    ["pan, frames per second", ...results.map((r) => cell(r, r.panFps, "panFps", r.panFps.toFixed(0), true))],
    ["JS heap after load ÷ file size", ...results.map((r) => cell(r, r.heapToFileRatio, "heapToFileRatio", r.heapToFileRatio.toFixed(2)))],
    ["pi 0.84.1 HTML export: open → drawn", ...results.map((r) => (r.pi ? piCell(r.pi) : skipped(r.piSkipped)))],
    [`  same, OS stack ${PI_OS_STACK_KB / 1024} MiB, V8 stack ${PI_STACK_KB / 1024} MiB (when it overflowed)`, ...results.map((r) => piCell(r.piBigStack))],
    ["ours ÷ pi's export (÷ its error time when it never drew: ≤)", ...results.map((r) => cell(r, r.vsPiExport, "vsPiExport", r.vsPiExport?.toFixed(3) ?? ""))],
    [
      "share file from file://: open → graph interactive",
      ...results.map((r) => (r.share ? cell(r, r.share.openMs, "shareOpenMs", ms(r.share.openMs)) : skipped(r.shareSkipped))),
    ],
    [
      "share file size ÷ session size",
      ...results.map((r) =>
        r.share ? `${cell(r, r.share.sizeRatio, "shareSizeRatio", r.share.sizeRatio.toFixed(3))} (${fmtBytes(r.share.bytes)})` : skipped(r.shareSkipped),
      ),
    ],
    [
      "(info) share file: longest task while opening / time to write it",
      ...results.map((r) => (r.share ? `${ms(r.share.longestTaskMs)} / ${ms(r.share.writeMs)}` : "–")),
    ],
    ["(info) first graph frame", ...results.map((r) => ms(r.paintMs))],
    ["(info) progress bar updates seen", ...results.map((r) => String(r.progressSteps))],
    ["(info) graph cards in the DOM / context rows in the DOM", ...results.map((r) => `${r.graphNodes} / ${r.contextRows}`)],
    ["(info) JS heap after load", ...results.map((r) => fmtBytes(r.heapBytes))],
    ["(info) ArrayBuffers after load (kept light text, columns)", ...results.map((r) => (r.bufferBytes === null ? "–" : fmtBytes(r.bufferBytes)))],
    [`(info) search "${SEARCH_QUERY}": typed → every hit found`, ...results.map((r) => `${ms(r.searchMs)} (${r.searchHits})`)],
    ["(info) pi's export file", ...results.map((r) => (r.piExportBytes === null ? "–" : fmtBytes(r.piExportBytes)))],
    [
      "(info) deepest path / side branches / compactions / huge results / images",
      ...results.map(
        (r) => `${r.stats.deepestDepth} / ${r.stats.sideBranches} / ${r.stats.compactions} / ${r.stats.hugeResults.length} / ${r.stats.images.length}`,
      ),
    ],
  ];
  return [
    `Browser benchmark — headless Chromium (${CHROMIUM}), production build; one run per figure; ${cpus().length} CPUs, load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(" ")} at the end (others' work on the machine slows every figure).`,
    "",
    table(rows),
    "",
    `Listing ${listing.files} sessions (${fmtBytes(listing.bytes)} on disk, the two big ones included): ${ms(listing.ms)}, ${fmtBytes(listing.readBytes)} read (lib/server/list-sessions, cold cache).`,
  ].join("\n");
}

// ---------------------------------------------------------------- main

async function main(): Promise<void> {
  const started = performance.now();
  const root = process.env.BENCH_DIR ?? mkdtempSync(join(tmpdir(), "pi-viewer-browser-bench-"));
  // the library the app serves and the listing benchmark reads: the big sessions and 1,000 - 2 small ones
  const library = join(root, "library");
  const sessionsDir = join(library, "--bench--");
  mkdirSync(sessionsDir, { recursive: true });
  const pi = (await import(pathToFileURL(PI_EXPORT).href)) as PiExport;
  const results: SizeResult[] = [];
  let reading: ReadingTiming | null = null;
  let app: { url: string; stop(): void } | null = null;
  let browser: Browser | null = null;
  try {
    const files: { file: string; html: string | null; piSkipped: string | null; stats: GenerateStats }[] = [];
    for (const entries of SIZES) {
      const file = join(sessionsDir, `bench-${entries}.jsonl`);
      const stats = writeSession(file, sessionOptions(entries));
      let html: string | null = null;
      let piSkipped: string | null = PI ? null : "BENCH_PI=0";
      if (PI) {
        try {
          const out = join(root, `pi-export-${entries}.html`);
          await pi.exportFromFile(file, { outputPath: out });
          html = out;
        } catch (error) {
          // pi's export reads the session into one string: past V8's longest string it cannot be written at all
          piSkipped = `pi could not write its export: ${reason(error)}`;
        }
      }
      files.push({ file, html, piSkipped, stats });
      console.log(`wrote ${file} (${fmtBytes(stats.bytes)}); pi's export: ${html ? fmtBytes(statSync(html).size) : piSkipped}`);
    }
    const listing = await measureListing(
      library,
      files.map((f) => f.file),
    );
    app = await startApp(library);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
    const readingFile = join(root, "reading.jsonl");
    reading = await measureReading(browser, app.url, readingFile, writeReadingSession(readingFile));
    console.log(`reading: ${JSON.stringify(reading)}`);
    for (const { file, html, piSkipped, stats } of files) {
      const ours = await measureOurs(browser, app.url, file, stats);
      console.log(`ours, ${stats.entries} entries: ${JSON.stringify({ ...ours, stats: undefined })}`);
      const reopen = await measureReopen(browser, app.url, relative(library, file), process.env.BENCH_URL ? null : join(library, "..", "cache"));
      console.log(`library file opened and reopened, ${stats.entries} entries: ${JSON.stringify(reopen)}`);
      let share: ShareTiming | null = null;
      let shareSkipped: string | null = null;
      try {
        share = await measureShare(browser, file, root);
        console.log(`share file, ${stats.entries} entries: ${JSON.stringify(share)}`);
      } catch (error) {
        shareSkipped = `no share file: ${reason(error)}`;
        console.log(shareSkipped);
      }
      let pi: PiExportTiming | null = null;
      let piBigStack: PiExportTiming | null = null;
      if (html) {
        pi = await measurePiExport(browser, html);
        console.log(`pi's export, ${stats.entries} entries: ${JSON.stringify(pi)}`);
        if (!pi.drawn) {
          // its recursion needs a deeper stack than Chromium's default: measure what it takes when it can draw
          const big = await chromium.launch({
            executablePath: bigStackLauncher(root),
            args: [...CHROMIUM_ARGS, `--js-flags=--stack-size=${PI_STACK_KB}`],
            headless: true,
          });
          try {
            piBigStack = await measurePiExport(big, html);
          } finally {
            await big.close();
          }
          console.log(`pi's export with a ${PI_STACK_KB} KB stack, ${stats.entries} entries: ${JSON.stringify(piBigStack)}`);
        }
      }
      const drawn = [pi, piBigStack].find((t) => t?.drawn);
      const piExportMs = html ? (drawn ? drawn.ms : Math.max(pi?.ms ?? NaN, piBigStack?.ms ?? 0)) : NaN;
      results.push({
        ...ours,
        pi,
        piBigStack,
        piExportMs,
        piExportBytes: html ? statSync(html).size : null,
        vsPiExport: html ? ours.loadMs / piExportMs : null,
        piSkipped,
        share,
        shareSkipped,
        reopen,
      });
    }
    console.log("");
    console.log(report(results, listing));
    console.log("");
    console.log(readingReport(reading));
  } finally {
    await browser?.close();
    app?.stop();
    if (!KEEP && !process.env.BENCH_DIR) rmSync(root, { recursive: true, force: true });
  }
  console.log(`total bench time ${((performance.now() - started) / 1000).toFixed(0)} s`);
  const last = results[results.length - 1]!;
  const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;
  console.log(
    JSON.stringify({
      loadMs: Math.round(last.loadMs),
      longestTaskMs: Math.round(last.longestTaskMs),
      reopenMs: Math.round(last.reopen.reopenMs),
      clickToContextMs: round(last.clickToContextMs, 1),
      panFps: round(last.panFps, 1),
      heapToFileRatio: round(last.heapToFileRatio, 2),
      vsPiExport: last.vsPiExport === null ? null : round(last.vsPiExport, 3),
      shareOpenMs: last.share ? Math.round(last.share.openMs) : null,
      shareSizeRatio: last.share ? round(last.share.sizeRatio, 3) : null,
      readingBashMs: reading ? Math.round(reading.bashMs) : null,
      readingCodeMs: reading ? Math.round(reading.codeMs) : null,
      readingLongestTaskMs: reading ? Math.round(Math.max(reading.bashLongestTaskMs, reading.codeLongestTaskMs)) : null,
      entries: last.stats.entries,
    }),
  );
}

// run as the bench, not when the archive bench takes its pieces
if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
