// Playwright configuration: Debian's Chromium headless shell against `next start` (run `next build` first).
import { randomBytes } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_ARGS, E2E_CHROMIUM_PATH } from "./e2e/chromium";

// the servers the specs start keep light indexes (lib/server/light-index.ts) in a folder of this run's, not the user's
// cache (set here, in the runner, so that its workers and the servers they start inherit it)
process.env.PI_VIEWER_CACHE_DIR ||= path.join(os.tmpdir(), `pi-viewer-e2e-cache-${process.pid}`);

const PORT = Number(process.env.E2E_PORT ?? 3100);

// the server's token, known to the runner so that every page starts signed in (the cookie `?token=` would set);
// set in the runner's environment, so the servers specs start themselves (fixtures/serve-cli.ts) share it
process.env.PI_VIEWER_TOKEN ||= randomBytes(32).toString("base64url");
const signedIn = {
  cookies: [
    {
      name: `pi-viewer-token-${PORT}`,
      value: process.env.PI_VIEWER_TOKEN,
      domain: "127.0.0.1",
      path: "/",
      expires: -1,
      httpOnly: true,
      secure: false,
      sameSite: "Strict" as const,
    },
  ],
  origins: [],
};

const chromium = { ...devices["Desktop Chrome"], launchOptions: { executablePath: E2E_CHROMIUM_PATH, args: CHROMIUM_ARGS } };
/** library.spec counts the sessions directory's files; xss.spec adds a folder to it */
const SHARED_DIR_SPECS = ["library.spec.ts", "xss.spec.ts"];

export default defineConfig({
  testDir: "./e2e",
  outputDir: "./test-results", // Playwright empties this dir at start; other reports go to reports/
  timeout: 30_000,
  // both cores: spec files run side by side, each file's tests in order; the two specs that write into or count
  // the shared sessions directory run after the rest, one after the other (projects below)
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: process.env.CI ? 1 : 0,
  forbidOnly: !!process.env.CI,
  reporter: "list",
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    // a trace records every action's DOM and screencast, which costs the run a quarter of its CPU: only a retry
    // of a failed test records one
    trace: "on-first-retry",
    // no animated fits and fades: the specs wait on what the page shows (e2e/fixtures/graph.ts), not on sleeps
    reducedMotion: "reduce",
    screenshot: "only-on-failure",
    storageState: signedIn,
  },
  projects: [
    { name: "chromium", use: chromium, testIgnore: SHARED_DIR_SPECS },
    { name: "library", use: chromium, testMatch: "library.spec.ts", dependencies: ["chromium"] },
    { name: "xss", use: chromium, testMatch: "xss.spec.ts", dependencies: ["library"] },
  ],
  webServer: {
    command: `npx next start -p ${PORT} -H 127.0.0.1`,
    url: `http://127.0.0.1:${PORT}`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
    env: {
      NEXT_TELEMETRY_DISABLED: "1",
      PI_SESSIONS_DIR: "./e2e/fixtures/sessions",
      PI_VIEWER_CACHE_DIR: process.env.PI_VIEWER_CACHE_DIR,
      PI_VIEWER_TOKEN: process.env.PI_VIEWER_TOKEN,
      // each engineer's build lives in its own dist dir (see next.config.ts); `next start` must read the same one
      ...(process.env.NEXT_DIST_DIR ? { NEXT_DIST_DIR: process.env.NEXT_DIST_DIR } : {}),
    },
    stdout: "pipe",
  },
});
