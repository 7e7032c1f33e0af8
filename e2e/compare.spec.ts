// Comparing two entries: opened by Shift+click, by "Compare with…" and by deep link; the ancestor, the segments
// and the three context lists against lib/session/features/compare.ts on the same file; graph marks; reload; Close.
import { mkdirSync } from "node:fs";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { compareNodes, type Comparison, type Session } from "../lib/session";
import { openFixture } from "./fixtures/core";
import { fitAll, viewportSettled } from "./fixtures/graph";
import { viewUrl, type FixtureName } from "./fixtures/session-files";

const SHOTS = "/tmp/shots-compare";

test.describe.configure({ timeout: 120_000 });

/** Entries without children: the ends of lines. */
function treeLeaves(session: Session): string[] {
  return [...session.tree.ids()].filter((id) => session.tree.children(id).length === 0);
}

/** Pairs of leaves that diverge after a shared ancestor and whose contexts both hold messages of their own. */
function divergentPairs(session: Session): { a: string; b: string; result: Comparison }[] {
  const leaves = treeLeaves(session);
  const out: { a: string; b: string; result: Comparison }[] = [];
  for (const a of leaves) {
    for (const b of leaves) {
      if (a === b) continue;
      const result = compareNodes(session, a, b);
      if (result.commonAncestorId && result.onlyInA.length && result.onlyInB.length && result.shared.length) out.push({ a, b, result });
    }
  }
  return out;
}

async function openViewer(page: Page, url: string): Promise<Locator> {
  await page.goto(url);
  const graph = page.getByTestId("session-graph");
  await expect(graph).toHaveAttribute("data-placed", "true", { timeout: 90_000 });
  return graph;
}

/** Every row's data-entry-id of a (virtual) list, in order: the list is scrolled through to its end. */
async function listIds(section: Locator): Promise<string[]> {
  const scroller = section.locator("div.overflow-auto").first();
  if ((await scroller.count()) === 0) return [];
  return scroller.evaluate(async (el) => {
    const seen = new Map<number, string>();
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    el.scrollTop = 0;
    await frame();
    for (let guard = 0; guard < 500; guard++) {
      for (const row of el.querySelectorAll<HTMLElement>("[data-index][data-entry-id]")) seen.set(Number(row.dataset.index), row.dataset.entryId!);
      if (el.scrollTop + el.clientHeight >= el.scrollHeight - 1) break;
      el.scrollTop += Math.max(20, el.clientHeight - 30);
      await frame();
    }
    return [...seen.entries()].sort((x, y) => x[0] - y[0]).map(([, id]) => id);
  });
}

async function expectComparison(page: Page, result: Comparison): Promise<void> {
  const view = page.getByTestId("compare-view");
  await expect(view).toBeVisible({ timeout: 30_000 });
  await expect(view.getByTestId("compare-a")).toHaveAttribute("data-entry-id", result.a.id);
  await expect(view.getByTestId("compare-b")).toHaveAttribute("data-entry-id", result.b.id);
  await expect(view.getByTestId("compare-ancestor")).toHaveAttribute("data-entry-id", result.commonAncestorId!);
  await expect(view.getByRole("heading", { name: /^Only in A/ })).toBeVisible();
  await expect(view.getByRole("heading", { name: /^Only in B/ })).toBeVisible();
  await expect(view.getByRole("heading", { name: /^Shared/ })).toBeVisible();
  expect(await listIds(view.getByTestId("compare-only-a"))).toEqual(result.onlyInA.map((m) => m.entryId));
  expect(await listIds(view.getByTestId("compare-only-b"))).toEqual(result.onlyInB.map((m) => m.entryId));
  expect(await listIds(view.getByTestId("compare-shared"))).toEqual(result.shared.map((m) => m.entryId));
  expect(await listIds(view.getByTestId("compare-segment-a"))).toEqual(result.a.segment);
  expect(await listIds(view.getByTestId("compare-segment-b"))).toEqual(result.b.segment);
}

/** Opens the viewer on A of a pair whose two cards the graph draws (not folded away), everything in view. */
async function openOnDrawnPair(page: Page, name: FixtureName, pairs: { a: string; b: string; result: Comparison }[], pick: "first" | "last" = "first") {
  const graph = await openViewer(page, viewUrl(name, pairs[0]!.a));
  await fitAll(graph);
  const drawn = new Set(await graph.locator("[data-entry-id]").evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.entryId!)));
  const candidates = pairs.filter((p) => drawn.has(p.a) && drawn.has(p.b));
  expect(candidates.length, "a pair whose two cards are drawn").toBeGreaterThan(0);
  const pair = pick === "first" ? candidates[0]! : candidates.at(-1)!;
  if (pair.a !== pairs[0]!.a) {
    await openViewer(page, viewUrl(name, pair.a));
    await fitAll(graph);
  }
  return { graph, pair };
}

function compareUrl(name: FixtureName, a: string, b: string): string {
  return `${viewUrl(name, a)}&compare=${encodeURIComponent(b)}`;
}

