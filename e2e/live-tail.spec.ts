// Live tail: a session file that grows while the viewer has it open. The app runs from `npm start -- DIR` on a
// temporary sessions directory (so no other spec sees the growing file); expected ids and leaves come from the
// core library reading the file as it is on disk.
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { Session } from "../lib/session";
import { drawnIds, fitAll, viewportSettled } from "./fixtures/graph";
import { serveCli, type ServedApp } from "./fixtures/serve-cli";
import { sessionFile } from "./fixtures/session-files";

test.describe.configure({ mode: "serial", timeout: 180_000 });

const PROJECT = "--home-dev-live--";
let dir: string;
let app: ServedApp;
let counter = 0;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dir = mkdtempSync(path.join(os.tmpdir(), "pi-live-e2e-"));
  mkdirSync(path.join(dir, PROJECT));
  app = await serveCli(dir);
});

// the printed address would set the server's cookie; the tests open addresses of their own
test.beforeEach(({ context }) => app.signIn(context));

test.afterAll(async () => {
  await app?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A fresh copy of a fixture in the temporary sessions dir; returns its absolute path and library path. */
function copyFixture(): { file: string; rel: string } {
  const name = `live-${++counter}.jsonl`;
  const file = path.join(dir, PROJECT, name);
  copyFileSync(sessionFile("ca-branching-a"), file);
  return { file, rel: `${PROJECT}/${name}` };
}

const read = (file: string) => Session.fromText(readFileSync(file, "utf8"));

/** A user message entry as pi writes it, child of `parentId`. */
function userLine(id: string, parentId: string | null, text: string): string {
  return (
    JSON.stringify({
      type: "message",
      id,
      parentId,
      timestamp: new Date(Date.UTC(2026, 5, 1, 12, 0, counter)).toISOString(),
      message: { role: "user", content: text, timestamp: Date.UTC(2026, 5, 1) },
    }) + "\n"
  );
}

function newId(): string {
  return `live${(++counter).toString(16).padStart(4, "0")}`;
}

async function open(page: Page, rel: string, entry?: string): Promise<Locator> {
  await page.goto(`${new URL(app.url).origin}/view?file=${encodeURIComponent(rel)}${entry ? `&entry=${entry}` : ""}`);
  const graph = page.getByTestId("session-graph");
  await expect(graph).toHaveAttribute("data-placed", "true", { timeout: 90_000 });
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-status", "live", { timeout: 30_000 });
  return graph;
}

/** The graph shows exactly the entries the file holds now, each once, and the leaf pi would continue from. */
async function expectShowsFile(page: Page, graph: Locator, file: string): Promise<Session> {
  const session = read(file);
  await fitAll(graph); // every node drawn
  await expect.poll(async () => (await drawnIds(graph)).sort(), { timeout: 30_000 }).toEqual([...session.tree.ids()].sort());
  await expect(page.getByTestId("leaf-id")).toHaveText(session.leafId!);
  await expect(graph.locator(`[data-entry-id="${session.leafId}"][data-leaf="true"]`)).toHaveCount(1);
  return session;
}

const viewport = (page: Page) => page.locator(".react-flow__viewport").evaluate((el: HTMLElement) => el.style.transform);
const selectedId = (graph: Locator) =>
  graph
    .locator("[data-selected=true]")
    .first()
    .evaluate((el: HTMLElement) => el.dataset.entryId ?? el.dataset.selectedEntryId ?? null);

test("appended lines appear as new nodes and move the leaf, and the view stays put without Follow", async ({ page }) => {
  const { file, rel } = copyFixture();
  const graph = await open(page, rel);
  const before = read(file);
  await graph.locator(`[data-entry-id="${before.leafId}"]`).click();
  await viewportSettled(graph);
  const view = await viewport(page);
  const selected = await selectedId(graph);

  const a = newId();
  const b = newId();
  appendFileSync(file, userLine(a, before.leafId, "first live line") + userLine(b, a, "second live line"));
  await expect(graph.locator(`[data-entry-id="${b}"]`)).toHaveCount(1, { timeout: 30_000 });
  await expect(page.getByTestId("leaf-id")).toHaveText(b);
  await expect(graph.locator(`[data-entry-id="${b}"][data-leaf="true"]`)).toHaveCount(1);
  expect(await viewport(page)).toBe(view);
  expect(await selectedId(graph)).toBe(selected);
  await expect(page.getByTestId("entry-count")).toHaveText(`${read(file).account().entry} entries`);
  await expectShowsFile(page, graph, file);
});

test("a line written in two parts becomes exactly one entry once its newline arrives", async ({ page }) => {
  const { file, rel } = copyFixture();
  const graph = await open(page, rel);
  const banners = await page.getByTestId("diagnostics-banner").count();
  const leaf = read(file).leafId;
  const id = newId();
  const line = userLine(id, leaf, "split ✓ across two writes");
  const cut = line.indexOf("✓") + 1; // inside the multi-byte character, too
  const bytes = Buffer.from(line);
  const cutBytes = Buffer.byteLength(line.slice(0, cut)) - 1;
  appendFileSync(file, bytes.subarray(0, cutBytes));
  await page.waitForTimeout(2500); // longer than the server's poll: it has seen the torn line and held it
  await expect(graph.locator(`[data-entry-id="${id}"]`)).toHaveCount(0);
  await expect(page.getByTestId("leaf-id")).toHaveText(leaf!);
  appendFileSync(file, bytes.subarray(cutBytes));
  await expect(graph.locator(`[data-entry-id="${id}"]`)).toHaveCount(1, { timeout: 30_000 });
  const session = await expectShowsFile(page, graph, file);
  expect(session.leafId).toBe(id);
  await expect(page.getByTestId("diagnostics-banner")).toHaveCount(banners); // no torn line left behind
});

test("a file opened with its last line half written shows that line once the rest is written", async ({ page }) => {
  const { file, rel } = copyFixture();
  const id = newId();
  const line = Buffer.from(userLine(id, read(file).leafId, "torn when the page opened"));
  const half = Math.floor(line.length / 2);
  appendFileSync(file, line.subarray(0, half));
  const graph = await open(page, rel);
  await expect(page.getByTestId("diagnostics-banner")).toContainText("1 line could not be read"); // pi would skip it now
  await expect(graph.locator(`[data-entry-id="${id}"]`)).toHaveCount(0);
  appendFileSync(file, line.subarray(half));
  await expect(graph.locator(`[data-entry-id="${id}"]`)).toHaveCount(1, { timeout: 30_000 });
  await expectShowsFile(page, graph, file);
  await expect(page.getByText("could not be read")).toHaveCount(0);
});

test("lines written while the server is down arrive once after the browser reconnects", async ({ page }) => {
  const { file, rel } = copyFixture();
  const graph = await open(page, rel);
  let parent = read(file).leafId;
  const before = newId();
  appendFileSync(file, userLine(before, parent, "before the drop"));
  await expect(graph.locator(`[data-entry-id="${before}"]`)).toHaveCount(1, { timeout: 30_000 });
  parent = before;

  await app.stop(); // the connection drops; EventSource retries with Last-Event-ID
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-status", "reconnecting", { timeout: 30_000 });
  const during: string[] = [];
  for (let i = 0; i < 3; i++) {
    const id = newId();
    appendFileSync(file, userLine(id, parent, `while disconnected ${i}`));
    during.push(id);
    parent = id;
  }
  app = await serveCli(dir, app.port);
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-status", "live", { timeout: 60_000 });
  await expect(graph.locator(`[data-entry-id="${during[2]}"]`)).toHaveCount(1, { timeout: 30_000 });
  await expectShowsFile(page, graph, file);
});

test("pausing and resuming goes on from the byte where it stopped", async ({ page }) => {
  const { file, rel } = copyFixture();
  const graph = await open(page, rel);
  const status = page.getByTestId("live-status");
  await status.click();
  await expect(status).toHaveAttribute("data-status", "paused");
  let parent = read(file).leafId;
  const ids: string[] = [];
  for (let i = 0; i < 2; i++) {
    const id = newId();
    appendFileSync(file, userLine(id, parent, `while paused ${i}`));
    ids.push(id);
    parent = id;
  }
  await page.waitForTimeout(2500); // paused: nothing may arrive
  await expect(graph.locator(`[data-entry-id="${ids[0]}"]`)).toHaveCount(0);
  await status.click();
  await expect(status).toHaveAttribute("data-status", "live", { timeout: 30_000 });
  await expect(graph.locator(`[data-entry-id="${ids[1]}"]`)).toHaveCount(1, { timeout: 30_000 });
  await expectShowsFile(page, graph, file);
});

test("with Follow on, the selection follows each new leaf", async ({ page }) => {
  const { file, rel } = copyFixture();
  const root = [...read(file).tree.nodes()].find((n) => n.parentId === null)!.entry.id;
  const graph = await open(page, rel, root);
  await expect.poll(() => selectedId(graph)).toBe(root);

  const follow = page.getByTestId("follow-toggle");
  await expect(follow).toHaveAttribute("aria-pressed", "false"); // off by default
  await follow.click();
  await expect(follow).toHaveAttribute("aria-pressed", "true");
  await expect.poll(() => selectedId(graph)).toBe(read(file).leafId); // turning it on goes to the leaf

  const id = newId();
  const before = read(file).leafId!;
  appendFileSync(file, userLine(id, before, "followed"));
  await expect(graph.locator(`[data-entry-id="${id}"][data-selected="true"]`)).toHaveCount(1, { timeout: 30_000 });
  await expect(page).toHaveURL(new RegExp(`entry=${id}`));

  // choosing another entry (the one just above, on screen) stops following: what comes next does not take it away
  await graph.locator(`[data-entry-id="${before}"]`).click();
  await expect(follow).toHaveAttribute("aria-pressed", "false");
  const later = newId();
  appendFileSync(file, userLine(later, id, "not followed"));
  await expect(page.getByTestId("leaf-id")).toHaveText(later, { timeout: 30_000 });
  await expect(page).toHaveURL(new RegExp(`entry=${before}`));
  await expect(follow).toHaveAttribute("aria-pressed", "false");
});

test("a file rewritten under the page is read again", async ({ page }) => {
  const { file, rel } = copyFixture();
  const graph = await open(page, rel);
  writeFileSync(file, readFileSync(sessionFile("ca-tiny"))); // in place: shorter, other content
  await expect(page.getByTestId("leaf-id")).toHaveText(read(file).leafId!, { timeout: 30_000 });
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-status", "live", { timeout: 30_000 });
  await expectShowsFile(page, graph, file);
});
