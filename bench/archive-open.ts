// A big session opened from the archive against the same file opened from a directory, in Chromium: what
// `npm run bench:archive` measures last. The session is bench:browser's (bench/generate.ts, BENCH_OPEN_ENTRIES
// entries, 100k by default), pushed as a machine of its own; each server (`npm start`, one on the directory, one
// with PI_VIEWER_DATABASE_URL) has a cache folder of its own, so the first open makes the light index from its
// source's bytes and the second reads it kept (bench:browser's measureReopen: link → graph interactive).
//                                                                        (target: archive ≤ 1.5× the directory)
import { mkdirSync } from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";
import type pg from "pg";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../e2e/chromium";
import { pushLibrary } from "../lib/server/archive/push-library";
import { measureReopen, sessionOptions, startApp, writeSession, type ReopenTiming } from "./browser.bench";

export interface OpenFigures {
  entries: number;
  bytes: number;
  pushMs: number;
  directory: ReopenTiming;
  archive: ReopenTiming;
}

const MACHINE = "bench-big";
const PROJECT = "--home-dev-big--";

export async function measureArchiveOpen(root: string, url: string, pool: pg.Pool, machineId: (name: string) => Promise<number>): Promise<OpenFigures> {
  const entries = Number(process.env.BENCH_OPEN_ENTRIES ?? 100_000);
  const dir = path.join(root, "open", "sessions");
  mkdirSync(path.join(dir, PROJECT), { recursive: true });
  const name = `bench-${entries}.jsonl`;
  const stats = writeSession(path.join(dir, PROJECT, name), sessionOptions(entries));
  const started = performance.now();
  await pushLibrary(pool, dir, { machine: MACHINE, machineId: await machineId(MACHINE) });
  const pushMs = performance.now() - started;
  console.log(`  ${entries.toLocaleString("en-US")} entries, ${(stats.bytes / 1e6).toFixed(0)} MB, pushed in ${(pushMs / 1000).toFixed(1)} s`);

  // the archive's server reads no directory: an empty one stands for it (and holds its cache beside it)
  const none = path.join(root, "open", "archive-server", "sessions");
  mkdirSync(none, { recursive: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
  try {
    const opened = async (sessions: string, env: Record<string, string>, rel: string) => {
      const app = await startApp(sessions, env);
      try {
        return await measureReopen(browser, app.url, rel, path.join(sessions, "..", "cache"));
      } finally {
        app.stop();
      }
    };
    const directory = await opened(dir, {}, `${PROJECT}/${name}`);
    console.log(`  from the directory: first ${directory.firstMs.toFixed(0)} ms, again ${directory.reopenMs.toFixed(0)} ms`);
    const archive = await opened(none, { PI_VIEWER_DATABASE_URL: url }, `${MACHINE}/${PROJECT}/${name}`);
    console.log(`  from the archive:   first ${archive.firstMs.toFixed(0)} ms, again ${archive.reopenMs.toFixed(0)} ms`);
    return { entries, bytes: stats.bytes, pushMs, directory, archive };
  } finally {
    await browser.close();
  }
}
