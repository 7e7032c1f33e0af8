// The usage page against the e2e sessions dir: the chart and table show what GET /api/usage (and the CLI) count,
// grouping and range live in the URL, a session's row splits by branch, a fork's copies show as inherited; light
// and dark screenshots.
import { expect, test } from "@playwright/test";
import type { SessionUsageRow, UsageRow } from "../lib/library/usage";
import { SESSION_FILES } from "./fixtures/session-files";

test.describe.configure({ timeout: 60_000 });

const money = (cost: number) => (cost >= 100 ? `$${cost.toFixed(0)}` : `$${cost.toFixed(2)}`);

test("the table and totals show the library's usage by day, then by model, the choice kept in the URL", async ({ page, request }) => {
  await page.goto("/usage");
  const days: UsageRow[] = await (await request.get("/api/usage?by=day")).json();
  expect(days.length).toBeGreaterThan(5);
  const rows = page.getByTestId("usage-row");
  await expect(rows).toHaveCount(days.length);
  for (const [i, day] of days.entries()) {
    await expect(rows.nth(i)).toHaveAttribute("data-key", day.key);
    await expect(rows.nth(i).getByTestId("usage-cost")).toHaveText(money(day.cost));
  }
  const total = days.reduce((n, d) => n + d.cost, 0);
  await expect(page.getByTestId("usage-total-cost")).toHaveText(`$${total.toFixed(2)}`);
  // the chart's columns run day by day from the first to the last, empty days included
  const columns = page.getByTestId("usage-chart").getByTestId("usage-bar");
  const first = Date.parse(days[0]!.key);
  const last = Date.parse(days.at(-1)!.key);
  await expect(columns).toHaveCount(Math.round((last - first) / 86_400_000) + 1);

  await page.getByTestId("usage-by").getByRole("radio", { name: "Model" }).click();
  await expect(page).toHaveURL(/by=model/);
  const models: UsageRow[] = await (await request.get("/api/usage?by=model")).json();
  await expect(rows).toHaveCount(models.length);
  await expect(rows.first()).toHaveAttribute("data-key", models[0]!.key);
  await expect(page.getByTestId("usage-chart").getByTestId("usage-bar").first()).toHaveAttribute("data-key", models[0]!.key);
  await page.reload();
  await expect(page.getByTestId("usage-by").getByRole("radio", { name: "Model" })).toHaveAttribute("aria-checked", "true");
  await expect(rows).toHaveCount(models.length);
});

test("by session: a fork's copies show as inherited, and a session with branches splits its cost by branch", async ({ page, request }) => {
  await page.goto("/usage?by=session");
  const sessions: SessionUsageRow[] = await (await request.get("/api/usage?by=session")).json();
  const fork = page.locator(`[data-testid="usage-row"][data-key="${SESSION_FILES["fork-a"]}"]`);
  await expect(fork).toContainText("inherited");
  const branched = sessions.find((s) => s.branches.filter((b) => b.cost > 0 || b.input > 0).length > 1)!;
  const row = page.locator(`[data-testid="usage-row"][data-key="${branched.key}"]`);
  await row.getByRole("button", { name: "Show the cost of each branch" }).click();
  const branches = page.getByTestId("usage-branch");
  await expect(branches).toHaveCount(branched.branches.filter((b) => b.cost > 0 || b.input > 0).length);
  await expect(branches.first()).toHaveAttribute("data-active", "true");
  await expect(page.locator('[data-testid="usage-branch"][data-active="false"]').first()).toContainText("a branch left");
});

test("a range with no usage says so; the library links to the page", async ({ page }) => {
  await page.goto("/usage?since=2099-01-01");
  await expect(page.getByTestId("usage-empty")).toContainText("since 2099-01-01");
  await page.goto("/");
  await page.getByTestId("usage-link").click();
  await expect(page).toHaveURL(/\/usage$/);
});

test("screenshots of the usage page, light and dark", async ({ page }) => {
  await page.goto("/usage");
  await expect(page.getByTestId("usage-chart")).toBeVisible();
  await page.screenshot({ path: "test-results/usage-light.png", fullPage: true });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto("/usage?by=model");
  await expect(page.getByTestId("usage-chart")).toBeVisible();
  await page.screenshot({ path: "test-results/usage-dark.png", fullPage: true });
});

test("while the library's index catches up, the page says how far it has come", async ({ page }) => {
  await page.goto("/usage");
  await expect(page.getByTestId("usage-table")).toBeVisible();
  // the rows held back as a first index of a large library holds them, the server reporting its progress
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/api\/usage\?/, async (route) => {
    await held;
    await route.continue();
  });
  await page.route("/api/search/status", (route) => route.fulfill({ json: { progress: { done: 312, total: 1000, file: "--p--/a.jsonl" }, unreadable: null } }));
  await page.getByTestId("usage-by").getByRole("radio", { name: "Model" }).click();
  const indexing = page.getByTestId("indexing-progress");
  await expect(indexing).toContainText("Indexing 312 of 1,000 sessions");
  await expect(indexing.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "312");
  await page.unroute("/api/search/status");
  release();
  await expect(page.getByTestId("usage-table")).toBeVisible();
  await expect(indexing).toHaveCount(0);
});
