// The static viewer (npm run build:static → out/static) on a plain static file server, no Next.js: it opens a
// session by ?src= from its own origin and from another one (CORS), a share file by URL with its #k= key,
// a file picked from disk, and writes share files from its own Share dialog.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Download, type Page } from "@playwright/test";
import { Session } from "../lib/session";
import { unpackShare } from "../lib/share/pack";
import { unseal } from "../lib/share/seal";
import { extractShare } from "../lib/share/share-html";
import { listIds } from "./fixtures/lists";
import { SESSION_FILES, SESSIONS_DIR, sessionFile } from "./fixtures/session-files";
import { serveStatic, type StaticServer } from "./fixtures/static-server";

test.describe.configure({ timeout: 120_000, mode: "serial" });
const SLOW = { timeout: 60_000 };
const ROOT = path.resolve(__dirname, "..");
const OUT = path.join(ROOT, "out", "static");
const NAME = "ca-compaction-a";
const session = Session.fromText(readFileSync(sessionFile(NAME), "utf8"));
const shares = mkdtempSync(path.join(os.tmpdir(), "pi-static-e2e-"));

let site: StaticServer;
let other: StaticServer;
let key = "";

test.beforeAll(async () => {
  expect(existsSync(path.join(OUT, "index.html")), "npm run build (or build:static) writes out/static").toBe(true);
  const r = spawnSync(process.execPath, ["--import", "tsx", "lib/cli/main.ts", "share", sessionFile(NAME), "-o", path.join(shares, "sealed.html"), "--key"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  expect(r.status, r.stderr).toBe(0);
  key = JSON.parse(r.stdout).key;
  site = await serveStatic({ "/": OUT, "/data": SESSIONS_DIR, "/shares": shares });
  other = await serveStatic({ "/": SESSIONS_DIR }, { cors: true });
});

test.afterAll(async () => {
  await site?.close();
  await other?.close();
  rmSync(shares, { recursive: true, force: true });
});

/** Fails the test on any request that goes anywhere but the two servers. */
function onlyOurServers(page: Page): string[] {
  const strays: string[] = [];
  page.on("request", (request) => {
    const url = request.url();
    if (!url.startsWith(site.url) && !url.startsWith(other.url) && !/^(blob|data):/.test(url)) strays.push(url);
  });
  return strays;
}

async function expectPath(page: Page, id: string) {
  const inspector = page.locator("#inspector");
  await inspector.getByRole("tab", { name: "Path", exact: true }).click();
  expect(await listIds(inspector.getByTestId("path-list"))).toEqual(session.branch(id).map((e) => e.id));
}

test("opens ?src= from its own origin, keeps the entry in the address", async ({ page }) => {
  const strays = onlyOurServers(page);
  const id = session.branch(session.leafId!)[2]!.id;
  await page.goto(`${site.url}/view?src=${encodeURIComponent(`/data/${SESSION_FILES[NAME]}`)}&entry=${id}`);
  await expect(page.getByTestId("dropzone")).toHaveAttribute("data-load-phase", "ready", SLOW);
  await expectPath(page, id);
  await expect(page).toHaveURL(new RegExp(`entry=${id}&tab=path`));
  // no library here: the top bar names the viewer instead
  await expect(page.getByRole("link", { name: "Back to the library" })).toHaveCount(0);
  expect(site.requests.some((p) => p.startsWith("/api/"))).toBe(false);
  expect(strays).toEqual([]);
});

test("opens ?src= from another origin that allows it (CORS)", async ({ page }) => {
  await page.goto(`${site.url}/view/?src=${encodeURIComponent(`${other.url}/${SESSION_FILES[NAME]}`)}`);
  await expect(page.getByTestId("dropzone")).toHaveAttribute("data-load-phase", "ready", SLOW);
  await expectPath(page, session.leafId!);
});

test("opens a sealed share file by URL with the key from the link's fragment", async ({ page }) => {
  await page.goto(`${site.url}/view/?src=/shares/sealed.html#k=${key}`);
  await expect(page.getByTestId("dropzone")).toHaveAttribute("data-load-phase", "ready", SLOW);
  await expect(page.getByTestId("share-badge")).toBeVisible();
  await expectPath(page, session.leafId!);
  await page.goto(`${site.url}/view/?src=/shares/sealed.html`);
  await expect(page.getByTestId("unlock")).toBeVisible(SLOW);
});

test("opens a file picked from disk and shares it from its own Share dialog", async ({ page }) => {
  const strays = onlyOurServers(page);
  await page.goto(`${site.url}/`);
  await expect(page.getByTestId("viewer-message")).toContainText("No session chosen");
  await page.getByTestId("file-input").setInputFiles(sessionFile(NAME));
  await expect(page.getByTestId("dropzone")).toHaveAttribute("data-load-phase", "ready", SLOW);
  await page.getByTestId("share-open").click();
  const dialog = page.getByTestId("share-dialog");
  await dialog.getByTestId("share-redact-builtin").uncheck();
  await dialog.getByTestId("share-home-paths").uncheck();
  const [download] = await Promise.all([page.waitForEvent("download"), dialog.getByTestId("share-write").click()]);
  const html = readFileSync((await (download as Download).path())!, "utf8");
  const back = await unpackShare(await unseal(extractShare(html)!));
  expect(back.text).toBe(readFileSync(sessionFile(NAME), "utf8"));
  expect(strays).toEqual([]);
});