test("Shift+click compares the selection with another entry; the graph marks both lines; reload keeps it; Close returns", async ({ page }) => {
  const name = "ca-branching-a";
  const session = openFixture(name);
  const pairs = divergentPairs(session);
  expect(pairs.length).toBeGreaterThan(0);
  const { graph, pair } = await openOnDrawnPair(page, name, pairs);

  await graph.locator(`[data-entry-id="${pair.b}"]`).click({ modifiers: ["Shift"] });
  await expectComparison(page, pair.result);
  await expect(page).toHaveURL(new RegExp(`entry=${pair.a}&compare=${pair.b}`));

  await expect(graph.locator("[data-compare=a]")).toHaveAttribute("data-entry-id", pair.a);
  await expect(graph.locator("[data-compare=b]")).toHaveAttribute("data-entry-id", pair.b);
  await expect(graph.locator("[data-compare=ancestor]")).toHaveAttribute("data-entry-id", pair.result.commonAncestorId!);
  const segmentMarks = await graph
    .locator("[data-compare=segment-a], [data-compare=segment-b]")
    .evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.entryId!));
  const segments = new Set([...pair.result.a.segment, ...pair.result.b.segment]);
  for (const id of segmentMarks) expect(segments.has(id)).toBe(true);

  mkdirSync(SHOTS, { recursive: true });
  await page.emulateMedia({ colorScheme: "light" });
  await page.screenshot({ path: `${SHOTS}/compare-light.png` });

  await page.reload();
  await expectComparison(page, pair.result);

  // the ancestor is a link: it becomes the selection, the comparison stays
  await page.getByTestId("compare-ancestor").getByRole("button").click();
  await expect(graph.locator("[data-selected=true]")).toHaveAttribute("data-entry-id", pair.result.commonAncestorId!);
  await expect(page.getByTestId("compare-a")).toHaveAttribute("data-entry-id", pair.a);

  await page.getByTestId("compare-close").click();
  await expect(page.getByTestId("compare-view")).toHaveCount(0);
  await expect(page.getByRole("tablist", { name: "Inspector" })).toBeVisible();
  await expect(graph.locator("[data-compare]")).toHaveCount(0);
  await expect(page).not.toHaveURL(/compare=/);
});

test("Compare with… waits for a click in the graph, and Esc cancels it", async ({ page }) => {
  const name = "ca-branching-a";
  const session = openFixture(name);
  const { graph, pair } = await openOnDrawnPair(page, name, divergentPairs(session), "last");

  const button = page.getByRole("button", { name: "Compare with…" });
  await button.click();
  await expect(page.getByTestId("compare-pick")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("compare-pick")).toHaveCount(0);

  await button.click();
  await expect(page.getByTestId("compare-pick")).toBeVisible();
  await graph.locator(`[data-entry-id="${pair.b}"]`).click();
  await expect(page.getByTestId("compare-pick")).toHaveCount(0);
  await expectComparison(page, pair.result);
});

for (const name of ["ca-compaction-a", "ca-compaction-multi-a"] as const) {
  test(`deep link /view?file=…&entry=A&compare=B on ${name} shows what compareNodes computes`, async ({ page }) => {
    const session = openFixture(name);
    const pairs = divergentPairs(session);
    expect(pairs.length).toBeGreaterThan(0);
    // prefer a pair where a compaction makes the contexts differ beyond the two segments
    const pair = pairs.find((p) => p.result.onlyInA.some((m) => !p.result.a.segment.includes(m.entryId))) ?? pairs[0]!;
    await openViewer(page, compareUrl(name, pair.a, pair.b));
    await expectComparison(page, pair.result);
    const facts = page.getByTestId("compare-settings");
    await expect(facts.getByRole("row", { name: /Model/ })).toHaveAttribute("data-differs", String(pair.result.modelDiffers));
  });
}

test("a deep link where A is an ancestor of B brings both cards whole into view, and says A lies on B's path", async ({ page }) => {
  const name = "ca-large";
  const session = openFixture(name);
  const b = session.leafId!;
  const path = session.branch(b);
  const a = path[Math.floor(path.length / 4)]!.id; // far above B: a fit of both must zoom out
  const result = compareNodes(session, a, b);
  expect(result.commonAncestorId).toBe(a);
  const graph = await openViewer(page, compareUrl(name, a, b));
  await expect(page.getByTestId("compare-view")).toBeVisible({ timeout: 30_000 });
  await viewportSettled(graph);
  const pane = (await graph.boundingBox())!;
  for (const id of [a, b]) {
    const card = (await graph.locator(`[data-entry-id="${id}"]`).first().boundingBox())!;
    expect(card, `${id} is drawn`).not.toBeNull();
    expect(card.x, `${id} starts inside the pane`).toBeGreaterThanOrEqual(pane.x);
    expect(card.y).toBeGreaterThanOrEqual(pane.y);
    expect(card.x + card.width, `${id} ends inside the pane`).toBeLessThanOrEqual(pane.x + pane.width);
    expect(card.y + card.height).toBeLessThanOrEqual(pane.y + pane.height);
  }
  await expect(page.getByTestId("compare-segment-a")).toContainText("A is the common ancestor: it lies on B's path");
  expect(await listIds(page.getByTestId("compare-segment-b"))).toEqual(result.b.segment);
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/compare-ancestor.png` });
});

test("the compare pane in the dark theme", async ({ page }) => {
  const name = "ca-compaction-multi-a";
  const session = openFixture(name);
  const pair = divergentPairs(session)[0]!;
  await page.emulateMedia({ colorScheme: "dark" });
  await openViewer(page, compareUrl(name, pair.a, pair.b));
  await expectComparison(page, pair.result);
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/compare-dark.png` });
});
