// Share files in Firefox: the file a colleague double-clicks may open in any browser. Playwright drives only its
// own patched Firefox, which cannot be downloaded here, so this spec drives Debian's firefox-esr through
// WebDriver BiDi with puppeteer-core, from inside the Playwright run (npm test installs firefox-esr).
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "@playwright/test";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { Session } from "../lib/session";
import { requirementPath } from "../scripts/requirements.cjs";
import { sessionFile } from "./fixtures/session-files";
import { shareWithCli } from "./fixtures/share-cli";

const FIREFOX = requirementPath("firefox");
const NAME = "ca-compaction-a";
const session = Session.fromText(readFileSync(sessionFile(NAME), "utf8"));
let tmp = "";

test.describe.configure({ timeout: 120_000, mode: "serial" });

let browser: Browser;

const share = (name: string, env: Record<string, string>, ...args: string[]) => shareWithCli(sessionFile(NAME), tmp, name, env, ...args);

test.beforeAll(async () => {
  // made here, not on import: Playwright also imports the file to list its tests, and nothing would remove it
  tmp = mkdtempSync(path.join(os.tmpdir(), "pi-firefox-e2e-"));
  expect(existsSync(FIREFOX), `${FIREFOX} (Debian firefox-esr; npm test installs it)`).toBe(true);
  browser = await puppeteer.launch({ browser: "firefox", executablePath: FIREFOX, headless: true });
});

test.afterAll(async () => {
  await browser?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** Opens a page that records script errors and CSP violations (Firefox reports both as page errors). */
async function open(url: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  await page.goto(url);
  return { page, errors };
}

async function phase(page: Page, wanted: string): Promise<void> {
  await page.waitForFunction((p) => document.querySelector("[data-testid=dropzone]")?.getAttribute("data-load-phase") === p, { timeout: 60_000 }, wanted);
}

test("a share file opens from file:// in Firefox at its deep link, with no script error or CSP violation", async () => {
  const file = share("plain.html", {});
  const target = session.branch(session.leafId!)[3]!.id;
  const { page, errors } = await open(`${pathToFileURL(file).href}#entry=${target}&tab=path`);
  await phase(page, "ready");
  await page.waitForSelector('[data-testid="path-list"] [data-entry-id]');
  const shown = await page.$$eval('[data-testid="path-list"] [data-entry-id]', (rows) => rows.map((r) => r.getAttribute("data-entry-id")));
  expect(shown).toEqual(session.branch(target).map((e) => e.id));
  // (the graph's first cards come in a render React may put off: GraphCanvas's first window)
  await page.waitForSelector(".react-flow__node");
  expect(errors).toEqual([]);
  await page.close();
});

test("a password-sealed share file asks for its password in Firefox and opens with it", async () => {
  const file = share("sealed.html", { PI_SHARE_PASSWORD: "tulip meadow lantern" }, "--password");
  const { page, errors } = await open(pathToFileURL(file).href);
  await phase(page, "locked");
  await page.type("[data-testid=unlock-input]", "tulip meadow lanterns");
  await page.keyboard.press("Enter");
  await page.waitForSelector("[data-testid=unlock-error]", { timeout: 60_000 });
  // select what was typed, and type over it
  await page.click("[data-testid=unlock-input]", { count: 3 });
  await page.type("[data-testid=unlock-input]", "tulip meadow lantern");
  await page.keyboard.press("Enter");
  await phase(page, "ready");
  expect(errors).toEqual([]);
  await page.close();
});
