// A fork in the viewer: the banner naming its source at the fork point, the inherited marks on the cards it copied,
// the way to its source and forks, and "Compare with source" (the two files as one tree, compared leaf to leaf).
// Expected values come from the files pi 1.6.0 wrote (e2e/fixtures/sessions/--home-dev-projects-forks*), read here.
import { expect, test, type Page } from "@playwright/test";
import type { Session, SessionEntry } from "../lib/session";
import { expectedTitle, openFixture } from "./fixtures/core";
import { fitAll } from "./fixtures/graph";
import { SESSION_FILES, viewUrl, type FixtureName } from "./fixtures/session-files";

test.describe.configure({ timeout: 90_000 });

const withoutParent = (entry: SessionEntry) => JSON.stringify({ ...entry, parentId: undefined });

/** The entries of `fork` its source holds with the same id and content (place aside), in file order. */
function inherited(fork: FixtureName, source: FixtureName): string[] {
  const from = openFixture(source);
  return openFixture(fork)
    .tree.entries.filter((entry) => {
      const there = from.tree.get(entry.id as string);
      return there !== undefined && withoutParent(there) === withoutParent(entry);
    })
    .map((entry) => entry.id as string);
}

async function open(page: Page, url: string) {
  await page.goto(url);
  const graph = page.getByTestId("session-graph");
  await expect(graph).toHaveAttribute("data-placed", "true", { timeout: 60_000 });
  return graph;
}

/** Unfolds every folded run, so each entry has its own card. */
async function unfoldAll(page: Page) {
  for (let i = 0; i < 20; i++) {
    const segment = page.locator("[data-segment]").first();
    if ((await segment.count()) === 0) return;
    await segment.click();
  }
}

const lastText = (session: Session, id: string) => ((session.tree.get(id)!.message as { content: { text: string }[] }).content[0]!.text as string).slice(0, 30);

test("a fork's banner names its source at the fork point, and its copied cards are marked inherited", async ({ page }) => {
  const graph = await open(page, viewUrl("fork-b"));
  const copied = inherited("fork-b", "fork-a");
  const banner = page.getByTestId("fork-banner");
  await expect(banner.getByTestId("fork-source-link")).toHaveText(expectedTitle(openFixture("fork-a"))!);
  await expect(banner.getByTestId("inherited-count")).toHaveText(`· ${copied.length} entries inherited`);
  const point = copied.at(-1)!;
  await expect(banner.getByTestId("fork-source-entry")).toContainText(lastText(openFixture("fork-b"), point));
  await expect(banner.getByTestId("fork-source-link")).toHaveAttribute("href", `/view?file=${encodeURIComponent(SESSION_FILES["fork-a"])}&entry=${point}`);

  // a folded run says how much of it was inherited
  const segments = await graph
    .locator("[data-segment]")
    .evaluateAll((els) => els.map((el) => [el.getAttribute("data-entry-ids")!.split(" "), el.getAttribute("data-inherited")] as const));
  expect(segments.length).toBeGreaterThan(0);
  for (const [ids, mark] of segments) {
    const n = ids.filter((id) => copied.includes(id)).length;
    expect(mark, ids.join(" ")).toBe(n === 0 ? null : n === ids.length ? "all" : String(n));
  }
  expect(segments.some(([, mark]) => mark !== null)).toBe(true);

  await unfoldAll(page);
  await fitAll(graph);
  const cards = await graph
    .locator("[data-entry-id]")
    .evaluateAll((els) => els.map((el) => [el.getAttribute("data-entry-id")!, el.getAttribute("data-inherited") === "true"] as const));
  const all = openFixture("fork-b").tree.entries.map((e) => e.id as string);
  expect(cards.map(([id]) => id).sort()).toEqual([...all].sort());
  for (const [id, marked] of cards) expect(marked, id).toBe(copied.includes(id));
  expect(cards.some(([, marked]) => !marked)).toBe(true);
  await page.screenshot({ path: "test-results/forks-inherited.png" });
});

test("the source link opens the source at the fork point; a source lists its forks", async ({ page }) => {
  await open(page, viewUrl("fork-b"));
  await page.getByTestId("fork-source-link").click();
  const point = inherited("fork-b", "fork-a").at(-1)!;
  await expect(page.getByTestId("session-title")).toHaveText(expectedTitle(openFixture("fork-a"))!, { timeout: 60_000 });
  await expect.poll(() => new URL(page.url()).searchParams.get("entry")).toBe(point);
  const forks = page.getByTestId("fork-children");
  await expect(forks).toContainText("1 fork:");
  await expect(forks.getByTestId("fork-child-link")).toHaveText(expectedTitle(openFixture("fork-b"))!);

  await open(page, viewUrl("fork-source"));
  await expect(page.getByTestId("fork-children")).toContainText("2 forks:");
  await expect(page.getByTestId("fork-source")).toHaveCount(0);
});

test("Compare with source opens the fork and its source as one tree, compared leaf to leaf from the fork point", async ({ page }) => {
  await open(page, viewUrl("fork-a"));
  await page.getByTestId("compare-with-source").click();
  await expect(page.getByTestId("with-source-banner")).toBeVisible({ timeout: 60_000 });
  const compare = page.getByTestId("compare-view");
  await expect(compare).toBeVisible({ timeout: 60_000 });
  const source = openFixture("fork-source");
  const fork = openFixture("fork-a");
  const url = new URL(page.url());
  expect(url.searchParams.get("entry")).toBe(source.leafId);
  expect(url.searchParams.get("compare")).toBe(fork.leafId);
  // the two leaves meet where the fork left its source
  await expect(compare.getByTestId("compare-ancestor")).toHaveAttribute("data-entry-id", inherited("fork-a", "fork-source").at(-1)!);
  // every entry of both files is in the one tree, each once
  const ids = new Set([...source.tree.entries, ...fork.tree.entries].map((e) => e.id as string));
  await expect(page.getByTestId("entry-count")).toHaveText(`${ids.size} entries`);
  await page.screenshot({ path: "test-results/forks-compare-with-source.png" });
  await page.getByRole("link", { name: "Open the fork alone" }).click();
  await expect(page.getByTestId("fork-banner")).toBeVisible({ timeout: 60_000 });
});
