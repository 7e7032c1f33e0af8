// The Context tab's last projection step on /view: the window meter, pi's verdict on compacting, the context-size chart
// and "Sent to model" show exactly what the core computes with pi's rules (lib/session/features/model-view.ts, itself
// checked against pi's own functions), and the mode and settings live in the URL.
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { autoCompactAfter, contextSizes, DEFAULT_COMPACTION_SETTINGS, modelView, type Session } from "../lib/session";
import { modelOfContext, type ModelCatalogue } from "../lib/models/model-catalogue";
import { openFixture } from "./fixtures/core";
import { viewUrl, type FixtureName } from "./fixtures/session-files";

const SHOTS = "/tmp/shots-model-view";
// Playwright's loader wants an import attribute for JSON that the app's bundler does not: read the file itself
const catalogue = JSON.parse(readFileSync(path.join(__dirname, "../lib/models/catalogue.generated.json"), "utf8")) as ModelCatalogue;

async function openContext(page: Page, name: FixtureName, entry: string, extra = ""): Promise<void> {
  await page.goto(`${viewUrl(name, entry)}&tab=context${extra}`);
  await expect(page.getByTestId("context-meter")).toBeVisible({ timeout: 60_000 });
}

function leafOf(session: Session): string {
  return session.leafId!;
}

