// Tool calls drawn by their tool, in Chromium, on a session whose calls pi 1.6.0's own tools ran
// (write-tool-session.ts): an edit's diff, a highlighted write, a coloured bash output with its link and exit
// code, a failed edit, folding; in light and dark, with screenshots.
import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { Session, type JsonObject } from "../lib/session";
import { sessionFile, viewUrl } from "./fixtures/session-files";

test.describe.configure({ timeout: 90_000 });

const session = Session.fromText(readFileSync(sessionFile("tools-160"), "utf8"));
/** the assistant entry that makes the call named so, and the call */
function callEntry(name: string, nth = 0): { entry: string; call: JsonObject; result: JsonObject } {
  const found: { entry: string; call: JsonObject; result: JsonObject }[] = [];
  for (const entry of session.tree.entries) {
    const message = entry.message as JsonObject | undefined;
    if (entry.type !== "message" || message?.role !== "assistant" || !Array.isArray(message.content)) continue;
    for (const block of message.content as JsonObject[]) {
      if (block.type !== "toolCall" || block.name !== name) continue;
      const result = session.tree.entries.find((e) => (e.message as JsonObject | undefined)?.toolCallId === block.id)!.message as JsonObject;
      found.push({ entry: entry.id as string, call: block, result });
    }
  }
  return found[nth]!;
}

async function open(page: Page, entry: string) {
  await page.goto(viewUrl("tools-160", entry));
  const inspector = page.locator("#inspector");
  await expect(inspector.locator("header")).toContainText(entry, { timeout: 45_000 });
  return inspector;
}

test("an edit is its diff, line for line as pi recorded it, marked for screen readers", async ({ page }) => {
  const { entry, call, result } = callEntry("edit");
  const inspector = await open(page, entry);
  const tool = inspector.locator(`[data-tool="edit"][data-tool-call-id="${String(call.id)}"]`);
  await expect(tool).toBeVisible();
  await expect(tool.locator("[data-tool-path]")).toHaveAttribute("data-tool-path", "src/pool.ts");
  const recorded = String((result.details as JsonObject).diff).split("\n");
  const rows = tool.locator("[data-diff]");
  await expect(rows).toHaveCount(Math.min(recorded.length, 20));
  const signs = await rows.evaluateAll((els) => els.map((el) => el.getAttribute("data-diff")));
  expect(signs).toEqual(recorded.slice(0, 20).map((line) => (line[0] === "+" || line[0] === "-" ? line[0] : " ")));
  // every added line says so in words, not only in colour
  await expect(tool.locator('[data-diff="+"] .sr-only').first()).toHaveText(/^added line \d+: $/);
  await expect(tool.locator('[data-diff="+"]').first()).toContainText("at most 10");
  // highlighted as TypeScript, its text unchanged
  await expect(tool.locator("[data-language]").first()).toHaveAttribute("data-language", "typescript");
  await expect(tool.locator('[data-diff] [class^="hljs-"]').first()).toBeVisible();
});

test("a failed edit shows pi's error text and no diff", async ({ page }) => {
  const { entry, call, result } = callEntry("edit", 1);
  const inspector = await open(page, entry);
  const tool = inspector.locator(`[data-tool-call-id="${String(call.id)}"]`);
  await expect(tool.locator("[role=note]")).toHaveText(((result.content as JsonObject[])[0]!.text as string).trim());
  await expect(tool.locator("[data-diff]")).toHaveCount(0);
});

