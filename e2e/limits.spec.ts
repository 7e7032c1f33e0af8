// Sizes the viewer must open without errors: a 100k-deep chain and 10k children of one entry, generated here and
// uploaded; the graph draws, the inspector answers at the deepest entry, nothing is reported broken.
import { expect, test, type Page } from "@playwright/test";
import { deepChain, wideTree } from "../lib/session/testing/big-sessions";

test.describe.configure({ timeout: 300_000 });
const SLOW = { timeout: 180_000 };

function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console error: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("crash", () => problems.push("the page crashed"));
  return problems;
}

async function upload(page: Page, name: string, text: string) {
  await page.goto("/view");
  await page.getByTestId("file-input").setInputFiles({ name, mimeType: "application/x-ndjson", buffer: Buffer.from(text) });
  await expect(page.getByTestId("dropzone")).toHaveAttribute("data-load-phase", "ready", SLOW);
}

test("a 100k-deep chain opens, draws and answers at its deepest entry", async ({ page }) => {
  const problems = watch(page);
  await upload(page, "deep-100k.jsonl", deepChain(100_000));
  await expect(page.getByTestId("entry-count")).toContainText("100,000", SLOW);
  await expect(page.locator(".react-flow__node").first()).toBeVisible(SLOW);
  const inspector = page.locator("#inspector");
  await expect(inspector).toContainText("e99999", SLOW);
  await inspector.getByRole("tab", { name: "Path", exact: true }).click();
  await expect(inspector.locator('[data-entry-id="e99999"]').first()).toBeVisible(SLOW);
  await inspector.getByRole("tab", { name: "Context", exact: true }).click();
  await expect(inspector).toContainText("100000 messages", SLOW);
  await page.screenshot({ path: "/tmp/shots-harden/deep-100k.png" });
  expect(problems).toEqual([]);
});

test("10k children of one entry open and draw", async ({ page }) => {
  const problems = watch(page);
  await upload(page, "wide-10k.jsonl", wideTree(10_000));
  await expect(page.getByTestId("entry-count")).toContainText("10,001", SLOW);
  await expect(page.locator(".react-flow__node").first()).toBeVisible(SLOW);
  await expect(page.locator("#inspector")).toContainText("c9999", SLOW);
  await page.locator("#inspector").getByRole("tab", { name: "Path", exact: true }).click();
  await expect(page.locator('#inspector [data-entry-id="root"]').first()).toBeVisible(SLOW);
  await page.screenshot({ path: "/tmp/shots-harden/wide-10k.png" });
  expect(problems).toEqual([]);
});
