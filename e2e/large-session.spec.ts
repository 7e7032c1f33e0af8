// A large generated session (10k entries, ≈ 15 MB, with multi-megabyte tool results and images): opened
// from disk and over HTTP, cancelled while loading, its huge content folded and virtualized, and the context of
// its deepest entry listed by a virtual list that keeps few rows in the DOM while it scrolls.
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { sessionChunks, type GenerateStats } from "../bench/generate";

// a big file on a busy 2-core machine: give every step room
test.describe.configure({ timeout: 180_000 });
const SLOW = { timeout: 90_000 };

let dir: string;
let file: string;
let stats: GenerateStats;
let server: http.Server;
let base: string;

test.beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "large-session-e2e-"));
  file = path.join(dir, "large.jsonl");
  const fd = openSync(file, "w");
  for (const chunk of sessionChunks(
    { entries: 10_000, seed: 7, hugeResultEvery: 2500, hugeResultChars: 2 * 1024 * 1024, imageChance: 0.01 },
    (s) => (stats = s),
  ))
    writeSync(fd, chunk);
  closeSync(fd);
});

test.beforeAll(async () => {
  // serves the file over HTTP (CORS, so ?src= can read it); /slow/ trickles it out, time to press Cancel
  server = http.createServer((req, res) => {
    const bytes = readFileSync(file);
    res.writeHead(200, { "content-type": "application/x-ndjson", "content-length": bytes.length, "access-control-allow-origin": "*" });
    if (!req.url?.startsWith("/slow/")) return void res.end(bytes);
    let offset = 0;
    const next = () => {
      if (res.destroyed) return;
      if (offset >= bytes.length) return void res.end();
      res.write(bytes.subarray(offset, (offset += 256 * 1024)));
      setTimeout(next, 500);
    };
    next();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

const ready = (page: Page) => expect(page.getByTestId("dropzone")).toHaveAttribute("data-load-phase", "ready", SLOW);
const viewSrc = (src: string, entry?: string) => `/view?src=${encodeURIComponent(src)}${entry ? `&entry=${encodeURIComponent(entry)}` : ""}`;

test("a picked 10k-entry file opens into a graph that answers clicks", async ({ page }) => {
  await page.goto("/view");
  await page.getByTestId("file-input").setInputFiles(file);
  await ready(page);
  const cards = page.locator(".react-flow__node");
  await expect(cards.first()).toBeVisible(SLOW);
  // only what is on screen is drawn: a handful of cards for 10,000 entries
  expect(await cards.count()).toBeLessThan(200);
  // the leaf is selected; a click on another entry card moves the selection
  expect(new URL(page.url()).searchParams.get("entry")).toBe(stats.leafId);
  const other = page.locator(`.react-flow__node-entry:not([data-id="${stats.leafId}"])`).first();
  const otherId = await other.getAttribute("data-id");
  await other.click();
  await expect.poll(() => new URL(page.url()).searchParams.get("entry"), SLOW).toBe(otherId);
});

test("Cancel stops a large load that is under way", async ({ page }) => {
  await page.goto(viewSrc(`${base}/slow/large.jsonl`));
  const progress = page.getByTestId("progress-text");
  await expect(progress).toContainText(/of/, SLOW);
  // some bytes arrived and were read, the rest is still coming
  await expect(progress).not.toHaveText(/^0 B/, SLOW);
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByText("Loading cancelled")).toBeVisible(SLOW);
  await expect(page.getByTestId("dropzone")).toHaveAttribute("data-load-phase", "error");
});

test("a multi-megabyte tool result is folded to its first lines; unfolded, only the lines in view are in the page", async ({ page }) => {
  const huge = stats.hugeResults[0]!;
  const entry = readFileSync(file, "utf8")
    .split("\n")
    .find((line) => line.includes(`"id":"${huge}"`))!;
  const text = (JSON.parse(entry) as { message: { content: { text: string }[] } }).message.content[0]!.text;
  const lastLine = text
    .split("\n")
    .filter((line) => line.trim())
    .at(-1)!
    .trim();
  await page.goto(viewSrc(`${base}/large.jsonl`, huge));
  await ready(page);
  const inspector = page.locator("#inspector");
  const more = inspector.getByRole("button", { name: `Show ${text.split("\n").length - 20} more lines` });
  await expect(more).toBeVisible(SLOW);
  await expect(inspector.locator('[data-folded="true"]')).toHaveCount(1);
  // the page holds the start of the output, not its 2 MB
  expect((await inspector.innerText()).length).toBeLessThan(100_000);
  await more.click();
  await expect(inspector.getByRole("button", { name: "Show fewer lines" })).toBeVisible(SLOW);
  // unfolded, still a small page: the lines are drawn as they scroll into view, down to the last one
  expect(await inspector.evaluate((el) => el.textContent!.length)).toBeLessThan(200_000);
  const output = inspector.locator('[data-tool-call-id] [role="group"]').last();
  await output.evaluate((el) => (el.scrollTop = el.scrollHeight));
  await expect(output).toContainText(lastLine.slice(0, 60));
});

test("the deepest entry's context is listed, and scrolling it keeps few rows in the DOM", async ({ page }) => {
  await page.goto(viewSrc(`${base}/large.jsonl`, stats.deepestId!));
  await ready(page);
  await page.locator("#inspector-tab-context").click();
  const list = page.getByTestId("context-list");
  const rows = list.locator('[role="listitem"]');
  await expect(rows.first()).toBeVisible(SLOW);
  const firstIndex = () => rows.first().getAttribute("data-index");
  expect(await firstIndex()).toBe("0");
  const total = await list.evaluate((el) => el.scrollHeight / el.clientHeight);
  // far more context than one screen
  expect(total).toBeGreaterThan(5);
  await list.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  await expect.poll(async () => Number(await firstIndex()), SLOW).toBeGreaterThan(50);
  expect(await rows.count()).toBeLessThan(80);
  await list.evaluate((el) => el.scrollTo({ top: el.scrollHeight / 2 }));
  await expect.poll(async () => Number(await firstIndex()), SLOW).toBeGreaterThan(10);
  expect(await rows.count()).toBeLessThan(80);
});
