// The graph's filter on /view: for each of pi's /tree modes, and for hidden entry types and roles, the graph draws
// exactly the entries lib/layout/tree-filter.ts keeps, hung from their nearest shown ancestor; the filter is in the URL
// and survives a reload; a selection the filter hides is announced.
import { mkdirSync } from "node:fs";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { filteredParents, NO_FILTER, TREE_FILTER_MODES, type TreeFilter } from "../lib/layout/tree-filter";
import type { Session } from "../lib/session";
import { openFixture } from "./fixtures/core";
import { drawnIds, fitAll } from "./fixtures/graph";
import { viewUrl, type FixtureName } from "./fixtures/session-files";

const SHOTS = "/tmp/shots-search";

test.describe.configure({ timeout: 120_000 });

async function openGraph(page: Page, name: FixtureName, extra = ""): Promise<Locator> {
  await page.goto(viewUrl(name) + extra);
  const graph = page.getByTestId("session-graph");
  await expect(graph).toHaveAttribute("data-placed", "true", { timeout: 60_000 });
  return graph;
}

/** Every entry id the graph draws (cards, cursor markers, members of folded segments), once the drawing settles. */
async function settledIds(graph: Locator): Promise<string[]> {
  await fitAll(graph);
  return drawnIds(graph);
}

/** Tree edges as drawn (display keys: entry ids, or `seg:<first id>` for folded runs). */
async function drawnEdges(graph: Locator): Promise<string[]> {
  return graph.evaluate((root) =>
    [...root.querySelectorAll<SVGElement>("[data-testid^='rf__edge-tree:']")].map((el) => el.dataset.testid!.slice("rf__edge-tree:".length)),
  );
}

/** The display keys each entry lands in, for comparing edges: a folded member maps to its segment's key. */
async function keyOfDrawn(graph: Locator): Promise<Map<string, string>> {
  const pairs = await graph.evaluate((root) =>
    [...root.querySelectorAll<HTMLElement>("[data-entry-id], [data-entry-ids]")].flatMap((el) =>
      el.dataset.entryIds !== undefined
        ? el.dataset.entryIds.split(" ").map((id) => [id, `seg:${el.dataset.segment}`])
        : [[el.dataset.entryId!, el.dataset.entryId!]],
    ),
  );
  return new Map(pairs as [string, string][]);
}

async function chooseMode(page: Page, mode: string): Promise<void> {
  await page.getByTestId("filter-button").click();
  await page.getByTestId(`filter-mode-${mode}`).click();
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByTestId("filter-button")).toHaveAttribute("data-filter-mode", mode);
}

function expectedShown(session: Session, filter: TreeFilter): Map<string, string | null> {
  return filteredParents(session, filter);
}

for (const name of ["ca-labels", "ca-branching-a"] as const) {
  test(`each of pi's /tree modes draws the entries tree-filter.ts keeps in ${name}`, async ({ page }) => {
    const session = openFixture(name);
    const graph = await openGraph(page, name);
    for (const mode of TREE_FILTER_MODES) {
      await chooseMode(page, mode);
      const expected = expectedShown(session, { ...NO_FILTER, mode });
      const ids = await settledIds(graph);
      expect(ids.length, mode).toBe(expected.size);
      expect(new Set(ids), mode).toEqual(new Set(expected.keys()));
      await expect(page.getByTestId("filter-shown")).toHaveText(`${expected.size}/${session.tree.size}`);

      // every drawn edge joins an entry to its nearest shown ancestor
      const keyOf = await keyOfDrawn(graph);
      const edges = new Set(await drawnEdges(graph));
      for (const [id, parent] of expected) {
        if (parent === null || keyOf.get(parent) === keyOf.get(id)) continue;
        expect(edges.has(`${keyOf.get(parent)}>${keyOf.get(id)}`), `${mode}: ${parent} → ${id}`).toBe(true);
      }
    }
    await chooseMode(page, "none");
    expect(new Set(await settledIds(graph))).toEqual(new Set(session.tree.ids()));
  });
}