test("a write is highlighted code with line numbers; a read shows its range and numbers from its offset", async ({ page }) => {
  const write = callEntry("write");
  let inspector = await open(page, write.entry);
  const code = inspector.locator(`[data-tool="write"] [data-language="typescript"]`);
  await expect(code.locator(".hljs-keyword").first()).toHaveText("import");
  await expect(inspector.locator('[data-tool="write"]')).toContainText("21 lines");
  // folded: the first 20 lines and a button that says how many it hides
  await expect(inspector.locator('[data-tool="write"] [data-folded="true"] button')).toHaveText("Show 1 more line");
  await inspector.locator('[data-tool="write"] [data-folded="true"] button').click();
  await expect(inspector.locator('[data-tool="write"] [data-folded="true"]')).toHaveCount(0);

  const read = callEntry("read");
  inspector = await open(page, read.entry);
  await expect(inspector.locator('[data-tool="read"]')).toContainText("src/pool.ts:8-13");
  await expect(inspector.locator('[data-tool="read"] [aria-hidden]').filter({ hasText: /^8$/ })).toHaveCount(1);
});

test("a bash run is its terminal's colours, its link and its exit code", async ({ page }) => {
  const { entry, call } = callEntry("bash");
  const inspector = await open(page, entry);
  const tool = inspector.locator(`[data-tool="bash"][data-tool-call-id="${String(call.id)}"]`);
  await expect(tool).toHaveAttribute("data-exit-code", "1");
  await expect(tool).toContainText("exit 1");
  await expect(tool.locator('[data-language="bash"]')).toContainText("printf");
  const output = tool.locator("[aria-label=output]");
  await expect(output.locator(".ansi-green")).toHaveText("✓");
  await expect(output.locator(".ansi-red")).toHaveText("✗");
  await expect(output.locator(".font-bold")).toHaveText("pool.test.ts");
  // the OSC 8 hyperlink is a link, its escape codes nowhere in the text
  const link = output.getByRole("link", { name: "the pool docs" });
  await expect(link).toHaveAttribute("href", "https://node-postgres.com/apis/pool");
  await expect(link).toHaveAttribute("rel", "noopener noreferrer nofollow");
  expect(await output.textContent()).not.toMatch(/\x1b|\]8;;/);
  // the "Command exited with code 1" pi appends is the exit code, not a line of output
  await expect(output).not.toContainText("Command exited");
});

test("long output folds; a search listing counts its matches", async ({ page }) => {
  const long = callEntry("bash", 1);
  let inspector = await open(page, long.entry);
  const folded = inspector.locator('[data-tool="bash"] [data-folded="true"]');
  await expect(folded.locator("button")).toHaveText("Show 40 more lines");
  await folded.locator("button").click();
  await expect(inspector.locator('[data-tool="bash"] [aria-label=output]')).toContainText("line 60");

  const grep = callEntry("grep");
  inspector = await open(page, grep.entry);
  await expect(inspector.locator('[data-tool="grep"] [data-count]')).toHaveText("1 match in 1 file");
  await expect(inspector.locator('[data-tool="ls"] [data-count]')).toHaveText("1 entry");
});

test("a search hit the fold hides opens it and is marked; a hit in view leaves the fold closed", async ({ page }) => {
  const long = callEntry("bash", 1);
  let inspector = await open(page, long.entry);
  const tool = inspector.locator('[data-tool="bash"]').last();
  await expect(tool.locator('[data-folded="true"]')).toHaveCount(1);
  // a phrase: its words alone ("line") are on every line
  await page.getByTestId("search-input").fill('"LINE 45"');
  await expect(tool.locator('[data-folded="true"]')).toHaveCount(0);
  await expect(tool.locator("[aria-label=output] mark[data-search-hit]")).toHaveText(["line 45"]);
  await expect(tool.locator("mark[data-search-hit]").first()).toBeInViewport();
  await page.screenshot({ path: "/tmp/shots-tools/search-unfolds.png" });

  await page.goto(`${viewUrl("tools-160", long.entry)}&q=${encodeURIComponent('"line 12"')}`);
  inspector = page.locator("#inspector");
  await expect(inspector.locator("header")).toContainText(long.entry, { timeout: 45_000 });
  await expect(tool.locator("[aria-label=output] mark[data-search-hit]")).toHaveText(["line 12"]);
  await expect(tool.locator('[data-folded="true"]')).toHaveCount(1);
});

