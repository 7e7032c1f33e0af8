// The labels list: every label pi keeps (lib/session's labels on the same file), each jumping to its entry, with the
// mouse and with the keyboard; labels also tag rows in the Path and Context tabs.
import { mkdirSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { openFixture } from "./fixtures/core";
import { viewUrl } from "./fixtures/session-files";

test.describe.configure({ timeout: 120_000 });

const NAME = "ca-labels";

async function open(page: Page, entry?: string) {
  await page.goto(viewUrl(NAME, entry));
  const graph = page.getByTestId("session-graph");
  await expect(graph).toHaveAttribute("data-placed", "true", { timeout: 90_000 });
  return graph;
}

test("lists every label with its entry, and a click selects and reveals that entry", async ({ page }) => {
  const session = openFixture(NAME);
  const labels = session.labels();
  expect(labels.size).toBeGreaterThan(1);
  const graph = await open(page);

  const button = page.getByTestId("labels-button");
  await expect(button).toContainText(String(labels.size));
  await button.click();
  const dialog = page.getByRole("dialog", { name: "Labels" });
  await expect(dialog).toBeVisible();
  const items = dialog.locator("[data-label-item]");
  await expect(items).toHaveCount(labels.size);
  const shown = await items.evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.entryId!));
  expect(new Set(shown)).toEqual(new Set(labels.keys()));
  for (const [id, state] of labels) await expect(dialog.locator(`[data-entry-id="${id}"]`)).toContainText(state.label.trim());

  mkdirSync("/tmp/shots-compare", { recursive: true });
  await page.screenshot({ path: "/tmp/shots-compare/labels-light.png" });

  const target = shown.find((id) => id !== session.leafId && session.tree.get(id))!;
  await dialog.locator(`[data-entry-id="${target}"]`).click();
  await expect(dialog).toHaveCount(0);
  await expect(graph.locator("[data-selected=true]")).toHaveAttribute("data-entry-id", target);
  await expect(page).toHaveURL(new RegExp(`entry=${target}`));
  await expect(graph.locator(`[data-entry-id="${target}"]`)).toBeInViewport();
});

test("works from the keyboard: open, arrow down, Enter jumps; Esc closes and gives focus back", async ({ page }) => {
  const session = openFixture(NAME);
  const graph = await open(page);
  const button = page.getByTestId("labels-button");
  await button.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Labels" });
  await expect(dialog).toBeVisible();
  const ids = await dialog.locator("[data-label-item]:not(:disabled)").evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.entryId!));
  await expect(dialog.locator("[data-label-item]").first()).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(dialog.locator(`[data-entry-id="${ids[1]}"]`)).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(graph.locator("[data-selected=true]")).toHaveAttribute("data-entry-id", ids[1]!);
  expect(session.labels().has(ids[1]!)).toBe(true);

  await button.focus();
  await page.keyboard.press("Enter");
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(button).toBeFocused();
});

test("labels tag their entries in the Path and Context tabs", async ({ page }) => {
  const session = openFixture(NAME);
  const labels = session.labels();
  // an entry whose path holds labelled messages
  const leaf = [...session.tree.ids()].find((id) => session.branch(id).filter((e) => labels.has(e.id) && e.type === "message").length >= 2)!;
  await open(page, leaf);
  await page.getByRole("tab", { name: "Path" }).click();
  const pathList = page.getByTestId("path-list");
  for (const entry of session.branch(leaf)) {
    const state = labels.get(entry.id);
    if (state) await expect(pathList.locator(`[data-entry-id="${entry.id}"]`)).toContainText(state.label.trim());
  }
  await page.getByRole("tab", { name: "Context" }).click();
  const contextList = page.getByTestId("context-list");
  const labelled = session.context(leaf).messages.filter((m) => labels.has(m.entryId));
  expect(labelled.length).toBeGreaterThan(0);
  for (const m of labelled) await expect(contextList.locator(`[data-entry-id="${m.entryId}"]`).first()).toContainText(labels.get(m.entryId)!.label.trim());
});
