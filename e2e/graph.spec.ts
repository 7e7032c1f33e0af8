// The session graph on /view: one node per entry (folded segments carry their ids), the leaf and active path marks,
// folding on a 5,000-entry file, deep links into folded runs, pi-like keyboard moves, the leaf-history scrub and
// the context overlay. Expected values come from the core library reading the same file.
import { readFileSync } from "node:fs";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { Session } from "../lib/session";
import { drawnIds, fitAll, viewportSettled } from "./fixtures/graph";
import { sessionFile, viewUrl, type FixtureName } from "./fixtures/session-files";

function load(name: FixtureName): Session {
  return Session.fromText(new TextDecoder("utf-8", { ignoreBOM: true }).decode(readFileSync(sessionFile(name))));
}

/** The graph pane, with the keyboard focus in it and every node on screen (fit view draws them all). */
async function openGraph(page: Page, name: FixtureName, entry?: string): Promise<Locator> {
  await page.goto(viewUrl(name, entry));
  const graph = page.getByTestId("session-graph");
  await expect(graph).toHaveAttribute("data-placed", "true", { timeout: 60_000 });
  await expect(graph.locator("[data-selected=true]")).toHaveCount(1);
  return graph;
}

async function idsWhere(graph: Locator, selector: string): Promise<string[]> {
  return graph.evaluate(
    (root, sel) =>
      [...root.querySelectorAll<HTMLElement>(sel)].flatMap((el) =>
        el.dataset.entryIds !== undefined ? el.dataset.entryIds.split(" ") : [el.dataset.entryId!],
      ),
    selector,
  );
}

/** The selected entry: a card's id, or the entry a folded segment holds selected. */
async function selectedId(graph: Locator): Promise<string | null> {
  return graph
    .locator("[data-selected=true]")
    .first()
    .evaluate((el: HTMLElement) => el.dataset.entryId ?? el.dataset.selectedEntryId ?? null);
}

