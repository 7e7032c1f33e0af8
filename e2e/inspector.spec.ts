// The inspector against pi's goldens: Path and Context lists per entry, Export fork and Export transcript downloads, screenshots.
import { readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import { expect, test, type Download, type Locator, type Page } from "@playwright/test";
import { Session, type JsonObject, type TreeEntry } from "../lib/session";
import { FIXTURES_DIR } from "../lib/session/testing/golden";
import { dedupe, listIds } from "./fixtures/lists";
import { sessionFile, viewUrl, type FixtureName } from "./fixtures/session-files";

type Golden = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

// each test opens the viewer on a file and parses it in a worker first; 2 shared cores can make that slow
test.describe.configure({ timeout: 90_000 });

interface Loaded {
  session: Session;
  /** the golden section of the reader the viewer uses (harness for leaf-entry files) */
  golden: Golden;
  /** createBranchedSession is the coding agent's: its forks are the expected exports */
  caGolden: Golden;
}

function load(name: FixtureName): Loaded {
  const bytes = readFileSync(sessionFile(name));
  const session = Session.fromText(new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes));
  const all = JSON.parse(readFileSync(path.join(FIXTURES_DIR, "golden", `${name}.golden.json`), "utf8"));
  return { session, golden: session.reader === "hx" ? all.harness : all.codingAgent, caGolden: all.codingAgent };
}

/** Entries worth checking: the leaf, summaries, a middle entry of the leaf's path, an entry off that path. Chosen from the file, not typed in. */
function interestingEntries(session: Session): string[] {
  const leaf = session.leafId!;
  const onPath = session.branch(leaf);
  const ids = new Set<string>([leaf]);
  const summary = session.tree.entries.find((e) => e.type === "compaction" || (e.type === "branch_summary" && e.summary));
  if (summary) ids.add(summary.id as string);
  ids.add(onPath[Math.floor(onPath.length / 2)]!.id);
  const pathIds = new Set(onPath.map((e) => e.id));
  const off = session.tree.entries.filter((e): e is TreeEntry => typeof e.id === "string" && !pathIds.has(e.id) && e.type === "message");
  if (off.length) ids.add(off[Math.floor(off.length / 2)]!.id);
  return [...ids];
}

async function open(page: Page, name: FixtureName, entry: string): Promise<Locator> {
  await page.goto(viewUrl(name, entry));
  const inspector = page.locator("#inspector");
  await expect(inspector.getByRole("tab", { name: "Entry", exact: true })).toBeVisible({ timeout: 45_000 });
  await expect(inspector.locator("header")).toContainText(entry);
  return inspector;
}

async function readDownload(download: Download): Promise<string> {
  return readFileSync((await download.path())!, "utf8");
}

const FIXTURES: FixtureName[] = ["ca-compaction-a", "ca-branching-a", "hx-leaf-moves-a"];

