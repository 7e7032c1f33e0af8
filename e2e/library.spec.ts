// The library page against the e2e sessions dir: names and counts as the core reads them, filter, navigation, theme.
import { expect, test } from "@playwright/test";
import { expectedEntryLines, expectedTitle, openFixture } from "./fixtures/core";
import { statSync } from "node:fs";
import path from "node:path";
import { SUMMARY_LIMITS } from "../lib/server/read-summary";
import { SESSION_FILES, SESSIONS_DIR, type FixtureName } from "./fixtures/session-files";
import { familyRows } from "../components/library/group-sessions";
import type { LibrarySession } from "../components/library/library-types";

// the 2-core machine runs several servers and builds at once; a page load there can take many seconds
test.describe.configure({ timeout: 90_000 });

const FIXTURES = Object.keys(SESSION_FILES) as FixtureName[];
const fileName = (rel: string) => rel.slice(rel.lastIndexOf("/") + 1);
/** the library reads files over this size only at their ends and estimates their entry count */
const estimated = (name: FixtureName) => statSync(path.join(SESSIONS_DIR, SESSION_FILES[name])).size > SUMMARY_LIMITS.fullScan;
const closeTo = (shown: number, real: number) => Math.abs(shown - real) / real < 0.05;

test.beforeEach(async ({ page }) => {
  await page.goto("/");
  await expect(page.getByTestId("session-row").first()).toBeVisible({ timeout: 45_000 });
});

test("lists every fixture session with the name and entry count the core reads", async ({ page }) => {
  await expect(page.getByTestId("session-row")).toHaveCount(FIXTURES.length);
  await expect(page.getByTestId("samples-notice")).toHaveCount(0);
  for (const name of FIXTURES) {
    const session = openFixture(name);
    const row = page.locator(`[data-testid="session-row"][data-path="${SESSION_FILES[name]}"]`);
    const title = expectedTitle(session);
    const shown = (await row.getByTestId("session-name").textContent())!;
    if (title && title.length > 200) expect(title.startsWith(shown.slice(0, -1)), name).toBe(true);
    else expect(shown, name).toBe(title ?? fileName(SESSION_FILES[name]));
    const count = row.getByTestId("entry-count");
    if (estimated(name)) {
      const text = (await count.textContent())!;
      expect(text.startsWith("≈"), name).toBe(true);
      expect(closeTo(Number(text.slice(1).replaceAll(",", "")), expectedEntryLines(session)), `${name}: ${text}`).toBe(true);
    } else await expect(count, name).toHaveText(expectedEntryLines(session).toLocaleString("en-US"));
    await expect(row, name).toHaveAttribute("href", `/view?file=${encodeURIComponent(SESSION_FILES[name])}`);
  }
});

test("groups sessions by their header's cwd; inside a group, families newest first, each fork under its source", async ({ page, request }) => {
  for (const name of FIXTURES) {
    const cwd = openFixture(name).header?.cwd;
    if (typeof cwd !== "string") continue;
    const group = page.getByTestId("project-group").filter({ has: page.locator(`[data-path="${SESSION_FILES[name]}"]`) });
    await expect(group.getByTestId("project-cwd"), name).toHaveText(cwd);
  }
  const listed: LibrarySession[] = await (await request.get("/api/sessions")).json();
  for (const group of await page.getByTestId("project-group").all()) {
    const rows = await group
      .getByTestId("session-row")
      .evaluateAll((els) => els.map((r) => [r.getAttribute("data-path")!, Number(r.getAttribute("data-depth"))] as const));
    const inGroup = listed.filter((s) => rows.some(([p]) => p === s.path));
    expect(rows).toEqual(familyRows(inGroup).map((r) => [r.session.path, r.depth]));
  }
});

test("a fork sits under its source, saying where it left it; a source says how many forks it has", async ({ page }) => {
  const project = page.getByTestId("project-group").filter({ has: page.locator(`[data-path="${SESSION_FILES["fork-source"]}"]`) });
  const paths = await project.getByTestId("session-row").evaluateAll((els) => els.map((r) => r.getAttribute("data-path")));
  expect(paths).toEqual([SESSION_FILES["fork-source"], SESSION_FILES["fork-a"], SESSION_FILES["fork-b"]]);
  const row = (name: FixtureName) => page.locator(`[data-testid="session-row"][data-path="${SESSION_FILES[name]}"]`);
  await expect(row("fork-a")).toHaveAttribute("data-depth", "1");
  await expect(row("fork-b")).toHaveAttribute("data-depth", "2");
  // the fork in another project heads its own tree there, and still names its source
  await expect(row("fork-moved")).toHaveAttribute("data-depth", "0");
  await expect(row("fork-source").getByTestId("fork-count")).toHaveText("2 forks");
  await expect(row("fork-a").getByTestId("fork-count")).toHaveText("1 fork");
  for (const [fork, source] of [
    ["fork-a", "fork-source"],
    ["fork-b", "fork-a"],
    ["fork-moved", "fork-source"],
  ] as const) {
    const of = row(fork).getByTestId("fork-of");
    await expect(of).toHaveAttribute("data-source", SESSION_FILES[source]);
    await expect(of).toContainText(`forked from ${expectedTitle(openFixture(source))}`);
    // the entry's first words (a long message is cut)
    await expect(of.getByTestId("fork-point")).toContainText(`“${lastInherited(fork, source).slice(0, 40)}`);
  }
  // a fork whose source is not in the library says so
  await expect(row("ca-roles-a").getByTestId("fork-of-missing")).toContainText("not in this library");
});