test("hiding entry types and roles redraws the graph, and the filter survives a reload", async ({ page }) => {
  const session = openFixture("ca-roles-a");
  const graph = await openGraph(page, "ca-roles-a");
  await page.getByTestId("filter-button").click();
  await page.getByTestId("filter-role-toolResult").click();
  await page.getByTestId("filter-type-model_change").click();
  await page.getByTestId("filter-mode-all").click();
  const filter: TreeFilter = { mode: "all", hiddenTypes: new Set(["model_change"]), hiddenRoles: new Set(["toolResult"]) };
  const expected = expectedShown(session, filter);
  await expect(page.getByTestId("filter-role-toolResult")).toHaveAttribute("aria-pressed", "false");
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/filter-panel.png` });
  await page.getByRole("button", { name: "Done" }).click();
  expect(new Set(await settledIds(graph))).toEqual(new Set(expected.keys()));
  await expect(page).toHaveURL(/[?&]filter=all/);
  await expect(page).toHaveURL(/[?&]hideTypes=model_change/);
  await expect(page).toHaveURL(/[?&]hideRoles=toolResult/);

  await page.reload();
  await expect(page.getByTestId("session-graph")).toHaveAttribute("data-placed", "true", { timeout: 60_000 });
  await expect(page.getByTestId("filter-button")).toHaveAttribute("data-filter-mode", "all");
  expect(new Set(await settledIds(page.getByTestId("session-graph")))).toEqual(new Set(expected.keys()));
});

test("a selected entry the filter hides is announced, with a way to its nearest shown ancestor or back to everything", async ({ page }) => {
  const session = openFixture("ca-labels");
  const shown = expectedShown(session, { ...NO_FILTER, mode: "user-only" });
  const nearestShown = (id: string): string | null => {
    for (let p = session.tree.parentOf(id); p !== null; p = session.tree.parentOf(p)) if (shown.has(p)) return p;
    return null;
  };
  const hidden = [...session.tree.ids()].find((id) => !shown.has(id) && nearestShown(id) !== null)!;
  const graph = await openGraph(page, "ca-labels", `&entry=${hidden}&filter=user-only`);
  await expect(page.getByTestId("selection-hidden")).toBeVisible();
  await expect(graph.locator(`[data-entry-id="${hidden}"]`)).toHaveCount(0);
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/filter-user-only.png` });

  await page.getByTestId("select-nearest-shown").click();
  const ancestor = nearestShown(hidden)!;
  await expect(page.getByTestId("selection-hidden")).toHaveCount(0);
  await expect(graph.locator(`[data-selected=true][data-entry-id="${ancestor}"]`)).toHaveCount(1);

  await page.goto(`${viewUrl("ca-labels", hidden)}&filter=user-only`);
  await page.getByTestId("selection-hidden").getByRole("button", { name: "Show all" }).click();
  await expect(page.getByTestId("selection-hidden")).toHaveCount(0);
  await expect(page.getByTestId("filter-button")).toHaveAttribute("data-filter-mode", "none");
  await expect(
    page.getByTestId("session-graph").locator(`[data-selected=true][data-entry-id="${hidden}"], [data-selected=true][data-selected-entry-id="${hidden}"]`),
  ).toHaveCount(1);
});

test("a folded segment says how many entries between its ends the filter hides", async ({ page }) => {
  const session = openFixture("ca-large");
  const graph = await openGraph(page, "ca-large", "&hideRoles=toolResult");
  await fitAll(graph);
  const segments = graph.locator("[data-segment]");
  await expect(segments.first()).toBeVisible();
  const drawn = await segments.evaluateAll((els) => els.map((el) => ({ ids: el.dataset.entryIds!.split(" "), filtered: Number(el.dataset.filtered ?? 0) })));
  const shown = expectedShown(session, { ...NO_FILTER, hiddenRoles: new Set(["toolResult"]) });
  let marked = 0;
  for (const { ids, filtered } of drawn) {
    // the file's entries strictly between the run's first and last that the filter does not show
    let hidden = 0;
    for (let id = session.tree.node(ids[ids.length - 1]!)!.parentId; id !== null && id !== ids[0]; id = session.tree.node(id)!.parentId) {
      if (!shown.has(id)) hidden++;
    }
    expect(filtered, ids[0]).toBe(hidden);
    if (hidden > 0) marked++;
  }
  expect(marked).toBeGreaterThan(0);
  const first = segments.filter({ has: page.getByTestId("segment-filtered") }).first();
  await expect(first.getByTestId("segment-filtered")).toHaveAttribute("title", /between these, hidden by the tree filter/);
  mkdirSync(SHOTS, { recursive: true });
  await first.scrollIntoViewIfNeeded();
  await first.screenshot({ path: `${SHOTS}/segment-filtered.png` });
});