test.describe("session graph", () => {
  // a 5,000-entry file is parsed and laid out in the browser; on a busy 2-core machine that can take a while
  test.describe.configure({ timeout: 120_000 });

  test("draws every entry once and marks the leaf and the active path", async ({ page }) => {
    const session = load("ca-branching-a");
    const graph = await openGraph(page, "ca-branching-a");
    await fitAll(graph);
    const ids = await drawnIds(graph);
    expect(ids.length).toBe(session.tree.size);
    expect(new Set(ids)).toEqual(new Set(session.tree.ids()));

    const leaf = session.leafId!;
    await expect(graph.locator("[data-leaf=true]")).toHaveCount(1);
    await expect(graph.locator("[data-leaf=true]")).toHaveAttribute("data-entry-id", leaf);
    const onPath = await idsWhere(graph, "[data-active-path=true]");
    expect(new Set(onPath)).toEqual(new Set(session.branch(leaf).map((e) => e.id)));
    await page.screenshot({ path: "test-results/graph-light.png" });
  });

  test("the Fit view button brings every card into view, as f does", async ({ page }) => {
    const session = load("ca-branching-a");
    const graph = await openGraph(page, "ca-branching-a");
    const zoomIn = page.getByRole("button", { name: "Zoom In" });
    for (let i = 0; i < 4; i++) await zoomIn.click();
    await viewportSettled(graph);
    expect((await drawnIds(graph)).length, "zoomed in, some cards are off screen").toBeLessThan(session.tree.size);

    await page.getByRole("button", { name: "Fit view" }).click();
    await viewportSettled(graph);
    expect(new Set(await drawnIds(graph))).toEqual(new Set(session.tree.ids()));
    const pane = (await graph.boundingBox())!;
    const boxes = await graph.locator(".react-flow__node").evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON() as DOMRect));
    for (const box of boxes) {
      expect(box.left).toBeGreaterThanOrEqual(pane.x - 1);
      expect(box.top).toBeGreaterThanOrEqual(pane.y - 1);
      expect(box.right).toBeLessThanOrEqual(pane.x + pane.width + 1);
      expect(box.bottom).toBeLessThanOrEqual(pane.y + pane.height + 1);
    }
  });

  for (const name of ["ca-tiny", "ca-compaction-multi-a", "hx-retained-a", "edge-cycle", "ca-labels", "legacy-v1-a"] as const) {
    test(`draws every entry of ${name} once, from pi's roots and cycle stand-ins`, async ({ page }) => {
      const session = load(name);
      const graph = await openGraph(page, name);
      await fitAll(graph);
      const ids = await drawnIds(graph);
      expect(ids.length).toBe(session.tree.size);
      expect(new Set(ids)).toEqual(new Set(session.tree.ids()));
      if (session.leafId) await expect(graph.locator("[data-leaf=true]")).toHaveCount(1);
    });
  }

  test("opens 5,000 entries folded, and a segment expands into its entries", async ({ page }) => {
    const session = load("ca-large");
    expect(session.tree.size).toBeGreaterThan(5000);
    const graph = await openGraph(page, "ca-large");
    await fitAll(graph);
    const nodes = graph.locator(".react-flow__node");
    const before = await nodes.count();
    expect(before).toBeLessThan(300);
    const ids = await drawnIds(graph);
    expect(ids.length).toBe(session.tree.size);
    expect(new Set(ids)).toEqual(new Set(session.tree.ids()));

    // every segment is one chain of the file's tree; expand the shortest (the whole graph must still fit on screen)
    const segments = await graph.locator("[data-entry-ids]").evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.entryIds!.split(" ")));
    for (const run of segments) {
      expect(run.length).toBeGreaterThan(6);
      for (let i = 1; i < run.length; i++) expect(session.tree.parentOf(run[i]!)).toBe(run[i - 1]);
    }
    const run = segments.sort((a, b) => a.length - b.length)[0]!;
    await graph.locator(`[data-segment="${run[0]}"]`).click();
    await expect(graph.locator(`[data-segment="${run[0]}"]`)).toHaveCount(0);
    await fitAll(graph);
    const after = await graph.locator("[data-entry-id]").evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.entryId!));
    for (const id of run) expect(after).toContain(id);
    expect((await drawnIds(graph)).length).toBe(session.tree.size);
    expect(await nodes.count()).toBe(before + run.length - 1);
  });

  test("the minimap draws every card, and dragging it pans the graph", async ({ page }) => {
    const graph = await openGraph(page, "ca-large");
    const counts = await graph.getByTitle(/nodes drawn/).textContent();
    const cards = Number(/· ([\d,]+) nodes/.exec(counts ?? "")![1]!.replace(/,/g, ""));
    const minimap = graph.getByTestId("graph-minimap");
    // one closed rectangle per card, in paths by colour; the last path is the mask around the viewport
    const rects = await minimap
      .locator("path")
      .evaluateAll((paths) => paths.slice(0, -1).reduce((n, p) => n + (p.getAttribute("d")!.match(/z/g) ?? []).length, 0));
    expect(rects).toBe(cards);
    const viewport = graph.locator(".react-flow__viewport");
    const before = await viewport.getAttribute("style");
    const box = (await minimap.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 20, box.y + box.height / 2 + 10, { steps: 4 });
    await page.mouse.up();
    await expect(viewport).not.toHaveAttribute("style", before!);
  });

  test("a deep link into a folded run expands it and selects the entry", async ({ page }) => {
    const graph = await openGraph(page, "ca-large");
    const run = (await graph.locator("[data-entry-ids]").first().getAttribute("data-entry-ids"))!.split(" ");
    const target = run[Math.floor(run.length / 2)]!;
    await openGraph(page, "ca-large", target);
    const card = graph.locator(`[data-entry-id="${target}"]`);
    await expect(card).toHaveAttribute("data-selected", "true");
    await expect(card).toBeInViewport();
  });

  test("keyboard moves the selection like pi's /tree", async ({ page }) => {
    const session = load("ca-branching-a");
    const tree = session.tree;
    const leaf = session.leafId!;
    const path = session.branch(leaf).map((e) => e.id);
    const graph = await openGraph(page, "ca-branching-a");
    await graph.focus();

    await graph.press("End");
    expect(await selectedId(graph)).toBe(leaf);
    await graph.press("ArrowUp");
    expect(await selectedId(graph)).toBe(tree.parentOf(leaf));
    await graph.press("ArrowDown");
    expect(await selectedId(graph)).toBe(leaf);
    await graph.press("Home");
    expect(await selectedId(graph)).toBe(path[0]);

    // "]" from the root: follow first children (the active one first) to the first branch point, land on its first child
    let branchPoint = path[0]!;
    while (tree.children(branchPoint).length === 1) branchPoint = tree.children(branchPoint)[0]!;
    const children = tree.children(branchPoint);
    expect(children.length).toBeGreaterThan(1);
    const first = children.find((id) => path.includes(id)) ?? children[0]!;
    await graph.press("]");
    expect(await selectedId(graph)).toBe(first);

    // ←/→ walk the siblings in pi's order
    const order = [...children];
    const at = order.indexOf(first);
    const neighbour = at + 1 < order.length ? order[at + 1]! : order[at - 1]!;
    await graph.press(at + 1 < order.length ? "ArrowRight" : "ArrowLeft");
    expect(await selectedId(graph)).toBe(neighbour);

    // Enter hands over to the inspector's Entry tab
    await graph.press("End");
    await graph.press("Enter");
    await expect(page.locator("#inspector")).toBeFocused();
    await expect(page.getByRole("tab", { name: "Entry" })).toHaveAttribute("aria-selected", "true");

    // the help lists the keys
    await graph.focus();
    await graph.press("?");
    await expect(page.getByRole("dialog", { name: "Graph keys" })).toBeVisible();
    await graph.press("Escape");
    await expect(page.getByRole("dialog", { name: "Graph keys" })).toHaveCount(0);
  });

  test("Space expands a folded segment the keyboard lands on", async ({ page }) => {
    const graph = await openGraph(page, "ca-large");
    const segment = graph.locator("[data-entry-ids]").first();
    const ids = (await segment.getAttribute("data-entry-ids"))!.split(" ");
    await segment.click(); // expand, then fold back with Space from one of its entries
    await expect(graph.locator(`[data-segment="${ids[0]}"]`)).toHaveCount(0);
    await graph.locator(`[data-entry-id="${ids[0]}"]`).click();
    await graph.press(" ");
    await expect(graph.locator(`[data-segment="${ids[0]}"]`)).toHaveCount(1);
    await expect(graph.locator(`[data-segment="${ids[0]}"]`)).toHaveAttribute("data-selected", "true");
    await graph.press(" ");
    await expect(graph.locator(`[data-segment="${ids[0]}"]`)).toHaveCount(0);
    await expect(graph.locator(`[data-entry-id="${ids[0]}"]`)).toHaveAttribute("data-selected", "true");
  });

  test("scrubbing the leaf history moves the leaf marker and ghosts later lines", async ({ page }) => {
    const session = load("hx-leaf-moves-a");
    const history = session.tree.leafHistory;
    const graph = await openGraph(page, "hx-leaf-moves-a");
    await fitAll(graph);
    const slider = page.getByRole("slider", { name: "Leaf history step" });
    await expect(slider).toHaveValue(String(history.length - 1));

    const rewind = [...history].findIndex((step, i) => step.kind === "leaf-entry" && step.leafId !== null && i < history.length - 1);
    expect(rewind).toBeGreaterThan(0);
    await slider.fill(String(rewind));
    await expect(graph.locator("[data-leaf=true]")).toHaveAttribute("data-entry-id", history.at(rewind)!.leafId!);
    const ghosts = await idsWhere(graph, "[data-ghost=true]");
    const later = [...session.tree.nodes()].filter((node) => node.line > history.at(rewind)!.line).map((node) => node.entry.id);
    expect(new Set(ghosts)).toEqual(new Set(later));
    await page.screenshot({ path: "test-results/graph-scrub-light.png" });

    await slider.focus();
    await slider.press("ArrowLeft");
    const previous = history.at(rewind - 1)!;
    if (previous.leafId !== null) await expect(graph.locator("[data-leaf=true]")).toHaveAttribute("data-entry-id", previous.leafId);
    else await expect(graph.locator("[data-leaf=true]")).toHaveCount(0);

    await page.getByTestId("leaf-timeline").getByRole("button", { name: "Back to now" }).click();
    await expect(graph.locator("[data-leaf=true]")).toHaveAttribute("data-entry-id", session.leafId!);
    await expect(graph.locator("[data-ghost=true]")).toHaveCount(0);
  });

  test("the context overlay fades what compaction cut from the selected entry's context", async ({ page }) => {
    const session = load("ca-compaction-a");
    const leaf = session.leafId!;
    const kept = new Set(session.contextEntries(leaf).map((e) => e.id));
    const cut = session
      .branch(leaf)
      .filter((e) => !kept.has(e.id))
      .map((e) => e.id);
    expect(cut.length).toBeGreaterThan(0);
    const graph = await openGraph(page, "ca-compaction-a");
    await fitAll(graph);
    const cards = await graph
      .locator("[data-entry-id][data-kind]")
      .evaluateAll((els) => els.map((el) => [(el as HTMLElement).dataset.entryId!, (el as HTMLElement).dataset.cut === "true"] as const));
    expect(cards.filter(([, faded]) => faded).length).toBeGreaterThan(0);
    for (const [id, faded] of cards) expect(faded, id).toBe(cut.includes(id));

    await graph.press("c");
    await expect(graph.locator("[data-cut=true]")).toHaveCount(0);
  });

  test("a fit animates, and lands in one step for people who ask for less motion", async ({ page }) => {
    /** Every transform the viewport takes while `f` fits the graph, the last one the fit. */
    async function transformsOfFit(graph: Locator): Promise<string[]> {
      await graph.evaluate((root) => {
        const viewport = root.querySelector<HTMLElement>(".react-flow__viewport")!;
        const seen: string[] = [];
        (window as unknown as { seen: string[] }).seen = seen;
        new MutationObserver(() => seen.push(viewport.style.transform)).observe(viewport, { attributes: true, attributeFilter: ["style"] });
      });
      await fitAll(graph);
      return graph.evaluate(() => [...new Set((window as unknown as { seen: string[] }).seen)]);
    }
    // 5,000 entries open unfitted (a fit would be unreadable), so `f` moves the viewport
    const reduced = await transformsOfFit(await openGraph(page, "ca-large"));
    expect(reduced).toHaveLength(1);

    await page.emulateMedia({ reducedMotion: "no-preference" });
    const animated = await transformsOfFit(await openGraph(page, "ca-large"));
    expect(animated.length).toBeGreaterThan(1);
    expect(animated.at(-1)).toBe(reduced[0]);
  });

  test("looks right in the dark theme", async ({ page }) => {
    const graph = await openGraph(page, "hx-leaf-moves-a");
    await page.getByTestId("theme-toggle").click();
    await expect(page.locator("html")).toHaveClass(/dark/);
    await fitAll(graph);
    await expect(graph.locator(".react-flow")).toHaveClass(/dark/);
    await page.screenshot({ path: "test-results/graph-dark.png" });
  });
});
