// The inspector's Stats tab: every figure, the tool-call and per-model bars equal lib/session's scopeStats on the
// same file, for the whole session and for the selected entry's branch; light and dark screenshots.
import { mkdirSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { scopeStats, type ScopeStats } from "../lib/session";
import { openFixture } from "./fixtures/core";
import { fitAll } from "./fixtures/graph";
import { viewUrl, type FixtureName } from "./fixtures/session-files";

const SHOTS = "/tmp/shots-search";

test.describe.configure({ timeout: 120_000 });

async function openStats(page: Page, name: FixtureName, entry?: string): Promise<void> {
  await page.goto(`${viewUrl(name, entry)}&tab=stats`);
  await expect(page.getByTestId("stats-tab")).toBeVisible({ timeout: 60_000 });
}

const sum = (map: Record<string, number>) => Object.values(map).reduce((a, b) => a + b, 0);

async function expectFigures(page: Page, stats: ScopeStats): Promise<void> {
  const tab = page.getByTestId("stats-tab");
  const figures: [string, number | string][] = [
    ["stat-entries", stats.entries],
    ["stat-messages", sum(stats.roles)],
    ["stat-tool-calls", sum(stats.toolCalls)],
    ["stat-input", stats.usage.input],
    ["stat-output", stats.usage.output],
    ["stat-cache-read", stats.usage.cacheRead],
    ["stat-cache-write", stats.usage.cacheWrite],
    ["stat-cost", stats.usage.cost],
    ["stat-duration", stats.durationMs ?? ""],
    ["stat-compactions", stats.compactions],
    ["stat-branch-points", stats.branchPoints],
    ["stat-tool-errors", stats.toolErrors],
  ];
  for (const [id, value] of figures) await expect(tab.getByTestId(id), id).toHaveAttribute("data-value", String(value));

  const rows = async (testId: string) =>
    Object.fromEntries(
      await tab
        .getByTestId(testId)
        .locator("tr")
        .evaluateAll((trs) => trs.map((tr) => [tr.getAttribute("data-key"), Number(tr.getAttribute("data-value"))])),
    );
  if (Object.keys(stats.toolCalls).length) expect(await rows("stats-tools")).toEqual(stats.toolCalls);
  expect(await rows("stats-roles")).toEqual(stats.roles);
  const modelTokens = Object.fromEntries(Object.entries(stats.modelUsage).map(([m, u]) => [m, u.input + u.output + u.cacheRead + u.cacheWrite]));
  expect(await rows("stats-models")).toEqual(modelTokens);
}

test("the whole session's stats equal the core's", async ({ page }) => {
  const session = openFixture("ca-compaction-multi-a");
  await openStats(page, "ca-compaction-multi-a");
  await expect(page.getByTestId("stats-tab")).toHaveAttribute("data-scope", "session");
  await expectFigures(page, scopeStats(session, { kind: "session" }));
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/stats-light.png` });
});

test("the branch stats follow the selected entry", async ({ page }) => {
  const session = openFixture("ca-branching-a");
  const leaves = [...session.tree.ids()].filter((id) => session.tree.children(id).length === 0);
  const [a, b] = [leaves[0]!, leaves[leaves.length - 1]!];
  await openStats(page, "ca-branching-a", a);
  await page.getByTestId("stats-scope-branch").click();
  await expect(page.getByTestId("stats-tab")).toHaveAttribute("data-scope", "branch");
  await expectFigures(page, scopeStats(session, { kind: "branch", id: a }));

  // another entry, chosen in the graph: the numbers follow
  const graph = page.getByTestId("session-graph");
  await fitAll(graph);
  await graph.locator(`[data-entry-id="${b}"]`).click();
  await expectFigures(page, scopeStats(session, { kind: "branch", id: b }));
});

test("stats in the dark theme, on a file with tool calls and several models", async ({ page }) => {
  const session = openFixture("ca-large");
  await openStats(page, "ca-large");
  await page.getByTestId("theme-toggle").click();
  await expect(page.locator("html")).toHaveClass(/dark/);
  await expectFigures(page, scopeStats(session, { kind: "session" }));
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/stats-dark.png` });
});
