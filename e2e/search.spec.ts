// Search on /view: the hit list and the count match lib/session/features/search.ts on the same file, the graph rings exactly
// the matching entries (folded segments count theirs), keyboard and shortcuts work, and the query survives a reload.
import { mkdirSync } from "node:fs";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { searchSession, type Session } from "../lib/session";
import { openFixture } from "./fixtures/core";
import { fitAll, viewportSettled } from "./fixtures/graph";
import { viewUrl, type FixtureName } from "./fixtures/session-files";

const SHOTS = "/tmp/shots-search";

test.describe.configure({ timeout: 120_000 });

/** A word from the file's own user prompts whose hits spread over a few entries (so the list and the graph have work). */
function queryFor(session: Session, min = 3, max = 40): string {
  for (const entry of session.tree.entries) {
    const message = entry.message as { role?: string; content?: unknown } | undefined;
    if (entry.type !== "message" || message?.role !== "user") continue;
    const text = typeof message.content === "string" ? message.content : JSON.stringify(message.content);
    for (const word of text.split(/[^A-Za-z]+/).filter((w) => w.length > 5)) {
      const n = searchSession(session, word).entryIds.size;
      if (n >= min && n <= max) return word;
    }
  }
  throw new Error("no word in the user prompts has a useful number of hits");
}

async function openGraph(page: Page, name: FixtureName, extra = ""): Promise<Locator> {
  await page.goto(viewUrl(name) + extra);
  const graph = page.getByTestId("session-graph");
  await expect(graph).toHaveAttribute("data-placed", "true", { timeout: 60_000 });
  return graph;
}

/** Entry ids the graph marks as hits: ringed cards, and the hit members of folded segments (by their badge count). */
async function graphHits(graph: Locator): Promise<{ cards: string[]; segments: { ids: string[]; hits: number }[] }> {
  return graph.evaluate((root) => ({
    cards: [...root.querySelectorAll<HTMLElement>("[data-search-hit=true]")].map((el) => el.dataset.entryId!),
    segments: [...root.querySelectorAll<HTMLElement>("[data-entry-ids]")].map((el) => ({
      ids: el.dataset.entryIds!.split(" "),
      hits: Number(el.dataset.searchHits ?? 0),
    })),
  }));
}

async function search(page: Page, query: string): Promise<void> {
  const input = page.getByTestId("search-input");
  await input.fill(query);
  await expect(page.getByTestId("search-results")).toBeVisible();
  // a session read on demand is searched through its file, its hits growing as they are found: wait for the end
  await expect(page.getByTestId("search-progress")).toHaveCount(0);
}

test("lists the core's hits for a query and rings exactly the matching entries", async ({ page }) => {
  const session = openFixture("ca-large");
  const query = queryFor(session, 3, 150);
  const expected = searchSession(session, query);
  const graph = await openGraph(page, "ca-large");
  await search(page, query.toUpperCase());

  const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
  await expect(page.getByTestId("search-count")).toHaveText(`${plural(expected.total, "hit", "hits")} · ${plural(expected.entryIds.size, "entry", "entries")}`);
  const rows = page.getByTestId("search-results").getByRole("option");
  await expect(rows).toHaveCount(expected.hits.length);
  const listed = await rows.evaluateAll((els) => els.map((el) => `${el.getAttribute("data-entry-id")}:${el.getAttribute("data-field")}`));
  expect(listed).toEqual(expected.hits.map((h) => `${h.entryId}:${h.field}`));
  const marks = await page.getByTestId("search-results").locator("mark").allTextContents();
  for (const mark of marks) expect(mark.toLowerCase()).toBe(query.toLowerCase());

  await fitAll(graph);
  const drawn = await graphHits(graph);
  const inSegments = drawn.segments.flatMap((s) => s.ids.filter((id) => expected.entryIds.has(id)));
  expect(new Set([...drawn.cards, ...inSegments])).toEqual(new Set(expected.entryIds));
  for (const card of drawn.cards) expect(expected.entryIds.has(card)).toBe(true);
  for (const segment of drawn.segments) expect(segment.hits).toBe(segment.ids.filter((id) => expected.entryIds.has(id)).length);

  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/search-light.png` });
});

test("a folded segment with hits shows its first hit, and Enter opens it there, selected", async ({ page }) => {
  const session = openFixture("ca-large");
  const query = queryFor(session, 3, 150);
  const expected = searchSession(session, query);
  const graph = await openGraph(page, "ca-large");
  await search(page, query);
  await page.getByTestId("search-input").press("Escape"); // the list closes; the search stays
  await fitAll(graph);
  const { segments } = await graphHits(graph);
  // a segment with hits below a card of its own: ↓ from that card lands on the segment
  const segment = segments.find((s) => {
    const parent = session.tree.parentOf(s.ids[0]!);
    return s.hits > 0 && parent !== null && session.tree.children(parent).length === 1;
  });
  expect(segment, "a folded segment holds hits").toBeDefined();
  const firstHit = segment!.ids.find((id) => expected.entryIds.has(id))!;
  const card = graph.locator(`[data-entry-ids="${segment!.ids.join(" ")}"]`);
  await expect(card.getByTestId("segment-first-hit")).toHaveAttribute("data-entry-id", firstHit);

  await graph.locator(`[data-entry-id="${session.tree.parentOf(segment!.ids[0]!)}"]`).click();
  await graph.focus();
  await page.keyboard.press("ArrowDown");
  await expect(card).toHaveAttribute("data-selected", "true");
  await viewportSettled(graph); // the step scrolled it into view at a readable zoom
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/search-segment-hit.png` });
  await page.keyboard.press("Enter");
  await expect(graph.locator(`[data-entry-id="${firstHit}"][data-selected=true]`)).toHaveCount(1);
  await expect(graph.locator(`[data-entry-id="${firstHit}"]`)).toBeInViewport();
  await expect(page).toHaveURL(new RegExp(`[?&]entry=${firstHit}`));
});