test("the window meter, the token count and pi's verdict are the core's, with the window from pi's catalogue", async ({ page }) => {
  const session = openFixture("ca-compaction-a");
  const leaf = leafOf(session);
  const view = modelView(session, leaf);
  const known = modelOfContext(catalogue, view.context.model)!;
  expect(known).not.toBeNull();
  await openContext(page, "ca-compaction-a", leaf);
  const meter = page.getByRole("meter", { name: "Context window fill" });
  await expect(meter).toHaveAttribute("aria-valuenow", String(view.tokens!.tokens));
  await expect(meter).toHaveAttribute("aria-valuemax", String(known.contextWindow));
  await expect(page.getByTestId("context-tokens")).toHaveAttribute("data-tokens", String(view.tokens!.tokens));
  const path = session.sharedBranch(leaf);
  const check = autoCompactAfter(session.tree.get(leaf)!, view, path, known.contextWindow, DEFAULT_COMPACTION_SETTINGS);
  await expect(page.getByTestId("auto-compact")).toHaveAttribute("data-verdict", check.verdict ? "yes" : "no");
  // the chart marks each compaction on the path, and a mark selects its entry
  const compactions = [...contextSizes(path)].filter((p) => p.kind === "compaction");
  expect(compactions.length).toBeGreaterThan(0);
  const marks = page.locator("[data-chart-kind=compaction]");
  await expect(marks).toHaveCount(compactions.length);
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/meter.png` });
  await marks.first().click();
  await expect(page).toHaveURL(new RegExp(`[?&]entry=${compactions[0]!.entryId}`));
});

test("a window set by hand puts the same context over pi's threshold, and the settings survive a reload", async ({ page }) => {
  const session = openFixture("ca-compaction-a");
  const leaf = leafOf(session);
  const view = modelView(session, leaf);
  const small = view.tokens!.tokens + 1000;
  await openContext(page, "ca-compaction-a", leaf);
  await page.getByRole("button", { name: "Settings" }).click();
  await page.getByTestId("setting-window").fill(String(small));
  await expect(page.getByTestId("auto-compact")).toHaveAttribute("data-verdict", "yes");
  await expect(page.getByRole("meter", { name: "Context window fill" })).toHaveAttribute("aria-valuemax", String(small));
  await page.getByTestId("setting-reserve").fill("500");
  await expect(page.getByTestId("auto-compact")).toHaveAttribute("data-verdict", "no");
  await expect(page).toHaveURL(new RegExp(`[?&]window=${small}(&|$)`));
  await expect(page).toHaveURL(/[?&]reserve=500(&|$)/);
  await page.reload();
  await expect(page.getByRole("meter", { name: "Context window fill" })).toHaveAttribute("aria-valuemax", String(small), { timeout: 60_000 });
  await expect(page.getByTestId("auto-compact")).toHaveAttribute("data-verdict", "no");
});

test("Sent to model lists convertToLlm's messages with their entries, pi's exact wrapper text, and copies the array as JSON", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const session = openFixture("ca-compaction-a");
  const leaf = leafOf(session);
  const view = modelView(session, leaf);
  await openContext(page, "ca-compaction-a", leaf);
  await page.getByTestId("context-mode-llm").click();
  await expect(page).toHaveURL(/[?&]ctx=llm(&|$)/);
  const rows = page.getByTestId("llm-list").locator("[data-entry-id]");
  await expect(rows.first()).toBeVisible();
  const shown = await rows.evaluateAll((els) => els.map((el) => [el.getAttribute("data-entry-id"), el.getAttribute("data-from")]));
  expect(shown).toEqual(view.llm.slice(0, shown.length).map((m) => [m.entryId, m.from]));
  const summary = view.llm.findIndex((m) => m.from === "compactionSummary");
  expect(summary).toBeGreaterThanOrEqual(0);
  await rows.nth(summary).getByRole("button").first().click();
  const content = view.llm[summary]!.message.content as { text: string }[];
  await expect(page.getByTestId("llm-text")).toHaveText(content[0]!.text);
  await page.getByTestId("copy-llm-json").click();
  await expect(page.getByTestId("copy-llm-json")).toHaveText("Copied");
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(JSON.parse(copied)).toEqual(JSON.parse(JSON.stringify(view.llm.map((m) => m.message))));
  await page.screenshot({ path: `${SHOTS}/llm.png` });
  await page.reload();
  await expect(page.getByTestId("llm-view")).toBeVisible({ timeout: 60_000 });
});

test("a path through branch summaries marks them on the chart, and their text goes to the model as pi wraps it", async ({ page }) => {
  const session = openFixture("ca-branching-a");
  const summaryIds = [...session.tree.nodes()].filter((n) => n.entry.type === "branch_summary").map((n) => n.entry.id);
  // a leaf below a branch summary
  const leaf = [...session.tree.ids()].find((id) => session.tree.children(id).length === 0 && session.branch(id).some((e) => summaryIds.includes(e.id)))!;
  expect(leaf).toBeDefined();
  const view = modelView(session, leaf);
  const marks = [...contextSizes(session.sharedBranch(leaf))].filter((p) => p.kind === "branchSummary");
  await openContext(page, "ca-branching-a", leaf, "&ctx=llm");
  await expect(page.locator("[data-chart-kind=branchSummary]")).toHaveCount(marks.length);
  const converted = view.llm.filter((m) => m.from === "branchSummary");
  expect(converted.length).toBeGreaterThan(0);
  // the list draws the rows in view: bring the first converted summary there
  const at = view.llm.indexOf(converted[0]!);
  await page.getByTestId("llm-list").evaluate((el, top) => (el.scrollTop = top), at * 26);
  await expect(page.getByTestId("llm-list").locator(`[data-from=branchSummary][data-entry-id="${converted[0]!.entryId}"]`)).toBeVisible();
  expect((converted[0]!.message.content as { text: string }[])[0]!.text).toMatch(
    /^The following is a summary of a branch that this conversation came back from:\n\n<summary>\n[\s\S]*<\/summary>$/,
  );
});

test("going back with a summary: the Path tab lists what pi's /tree would summarize from the leaf, within pi's budget", async ({ page }) => {
  const session = openFixture("ca-branching-a");
  const leaf = leafOf(session);
  const onPath = new Set(session.branch(leaf).map((e) => e.id));
  const target = session.tree.entries.find((e) => !onPath.has(e.id as string))!.id as string;
  const known = modelOfContext(catalogue, session.context(leaf).model);
  const budget = (known?.contextWindow ?? 128000) - 16384;
  const preview = session.branchSummary(leaf, target, budget);
  expect(preview.entryIds.length).toBeGreaterThan(0);
  await page.goto(`${viewUrl("ca-branching-a", target)}&tab=path`);
  const panel = page.getByTestId("branch-summary-preview");
  await expect(panel).toBeVisible({ timeout: 60_000 });
  await panel.getByRole("button", { name: /Go back here with a summary/ }).click();
  const rows = page.getByTestId("branch-summary-entries").locator("[data-entry-id]");
  await expect(rows).toHaveCount(preview.entryIds.length);
  expect(await rows.evaluateAll((els) => els.map((el) => el.getAttribute("data-entry-id")))).toEqual(preview.entryIds);
  const summarized = new Set(preview.messages.map((m) => m.entryId));
  const marks = await rows.evaluateAll((els) => els.map((el) => el.getAttribute("data-summarized")));
  expect(marks).toEqual(preview.entryIds.map((id) => (summarized.has(id) ? "true" : preview.overBudgetIds.includes(id) ? "over-budget" : "false")));
  await expect(panel.locator("[data-tokens]")).toHaveAttribute("data-tokens", String(preview.tokens));
  await expect(panel).toContainText(`budget ${budget.toLocaleString("en-US")} = ${known ? "the model's window" : "pi's fallback window"}`);
  await expect(panel.locator("[data-common-ancestor]")).toHaveAttribute("data-common-ancestor", preview.commonAncestorId ?? "");
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/branch-summary.png` });
  // back to an ancestor of the leaf: what comes after it on the leaf's path is left behind, and summarized
  const path = session.branch(leaf).map((e) => e.id);
  const ancestor = path[Math.floor(path.length / 2)]!;
  await page.goto(`${viewUrl("ca-branching-a", ancestor)}&tab=path`);
  await page.getByTestId("branch-summary-preview").getByRole("button").first().click();
  const left = page.getByTestId("branch-summary-entries").locator("[data-entry-id]");
  await expect(left).toHaveCount(path.length - path.indexOf(ancestor) - 1);
  expect(await left.evaluateAll((els) => els.map((el) => el.getAttribute("data-entry-id")))).toEqual(path.slice(path.indexOf(ancestor) + 1));
});

