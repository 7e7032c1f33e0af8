// The browser every Playwright run here uses: Debian's Chromium (Playwright's own download is not reachable),
// with flags for a headless run on a small shared machine. Shared by playwright.config.ts and the browser bench.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];