test("keys: / and Ctrl+K focus the box, arrows and Enter select a hit and bring the graph to it", async ({ page }) => {
  const session = openFixture("ca-branching-a");
  const query = queryFor(session, 2);
  const expected = searchSession(session, query);
  const graph = await openGraph(page, "ca-branching-a");
  const input = page.getByTestId("search-input");

  await graph.focus();
  await page.keyboard.press("/");
  await expect(input).toBeFocused();
  await input.press("Escape");
  await graph.focus();
  await page.keyboard.press("Control+k");
  await expect(input).toBeFocused();

  await page.keyboard.type(query);
  await expect(page.getByTestId("search-results").getByRole("option")).toHaveCount(expected.hits.length);
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/search-list-light.png` });
  await input.press("ArrowDown");
  await input.press("Enter");
  const chosen = expected.hits[1 % expected.hits.length]!.entryId;
  await expect(graph.locator(`[data-selected=true][data-entry-id="${chosen}"], [data-selected=true][data-selected-entry-id="${chosen}"]`)).toHaveCount(1);
  await expect(graph.locator(`[data-entry-id="${chosen}"]`)).toBeInViewport();
  await expect(page).toHaveURL(new RegExp(`[?&]entry=${chosen}`));
  await expect(page).toHaveURL(new RegExp(`[?&]q=${query}`));

  // a click on a row selects its entry too
  const last = expected.hits[expected.hits.length - 1]!.entryId;
  await page.getByTestId("search-results").getByRole("option").last().click();
  await expect(graph.locator(`[data-selected=true][data-entry-id="${last}"], [data-selected=true][data-selected-entry-id="${last}"]`)).toHaveCount(1);

  // Escape closes the list, a second Escape clears the search and its rings
  await input.focus();
  await input.press("Escape");
  await expect(page.getByTestId("search-results")).toHaveCount(0);
  await input.press("Escape");
  await expect(input).toHaveValue("");
  await expect(graph.locator("[data-search-hit=true]")).toHaveCount(0);
  await expect(page).not.toHaveURL(/[?&]q=/);
});

test("a deep link with q= restores the search; the dark theme keeps the rings visible", async ({ page }) => {
  const session = openFixture("ca-labels");
  const label = [...session.labels().values()][0]!.label;
  const expected = searchSession(session, label);
  const graph = await openGraph(page, "ca-labels", `&q=${encodeURIComponent(label)}`);
  await expect(page.getByTestId("search-input")).toHaveValue(label);
  await fitAll(graph);
  // the restored query searches the file, its hits growing as they are found: the rings are checked until all came
  const ringed = async () => {
    const drawn = await graphHits(graph);
    const inSegments = drawn.segments.flatMap((s) => s.ids.filter((id) => expected.entryIds.has(id)));
    return [...new Set([...drawn.cards, ...inSegments])].sort();
  };
  await expect.poll(ringed).toEqual([...expected.entryIds].sort());

  await page.getByTestId("theme-toggle").click();
  await expect(page.locator("html")).toHaveClass(/dark/);
  await page.getByTestId("search-input").focus();
  await expect(page.getByTestId("search-results").getByRole("option")).toHaveCount(expected.hits.length);
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/search-dark.png` });
});
