// The browsers Playwright runs here: Debian's (Playwright's own download is not reachable), with flags for a
// headless run on a small shared machine. Shared by playwright.config.ts and the browser bench.
import { existsSync } from "node:fs";
import { chromiumPath, requirementPath } from "../scripts/requirements.cjs";

/** The browser people use: the bench measures the viewer in it. */
export const CHROMIUM_PATH = chromiumPath();

/**
 * The e2e suite's browser: Chromium's headless shell, the same Blink and V8 without the desktop browser's
 * display compositor, as Playwright itself runs headless tests. Here it needs a third less time than the full
 * browser; without it installed, the full browser does.
 */
export const E2E_CHROMIUM_PATH = existsSync(requirementPath("chromium-headless-shell")) ? requirementPath("chromium-headless-shell") : CHROMIUM_PATH;

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