test("If pi compacted here: the core's preparation, its kept boundary marked on the graph card, and the keep setting from the URL", async ({ page }) => {
  const session = openFixture("ca-compaction-a");
  const leaf = leafOf(session);
  const keep = 300;
  const preview = session.compaction(leaf, keep)!;
  expect(preview).not.toBeNull();
  await openContext(page, "ca-compaction-a", leaf, `&keep=${keep}`);
  const panel = page.getByTestId("compaction-preview");
  await panel.getByRole("button", { name: /If pi compacted here/ }).click();
  const facts = panel.locator("[data-prepared=true]");
  await expect(facts).toHaveAttribute("data-first-kept-id", preview.firstKeptEntryId);
  await expect(facts).toHaveAttribute("data-tokens-before", String(preview.tokensBefore));
  await expect(panel).toContainText(`${preview.messagesToSummarize.length} messages summarized`);
  // the graph marks the entry pi would keep first (its card, or the folded segment holding it)
  const marked = page.getByTestId("session-graph").locator("[data-first-kept=true]");
  await expect(marked).toHaveCount(1);
  const where = await marked.evaluate((el) => el.getAttribute("data-entry-id") ?? el.getAttribute("data-entry-ids"));
  expect(where!.split(" ")).toContain(preview.firstKeptEntryId);
  await page.screenshot({ path: `${SHOTS}/compaction-preview.png` });
  await panel.getByRole("button", { name: /If pi compacted here/ }).click();
  await expect(marked).toHaveCount(0);
});

test("a compaction entry beside pi's own preparation at its place", async ({ page }) => {
  const session = openFixture("ca-compaction-multi-a");
  // a compaction where pi, keeping only the newest ~10 tokens, would prepare one
  const compaction = session.tree.entries.find((e) => e.type === "compaction" && session.compaction(e.parentId as string, 10) !== null)!;
  const computed = session.compaction(compaction.parentId as string, 10);
  await page.goto(`${viewUrl("ca-compaction-multi-a", compaction.id as string)}&keep=10`);
  const audit = page.getByTestId("compaction-audit");
  await expect(audit).toBeVisible({ timeout: 60_000 });
  expect(computed).not.toBeNull();
  await expect(audit).toHaveAttribute("data-prepared", "true");
  if (computed) {
    await expect(audit.locator("[data-field=firstKeptEntryId]")).toHaveAttribute(
      "data-same",
      String(compaction.firstKeptEntryId === computed.firstKeptEntryId),
    );
    await expect(audit.locator("[data-field=tokensBefore]")).toHaveAttribute("data-same", String(compaction.tokensBefore === computed.tokensBefore));
    await expect(audit.locator("[data-field=tokensBefore] td").nth(2)).toHaveText(String(computed.tokensBefore));
  }
  await page.screenshot({ path: `${SHOTS}/compaction-audit.png` });
});

test("the compare pane says what /tree from A to B would summarize", async ({ page }) => {
  const session = openFixture("ca-branching-a");
  const a = leafOf(session);
  const onPath = new Set(session.branch(a).map((e) => e.id));
  const b = session.tree.entries.find((e) => !onPath.has(e.id as string))!.id as string;
  const known = modelOfContext(catalogue, session.context(a).model);
  const preview = session.branchSummary(a, b, (known?.contextWindow ?? 128000) - 16384);
  await page.goto(`${viewUrl("ca-branching-a", a)}&compare=${b}`);
  const section = page.getByTestId("compare-branch-summary");
  await expect(section).toBeAttached({ timeout: 60_000 });
  await section.locator("summary").click();
  const rows = section.getByTestId("branch-summary-entries").locator("[data-entry-id]");
  await expect(rows).toHaveCount(preview.entryIds.length);
  expect(await rows.evaluateAll((els) => els.map((el) => el.getAttribute("data-entry-id")))).toEqual(preview.entryIds);
  await expect(section.locator("[data-common-ancestor]")).toHaveAttribute("data-common-ancestor", preview.commonAncestorId ?? "");
});