for (const name of FIXTURES) {
  test.describe(name, () => {
    const { session, golden, caGolden } = load(name);

    for (const id of interestingEntries(session)) {
      test(`Path and Context of ${id} match pi`, async ({ page }) => {
        const record = golden.leaves[id];
        expect(record.path, "the golden has full lists for this entry").toBeTruthy();
        const inspector = await open(page, name, id);

        await inspector.getByRole("tab", { name: "Path", exact: true }).click();
        const pathIds = await listIds(inspector.getByTestId("path-list"));
        expect(pathIds).toEqual(session.branch(id).map((e) => e.id));
        expect(pathIds).toEqual(record.path);

        await inspector.getByRole("tab", { name: "Context", exact: true }).click();
        const contextIds = dedupe(await listIds(inspector.getByTestId("context-list")));
        const fromCore = dedupe(session.context(id).messages.map((m) => m.entryId));
        const fromGolden = (record.context as string[]).filter((cid) => session.rules.messages(session.tree.get(cid)!).length > 0);
        expect(fromCore).toEqual(fromGolden);
        expect(contextIds).toEqual(fromGolden);
        await expect(inspector.getByTestId("context-list").locator("[data-entry-id]").first()).toBeVisible();
        if (session.reader === "hx") await expect(inspector.getByText("Harness rules apply.")).toBeVisible();
      });
    }

    test("clicking a Path row selects that entry", async ({ page }) => {
      const leaf = session.leafId!;
      const target = session.branch(leaf)[1]!.id;
      const inspector = await open(page, name, leaf);
      await inspector.getByRole("tab", { name: "Path", exact: true }).click();
      // the list opens scrolled to the selected entry; the target is near the root
      await inspector.getByTestId("path-list").evaluate((el) => el.scrollTo({ top: 0 }));
      await inspector.getByTestId("path-list").locator(`[data-entry-id="${target}"] button`).click();
      await expect(inspector.getByTestId("path-list").locator("[data-entry-id]")).toHaveCount(golden.leaves[target].path.length);
      expect(await listIds(inspector.getByTestId("path-list"))).toEqual(golden.leaves[target].path);
      await inspector.getByRole("tab", { name: "Entry", exact: true }).click();
      await expect(inspector.locator("header")).toContainText(target);
    });

    test("Export fork downloads what pi's createBranchedSession writes", async ({ page }) => {
      const id = session.leafId!;
      const inspector = await open(page, name, id);
      // a file the harness reads forks as the harness does by default: the coding agent's fork is the other choice
      if (session.rules.id === "hx") await inspector.getByTestId("fork-kind").selectOption("ca");
      const [download] = await Promise.all([page.waitForEvent("download"), inspector.getByRole("button", { name: "Export fork" }).click()]);
      const text = await readDownload(download);
      expect(text.endsWith("\n")).toBe(true);
      const [headerLine, ...entryLines] = text.slice(0, -1).split("\n");
      const header = JSON.parse(headerLine!) as JsonObject;

      // the server knows its sessions dir, so the fork names its source file, as pi does for a file on disk
      expect([path.resolve(sessionFile(name)), realpathSync(sessionFile(name))]).toContain(header.parentSession);
      const expected = session.fork(id, header.parentSession === undefined ? {} : { sourcePath: header.parentSession as string }, "ca");
      expect({ ...header, id: "", timestamp: "" }).toEqual(JSON.parse(JSON.stringify({ ...expected.header, id: "", timestamp: "" })));
      expect(header.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(Number.isNaN(Date.parse(header.timestamp as string))).toBe(false);
      expect(download.suggestedFilename()).toBe(`${(header.timestamp as string).replace(/[:.]/g, "-")}_${header.id}.jsonl`);

      const goldenFork = caGolden.forks[id];
      const created = goldenFork.labels.length as number;
      const expectedLines = expected.text.slice(0, -1).split("\n").slice(1);
      expect(entryLines).toHaveLength(expectedLines.length);
      const kept = entryLines.length - created;
      expect(entryLines.slice(0, kept)).toEqual(expectedLines.slice(0, kept));
      expect(entryLines.slice(0, kept).map((l) => JSON.parse(l).id)).toEqual(
        goldenFork.entries.map((e: string | { modified: JsonObject }) => (typeof e === "string" ? e : e.modified.id)),
      );
      // the re-created label entries get fresh random ids (and so parent ids): everything else must match
      const withoutIds = (line: string) => ({ ...JSON.parse(line), id: undefined, parentId: undefined });
      expect(entryLines.slice(kept).map(withoutIds)).toEqual(expectedLines.slice(kept).map(withoutIds));
    });

    test("Export transcript downloads Markdown with the path's user messages", async ({ page }) => {
      const id = session.leafId!;
      const inspector = await open(page, name, id);
      const [download] = await Promise.all([page.waitForEvent("download"), inspector.getByRole("button", { name: "Export transcript" }).click()]);
      expect(download.suggestedFilename()).toMatch(new RegExp(`_${id}\\.md$`));
      const markdown = await readDownload(download);
      expect(markdown.startsWith("# ")).toBe(true);
      const users = session.branch(id).filter((e) => e.type === "message" && (e.message as JsonObject).role === "user");
      expect(users.length).toBeGreaterThan(0);
      for (const entry of users) {
        const content = (entry.message as JsonObject).content;
        const texts = typeof content === "string" ? [content] : (content as JsonObject[]).filter((b) => b.type === "text").map((b) => b.text as string);
        for (const t of texts) expect(markdown).toContain(t);
      }
    });
  });
}

test("a harness file's Export fork writes the harness's repo.fork, at the entry or before a user message", async ({ page }) => {
  const { session } = load("hx-retained-a");
  const golden = JSON.parse(readFileSync(path.join(FIXTURES_DIR, "golden", "hx-retained-a.golden.json"), "utf8")).harness.forks as Record<
    string,
    { at?: { entries: string[] }; before?: { entries: string[] } }
  >;
  const [id, record] = Object.entries(golden).find(([, r]) => r.before && r.at && "entries" in r.at && "entries" in r.before && r.before.entries.length > 0)!;
  const inspector = await open(page, "hx-retained-a", id);
  const kind = inspector.getByTestId("fork-kind");
  await expect(kind).toHaveValue("hx-at");
  const fork = async () => {
    const [download] = await Promise.all([page.waitForEvent("download"), inspector.getByRole("button", { name: "Export fork" }).click()]);
    const lines = (await readDownload(download)).slice(0, -1).split("\n");
    return { header: JSON.parse(lines[0]!) as JsonObject, ids: lines.slice(1).map((l) => JSON.parse(l).id as string) };
  };
  const at = await fork();
  expect(at.ids).toEqual(record.at!.entries);
  expect(at.header.metadata).toEqual(session.header?.metadata);
  await kind.selectOption("hx-before");
  const before = await fork();
  expect(before.ids).toEqual(record.before!.entries);
  // on an entry that is no user message, "before" is refused with pi's reason
  const notUser = Object.entries(golden).find(([, r]) => r.at && !r.before)![0];
  await page.goto(viewUrl("hx-retained-a", notUser));
  await inspector.getByTestId("fork-kind").selectOption("hx-before");
  await expect(inspector.getByRole("button", { name: "Export fork" })).toBeDisabled();
  await expect(inspector.getByText(/is not a user message/)).toBeVisible();
});

test("a parent cycle: no fork, no context, said plainly", async ({ page }) => {
  const { session } = load("edge-cycle");
  const inCycle = session.shape().cycles[0]![0]!;
  expect(() => session.fork(inCycle)).toThrow();
  const inspector = await open(page, "edge-cycle", inCycle);
  await expect(inspector.getByRole("button", { name: "Export fork" })).toBeDisabled();
  await expect(inspector.getByText(/Fork unavailable: .*cycle/)).toBeVisible();
  await inspector.getByRole("tab", { name: "Context", exact: true }).click();
  await expect(inspector.getByRole("alert")).toContainText("cycle");
});

test("screenshots of each tab, light and dark", async ({ page }) => {
  test.setTimeout(150_000);
  const { session } = load("ca-compaction-a");
  const compaction = session.tree.entries.find((e) => e.type === "compaction")!.id as string;
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const inspector = await open(page, "ca-compaction-a", compaction);
    await page.evaluate((dark) => document.documentElement.classList.toggle("dark", dark), scheme === "dark");
    await page.screenshot({ path: `test-results/inspector-entry-${scheme}.png` });
    await inspector.getByRole("tab", { name: "Path", exact: true }).click();
    await expect(inspector.getByTestId("path-list").locator("[data-entry-id]").first()).toBeVisible();
    await page.screenshot({ path: `test-results/inspector-path-${scheme}.png` });
    await inspector.getByRole("tab", { name: "Context", exact: true }).click();
    await inspector.getByTestId("context-list").locator("[data-entry-id] button[aria-expanded]").first().click();
    await expect(inspector.getByTestId("context-list").locator("[data-entry-id] button[aria-expanded=true]")).toHaveCount(1);
    await expect(inspector.getByTestId("context-chart")).toHaveAttribute("aria-busy", "false"); // drawn after the messages
    await page.screenshot({ path: `test-results/inspector-context-${scheme}.png` });
    await inspector.getByRole("tab", { name: "Entry", exact: true }).click();
  }
});