/** The text of the last entry `fork` holds unchanged from `source` (same id, same content but its parent). */
function lastInherited(fork: FixtureName, source: FixtureName): string {
  const from = openFixture(source);
  const strip = (entry: object) => JSON.stringify({ ...entry, parentId: undefined });
  let last: string | null = null;
  for (const entry of openFixture(fork).tree.entries) {
    const there = from.tree.get(entry.id as string);
    if (there && strip(there) === strip(entry)) last = entry.id as string;
  }
  const message = openFixture(fork).tree.get(last!)!.message as { content: { text: string }[] };
  return message.content.map((c) => c.text).join("");
}

test("GET /api/sessions lists the directory, not the samples", async ({ request }) => {
  const response = await request.get("/api/sessions");
  expect(response.status()).toBe(200);
  expect(response.headers()["x-sessions-source"]).toBe("directory");
  const listed: { path: string; cwd: string | null; entryCount: number; entryCountEstimated?: boolean; size: number; name: string | null }[] =
    await response.json();
  expect(listed.map((s) => s.path).sort()).toEqual(Object.values(SESSION_FILES).sort());
  for (const name of FIXTURES) {
    const row = listed.find((s) => s.path === SESSION_FILES[name])!;
    const real = expectedEntryLines(openFixture(name));
    if (estimated(name)) {
      expect(row.entryCountEstimated, name).toBe(true);
      expect(closeTo(row.entryCount, real), `${name}: ${row.entryCount} vs ${real}`).toBe(true);
    } else {
      expect(row.entryCountEstimated, name).toBeUndefined();
      expect(row.entryCount, name).toBe(real);
    }
  }
  expect(FIXTURES.some(estimated)).toBe(true);
});

test("the filter narrows the list by name, cwd or path, instantly", async ({ page }) => {
  const filter = page.getByTestId("filter");
  const title = expectedTitle(openFixture("ca-compaction-a"))!;
  await filter.fill(title);
  await expect(page.getByTestId("session-row")).toHaveCount(1);
  await expect(page.getByTestId("session-row")).toHaveAttribute("data-path", SESSION_FILES["ca-compaction-a"]);

  const cwd = openFixture("ca-compaction-a").header!.cwd as string;
  const sameCwd = FIXTURES.filter((n) => openFixture(n).header?.cwd === cwd);
  await filter.fill(cwd.toUpperCase());
  await expect(page.getByTestId("session-row")).toHaveCount(sameCwd.length);
  await expect(page.getByTestId("session-count")).toHaveText(`${sameCwd.length} of ${FIXTURES.length} sessions`);

  await filter.fill("edge-bom.jsonl");
  await expect(page.getByTestId("session-row")).toHaveCount(1);

  await filter.fill("no session is called like this");
  await expect(page.getByTestId("session-row")).toHaveCount(0);
  await expect(page.getByText("No sessions match")).toBeVisible();

  await filter.press("Escape");
  await expect(page.getByTestId("session-row")).toHaveCount(FIXTURES.length);
});

test("a row opens the session in the viewer; the keyboard gets there too", async ({ page }) => {
  await page.locator(`[data-path="${SESSION_FILES["ca-branching-a"]}"]`).click();
  await expect(page).toHaveURL(/\/view\?file=/);
  expect(new URL(page.url()).searchParams.get("file")).toBe(SESSION_FILES["ca-branching-a"]);
  await expect(page.getByTestId("dropzone")).toHaveAttribute("data-load-phase", "ready", { timeout: 45_000 });
  await expect(page.getByTestId("session-title")).toHaveText(expectedTitle(openFixture("ca-branching-a"))!);

  await page.getByRole("link", { name: "Back to the library" }).click();
  await expect(page.getByTestId("session-row").first()).toBeVisible();
  await page.keyboard.press("/");
  await expect(page.getByTestId("filter")).toBeFocused();
  await page.getByTestId("filter").fill(expectedTitle(openFixture("hx-leaf-moves-a"))!);
  await page.keyboard.press("ArrowDown");
  await expect(page.getByTestId("session-row").first()).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("dropzone")).toHaveAttribute("data-load-phase", "ready", { timeout: 45_000 });
  expect(new URL(page.url()).searchParams.get("file")).toBe(SESSION_FILES["hx-leaf-moves-a"]);
});

test("the theme toggle switches to dark and the choice survives a reload", async ({ page }) => {
  const html = page.locator("html");
  await expect(html).not.toHaveClass(/dark/);
  await page.getByTestId("theme-toggle").click();
  await expect(html).toHaveClass(/dark/);
  await page.reload();
  await expect(html).toHaveClass(/dark/);
  await page.getByTestId("theme-toggle").click();
  await expect(html).not.toHaveClass(/dark/);
});

test("screenshots of the library, light and dark", async ({ page }) => {
  await page.screenshot({ path: "test-results/shell-library-light.png" });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.evaluate(() => localStorage.removeItem("theme"));
  await page.reload();
  await expect(page.locator("html")).toHaveClass(/dark/);
  await expect(page.getByTestId("session-row").first()).toBeVisible();
  await page.screenshot({ path: "test-results/shell-library-dark.png" });
});