test("the Context tab shows each call once and each result once", async ({ page }) => {
  const { entry, call } = callEntry("bash");
  const inspector = await open(page, entry);
  await inspector.getByRole("tab", { name: "Context", exact: true }).click();
  const rows = inspector.getByTestId("context-list");
  await expect(rows).toBeVisible();
  await rows.locator(`[data-entry-id="${entry}"] button`).first().click();
  await expect(rows.locator(`[data-tool-call-id="${String(call.id)}"]`)).toHaveCount(1);
  await expect(rows.locator(`[data-tool-call-id="${String(call.id)}"] [aria-label=output]`)).toHaveCount(0);
});

test("t, o and h toggle thinking, tool outputs and undisplayed custom messages, kept in the URL and listed in the keys help", async ({ page }) => {
  const long = callEntry("bash", 1);
  const inspector = await open(page, long.entry);
  const tool = inspector.locator('[data-tool="bash"]');
  await expect(tool.locator('[data-folded="true"]')).toHaveCount(1);
  await page.locator("body").press("o");
  await expect(tool.locator('[data-folded="true"]')).toHaveCount(0);
  await expect(tool.locator("[aria-label=output]")).toContainText("line 60");
  await expect(page).toHaveURL(/[?&]outputs=1(&|$)/);
  // the toggle outlives a reload, from the URL
  await page.reload();
  await expect(page.locator('#inspector [data-tool="bash"] [aria-label=output]')).toContainText("line 60", { timeout: 45_000 });
  await page.locator("body").press("o");
  await expect(page.locator('#inspector [data-tool="bash"] [data-folded="true"]')).toHaveCount(1);
  await expect(page).not.toHaveURL(/outputs=/);
  for (const key of ["t", "h"]) {
    await page.locator("body").press(key);
    await expect(page).toHaveURL(key === "t" ? /[?&]thinking=0(&|$)/ : /[?&]hidden=1(&|$)/);
  }
  // keys typed into a field are the field's
  await page.getByTestId("search-input").press("o");
  await expect(page).not.toHaveURL(/outputs=/);
  // the graph's key help lists them with their state
  await page.getByTestId("session-graph").focus();
  await page.keyboard.press("?");
  const help = page.getByRole("dialog", { name: "Graph keys" });
  await expect(help).toContainText("Reading (anywhere)");
  await expect(help).toContainText("Show / hide thinking (hidden)");
  await expect(help).toContainText("Show / hide custom messages pi does not display (shown)");
});

test("t hides thinking and h shows a custom message pi does not display (ca-roles-a)", async ({ page }) => {
  await page.goto(viewUrl("ca-roles-a", "8420aeec"));
  const inspector = page.locator("#inspector");
  await expect(inspector.getByText(/^Thinking/).first()).toBeVisible({ timeout: 45_000 });
  await page.locator("body").press("t");
  await expect(inspector.locator('[data-thinking="hidden"]').first()).toContainText("Thinking hidden");
  await page.goto(viewUrl("ca-roles-a", "d3b76de9"));
  await expect(inspector.locator('[data-not-displayed="true"]')).toBeVisible({ timeout: 45_000 });
  await page.locator("body").press("h");
  await expect(inspector.locator('[data-not-displayed="true"]')).toHaveCount(0);
  await expect(page).toHaveURL(/[?&]hidden=1(&|$)/);
});

test("screenshots, light and dark: an edit, a write, a bash run", async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  for (const [name, nth] of [
    ["edit", 0],
    ["write", 0],
    ["bash", 0],
  ] as const) {
    const { entry } = callEntry(name, nth);
    await open(page, entry);
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.evaluate((dark) => document.documentElement.classList.toggle("dark", dark), scheme === "dark");
      await page.locator(`#inspector [data-tool="${name}"]`).first().scrollIntoViewIfNeeded();
      await page.screenshot({ path: `test-results/tool-${name}-${scheme}.png` });
    }
  }
});
