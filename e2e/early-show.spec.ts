// A library file opened again is shown from the snapshot of its index before its light lines have come: the
// entries it shows meanwhile are read from the server's kept index by frame (&index=), and it answers as the
// file does, before and after the lines came. A proxy holds the lines back until the test lets them go.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { generateSession } from "../bench/generate";
import { Session } from "../lib/session";
import { holdingProxy, type HoldingProxy } from "./fixtures/holding-proxy";
import { serveCli, type ServedApp } from "./fixtures/serve-cli";

test.describe.configure({ mode: "serial", timeout: 120_000 });

const PROJECT = "--home-dev-early--";
const REL = `${PROJECT}/2026-03-02T12-00-00-000Z_early.jsonl`;
const TEXT = generateSession({ entries: 2000, seed: 21 });
let dir: string;
let app: ServedApp;

test.beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "pi-early-e2e-"));
  mkdirSync(path.join(dir, PROJECT));
  writeFileSync(path.join(dir, ...REL.split("/")), TEXT);
  app = await serveCli(dir);
});

// the printed address would set the server's cookie; the tests open addresses of their own
test.beforeEach(({ context }) => app.signIn(context));

test.afterAll(async () => {
  await app?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const measured = (page: Page, name: string) => page.evaluate((n) => performance.getEntriesByName(n).length, name);

test("a library file opened again is shown before its lines have come, and answers as the file does", async ({ page }) => {
  const whole = Session.fromText(TEXT);
  // an entry early in the file, whose context reaches back over many entries
  const id = String(whole.tree.entries[Math.floor(whole.tree.entries.length / 3)]!.id);
  const url = `${app.url}/view?file=${encodeURIComponent(REL)}&entry=${id}`;
  // the first open makes the light index, the server its snapshot
  await page.goto(url);
  await expect(page.locator('[data-load-phase="ready"] .react-flow__node').first()).toBeVisible({ timeout: 60_000 });
  await page.goto("about:blank");

  const frames: string[] = [];
  page.on("request", (request) => {
    const at = new URL(request.url());
    if (at.pathname === "/api/sessions/light" && at.searchParams.has("index")) frames.push(request.headers()["range"] ?? "");
  });
  const proxy = await holdingProxy(app.url);
  try {
    await reopened(page, proxy, id, whole);
  } finally {
    proxy.release();
    await proxy.close();
  }
  expect(frames.length).toBeGreaterThan(0);
  expect(frames.every((range) => /^bytes=\d+-\d+$/.test(range))).toBe(true);
});

async function reopened(page: Page, proxy: HoldingProxy, id: string, whole: Session): Promise<void> {
  const url = `${proxy.url}/view?file=${encodeURIComponent(REL)}&entry=${id}`;
  await page.goto(url);
  await expect(page.locator('[data-load-phase="ready"] .react-flow__node').first()).toBeVisible({ timeout: 60_000 });
  await expect(page.locator(`.react-flow__node[data-id="${id}"], .react-flow__node[data-entry-ids~="${id}"]`).first()).toBeVisible();
  // shown from the snapshot: its lines have not all come, and what it shows was read by frame
  expect(await measured(page, "session:restored")).toBe(1);
  expect(proxy.held()).toBe(1);
  expect(await measured(page, "session:lines")).toBe(0);
  // a card drawn from the index alone, its frame not read ahead, gets its words while the lines are still held
  await expect(page.locator('.react-flow__node [data-coming="true"]')).toHaveCount(0);
  expect(await measured(page, "session:lines")).toBe(0);

  // the selected entry's context, read before the lines came, is the file's
  const messages = whole.context(id).messages.length;
  await page.locator("#inspector-tab-context").click();
  await expect(page.locator("#inspector-panel-context")).toContainText(`${messages} message${messages === 1 ? "" : "s"}`);
  expect(await measured(page, "session:lines")).toBe(0);

  // the lines come, and the session goes on answering from them
  proxy.release();
  await expect.poll(() => measured(page, "session:lines"), { timeout: 60_000 }).toBe(1);
  const card = page.locator(".react-flow__node-entry").first();
  const other = (await card.getAttribute("data-id"))!;
  await card.click();
  const otherMessages = whole.context(other).messages.length;
  await expect(page.locator("#inspector-panel-context")).toContainText(`${otherMessages} message${otherMessages === 1 ? "" : "s"}`);
}
