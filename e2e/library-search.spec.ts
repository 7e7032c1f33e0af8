// GET /api/search against the e2e sessions dir: the JSON the CLI's `search --json` gives, filters, bad requests.
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { findSessionFiles } from "../lib/server/list-sessions";
import { searchLibrary } from "../lib/server/library-search";
import { SESSIONS_DIR } from "./fixtures/session-files";

test("GET /api/search answers as the library search does, with its filters", async ({ request }) => {
  const files = await findSessionFiles(SESSIONS_DIR);
  const cacheRoot = mkdtempSync(path.join(os.tmpdir(), "pi-search-e2e-"));
  for (const [params, filters] of [
    ["q=token+bucket", {}],
    ["q=redis&role=user", { role: "user" }],
    ["q=the&active=1&limit=20", { activeOnly: true }],
  ] as const) {
    const response = await request.get(`/api/search?${params}`);
    expect(response.status()).toBe(200);
    const query = new URLSearchParams(params).get("q")!;
    const limit = Number(new URLSearchParams(params).get("limit") ?? 50);
    const expected = await searchLibrary(SESSIONS_DIR, files, query, filters, { limit, cacheRoot });
    expect(await response.json()).toEqual(JSON.parse(JSON.stringify(expected.hits)));
    expect(expected.hits.length).toBeGreaterThan(0);
  }
  expect((await request.get("/api/search?q=")).status()).toBe(400);
  expect((await request.get("/api/search?q=x&since=yesterday")).status()).toBe(400);
});

/** The hits the page lists, in order: file and entry. */
async function listedHits(page: Page): Promise<string[]> {
  return page
    .getByTestId("search-hit")
    .evaluateAll((links) => links.map((link) => `${link.closest("[data-testid=hit-group]")!.getAttribute("data-path")} ${link.getAttribute("data-entry")}`));
}

/** What GET /api/search gives for the same query: the hits by session, sessions in the order of their best hit. */
async function expectedHits(request: APIRequestContext, params: string): Promise<{ hits: string[]; total: number; capped: boolean; copied: number }> {
  const response = await request.get(`/api/search?${params}&limit=50`);
  const hits = (await response.json()) as { file: string; entryId: string; alsoIn: number }[];
  const files = [...new Set(hits.map((hit) => hit.file))];
  return {
    hits: files.flatMap((file) => hits.filter((hit) => hit.file === file).map((hit) => `${file} ${hit.entryId}`)),
    total: Number(response.headers()["x-search-total"]),
    capped: response.headers()["x-search-capped"] === "1",
    copied: hits.filter((hit) => hit.alsoIn > 0).length,
  };
}

test("the library searches every session's contents and opens a hit at its entry", async ({ page, request }) => {
  await page.goto("/");
  await page.getByTestId("filter").fill("token bucket");
  // no session is named so: the list offers the contents instead
  await page.getByRole("button", { name: "Search their contents" }).click();
  await expect(page).toHaveURL(/\/\?q=token\+bucket$/);
  await expect(page.getByTestId("search-status")).toHaveAttribute("data-state", "done");

  const expected = await expectedHits(request, "q=token+bucket");
  expect(expected.hits.length).toBeGreaterThan(0);
  await expect.poll(() => listedHits(page)).toEqual(firstFive(expected.hits));
  await expect(page.getByTestId("search-status")).toContainText(`${expected.total} hits`);
  // the fork family's shared history is one hit, in its source, with the forks that copied it
  expect(expected.copied).toBeGreaterThan(0);
  await expect(page.getByTestId("hit-also-in").first()).toHaveText(/^also in \d+ forks?$/);

  const first = page.getByTestId("search-hit").first();
  const [file, entry] = expected.hits[0]!.split(" ");
  await expect(first.getByTestId("hit-snippet").locator("mark").first()).toHaveText(/^(token|bucket)/i);
  await first.click();
  await expect(page).toHaveURL(`/view?file=${encodeURIComponent(file!)}&entry=${entry}&q=token+bucket`);
  await expect(page.locator(`.react-flow__node [data-selected=true]`).first()).toBeVisible({ timeout: 30_000 });
  await expect(page.locator(`.react-flow__node[data-id="${entry}"], .react-flow__node[data-entry-ids~="${entry}"]`).first()).toBeVisible();
  await expect(page.getByTestId("search-input")).toHaveValue("token bucket");
});

