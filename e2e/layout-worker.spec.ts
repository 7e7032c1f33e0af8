// A graph of thousands of cards is laid out off the page's thread (lib/client/layout.worker.ts), and each card is
// drawn where the layout made in the page puts it.
import { expect, test } from "@playwright/test";
import { Session } from "../lib/session";
import { LINEAR_HEADER } from "../lib/session/testing/linear-session";
import { buildDisplayTree } from "../lib/layout/display-tree";
import { layoutDisplayTree } from "../lib/layout/tidy-layout";

test.describe.configure({ timeout: 120_000 });

/** Every entry the parent of two: nothing folds, and the graph has a card per entry. */
const ENTRIES = 3000;
const TEXT = [
  LINEAR_HEADER,
  ...Array.from({ length: ENTRIES }, (_, i) => ({
    type: "message",
    id: `b${i}`,
    parentId: i === 0 ? null : `b${Math.floor((i - 1) / 2)}`,
    timestamp: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
    message: { role: i % 2 ? "assistant" : "user", content: [{ type: "text", text: `step ${i}` }] },
  })),
]
  .map((line) => `${JSON.stringify(line)}\n`)
  .join("");

test("a graph of thousands of cards is laid out by the layout worker, each card where the page would put it", async ({ page }) => {
  await page.goto("/view");
  await page.getByTestId("file-input").setInputFiles({ name: "branchy.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(TEXT) });
  const leaf = page.locator(`.react-flow__node[data-id="b${ENTRIES - 1}"]`);
  await expect(leaf).toBeVisible({ timeout: 60_000 });
  expect(await page.evaluate(() => performance.getEntriesByName("graph:layout-worker").length)).toBe(1);

  // the same display tree laid out here: the leaf's card and its neighbours sit where it puts them
  const session = Session.fromText(TEXT);
  const display = buildDisplayTree(session, { keep: [session.leafId], labelled: session.labels() });
  expect(display.nodes.size).toBe(ENTRIES);
  const boxes = layoutDisplayTree(display).boxes;
  const drawn = await page
    .locator(".react-flow__node")
    .evaluateAll((nodes) => nodes.map((node) => ({ id: node.getAttribute("data-id")!, transform: (node as HTMLElement).style.transform })));
  expect(drawn.length).toBeGreaterThan(3);
  for (const { id, transform } of drawn) {
    const box = boxes.get(id)!;
    // (the style keeps six digits)
    const [, x, y] = /^translate\((-?[\d.]+)px, (-?[\d.]+)px\)$/.exec(transform) ?? [];
    expect(Math.abs(Number(x) - box.x), `${id}: ${transform}`).toBeLessThan(0.1);
    expect(Math.abs(Number(y) - box.y), `${id}: ${transform}`).toBeLessThan(0.1);
  }
});