/** Each session shows its first five hits until asked for more. */
function firstFive(hits: readonly string[]): string[] {
  const perFile = new Map<string, number>();
  return hits.filter((hit) => {
    const file = hit.split(" ")[0]!;
    perFile.set(file, (perFile.get(file) ?? 0) + 1);
    return perFile.get(file)! <= 5;
  });
}

test("the filters narrow the search as the API's do, and live in the URL", async ({ page, request }) => {
  await page.goto("/?q=the");
  await expect(page.getByTestId("search-status")).toHaveAttribute("data-state", "done");
  await expect(page.getByTestId("search-mode-contents")).toHaveAttribute("aria-checked", "true");
  // a common word: more hits than the index ranks, the newest 50 shown, then more on asking
  const all = await expectedHits(request, "q=the");
  expect(all.total).toBeGreaterThan(150);
  expect(all.capped).toBe(true);
  const count = all.total.toLocaleString("en-US");
  await expect(page.getByTestId("search-status")).toContainText(`${count}+ hits: the newest 50 shown`);
  await page.getByTestId("more-hits").click();
  await expect(page.getByTestId("search-status")).toContainText(`${count}+ hits: the newest 150 shown`);
  // a rarer word is ranked whole
  await page.getByTestId("filter").fill("token bucket");
  await expect(page.getByTestId("search-status")).toContainText(/^\d+ hits in \d+ sessions?, best first$/);
  await page.getByTestId("filter").fill("the");

  await page.getByTestId("filter-role").selectOption("user");
  await expect(page).toHaveURL(/\?q=the&role=user$/);
  await expect(page.getByTestId("search-status")).toHaveAttribute("data-state", "done");
  const users = await expectedHits(request, "q=the&role=user");
  await expect.poll(() => listedHits(page)).toEqual(firstFive(users.hits));

  await page.getByTestId("filter-active").check();
  await expect(page).toHaveURL(/\?q=the&role=user&active=1$/);
  await expect(page.getByTestId("search-status")).toHaveAttribute("data-state", "done");
  const active = await expectedHits(request, "q=the&role=user&active=1");
  await expect.poll(() => listedHits(page)).toEqual(firstFive(active.hits));
  expect(active.total).toBeLessThan(users.total);
  await expect(page.getByTestId("hit-branch").filter({ hasText: "other branch" })).toHaveCount(0);

  // the URL alone brings the same search back
  await page.reload();
  await expect(page.getByTestId("filter-role")).toHaveValue("user");
  await expect(page.getByTestId("filter-active")).toBeChecked();
  await expect(page.getByTestId("filter")).toHaveValue("the");
  await expect.poll(() => listedHits(page)).toEqual(firstFive(active.hits));

  // back to the list: the words carry over as its filter
  await page.getByTestId("search-mode-sessions").click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId("session-count")).toBeVisible();
});

test("the search names the lines it could not read, and shows the index's progress while it works", async ({ page }) => {
  await page.goto("/?q=the");
  await expect(page.getByTestId("search-status")).toHaveAttribute("data-state", "done");
  const status = (await (await page.request.get("/api/search/status")).json()) as { progress: unknown; unreadable: { file: string; line: number }[] };
  expect(status.progress).toBeNull();
  expect(status.unreadable.length).toBeGreaterThan(0);
  const notice = page.getByTestId("search-unreadable");
  await notice.locator("summary").click();
  for (const line of status.unreadable) await expect(notice).toContainText(`${line.file}:${line.line}`);

  // a first index of a large library: the answer held back while the server reports how far it has come
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/api\/search\?/, async (route) => {
    await held;
    await route.continue();
  });
  await page.route("/api/search/status", (route) => route.fulfill({ json: { progress: { done: 312, total: 1000, file: "--p--/a.jsonl" }, unreadable: null } }));
  await page.getByTestId("filter").fill("the bucket");
  const searching = page.locator("[data-testid=search-status][data-state=searching]");
  await expect(searching).toContainText("Indexing 312 of 1,000 sessions");
  await expect(searching.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "312");
  await page.unroute("/api/search/status");
  release();
  await expect(page.getByTestId("search-status")).toHaveAttribute("data-state", "done");
});
