// pi's newer formats in the viewer: the rules badge, the context of an entry against the core library, a
// context_edit's replacement in the Context tab, the new entry types in the Entry tab, a v4 log's lanes; screenshots.
import { mkdirSync } from "node:fs";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { rulesBadgeText, type JsonObject, type Session, type TreeEntry } from "../lib/session";
import { systemPromptOf } from "../lib/session/features/system-prompt";
import { openFixture } from "./fixtures/core";
import { viewUrl, type FixtureName } from "./fixtures/session-files";

test.describe.configure({ timeout: 120_000 });

const SHOTS = "/tmp/shots-formats";
mkdirSync(SHOTS, { recursive: true });

const NEWEST: FixtureName[] = ["newest-086", "newest-087", "newest-160", "newest-v4"];

async function open(page: Page, name: FixtureName, entry: string): Promise<Locator> {
  await page.goto(viewUrl(name, entry));
  const inspector = page.locator("#inspector");
  await expect(inspector.getByRole("tab", { name: "Entry", exact: true })).toBeVisible({ timeout: 60_000 });
  await expect(inspector.locator("header")).toContainText(entry);
  return inspector;
}

/** Every row's data-entry-id of a (virtualized) list, top to bottom, consecutive duplicates merged. */
async function listIds(list: Locator): Promise<string[]> {
  await expect(list.locator("[data-index]").first()).toBeVisible();
  const ids = await list.evaluate(async (el) => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const seen = new Map<number, string | null>();
    el.scrollTop = 0;
    await frame();
    for (let step = 0; step < 1000; step++) {
      await frame();
      for (const row of el.querySelectorAll<HTMLElement>("[data-index]")) seen.set(Number(row.dataset.index), row.getAttribute("data-entry-id"));
      if (el.scrollTop + el.clientHeight >= el.scrollHeight - 1) break;
      el.scrollTop += Math.max(1, el.clientHeight * 0.7);
    }
    return [...seen.keys()]
      .sort((a, b) => a - b)
      .map((i) => seen.get(i))
      .filter((id): id is string => id !== null);
  });
  return ids.filter((id, i) => i === 0 || ids[i - 1] !== id);
}

const dedupe = (ids: string[]) => ids.filter((id, i) => i === 0 || ids[i - 1] !== id);

/** The entry whose context shows what the file is about: on the branch of its context_edit if any, else the leaf. */
function chosenEntry(session: Session): string {
  const edit = session.tree.entries.find((e) => e.type === "context_edit" && e.replacement !== null);
  if (!edit) return session.leafId!;
  // the last entry below the edit, on its branch, whose context still holds the edit's target (a later compaction may cut it)
  let chosen = edit.id as string;
  for (const entry of session.tree.entries) {
    const id = entry.id as string;
    if (!session.branch(id).some((e) => e.id === edit.id)) continue;
    if (session.context(id).messages.some((m) => m.editedBy === edit.id)) chosen = id;
  }
  return chosen;
}

for (const name of NEWEST) {
  test(`${name}: the rules badge and the context of an entry match the core library`, async ({ page }) => {
    const session = openFixture(name);
    const id = chosenEntry(session);
    const inspector = await open(page, name, id);

    const chip = page.getByTestId("reader-chip");
    await expect(chip).toHaveText(rulesBadgeText(session.rulesChoice));
    await expect(chip).toHaveAttribute("data-rules", session.reader);
    await expect(chip).toHaveAttribute("title", new RegExp(session.rulesChoice.reason.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));

    await inspector.getByRole("tab", { name: "Context", exact: true }).click();
    const shown = await listIds(inspector.getByTestId("context-list"));
    expect(shown).toEqual(dedupe(session.context(id).messages.map((m) => m.entryId)));
    await page.screenshot({ path: `${SHOTS}/${name}-context.png` });
  });
}

test("a context_edit's replacement is what the Context tab shows, on the edit's branch only", async ({ page }) => {
  const session = openFixture("newest-087");
  const edit = session.tree.entries.find((e) => e.type === "context_edit" && e.replacement !== null) as TreeEntry;
  const dropped = session.tree.entries.find((e) => e.type === "context_edit" && e.replacement === null) as TreeEntry;
  const id = chosenEntry(session);
  const replaced = session.context(id).messages.find((m) => m.editedBy === edit.id)!;
  const replacementText = ((replaced.message.content as JsonObject[])[0]!.text as string).slice(0, 40);
  const original = session.tree.get(edit.targetId as string)!.message as JsonObject;
  // a line of the original that the replacement does not have
  const originalText = ((original.content as JsonObject[])[0]!.text as string)
    .split("\n")
    .map((l) => l.trim())
    .find((l) => l.length > 20 && !replacementText.includes(l))!;
  const droppedText = (((session.tree.get(dropped.targetId as string)!.message as JsonObject).content as JsonObject[])[0]!.text as string).slice(0, 30);

  const inspector = await open(page, "newest-087", id);
  await inspector.getByRole("tab", { name: "Context", exact: true }).click();
  const list = inspector.getByTestId("context-list");
  await expect(list.locator(`[data-entry-id="${edit.targetId}"]`)).toContainText(replacementText);
  await expect(list).not.toContainText(originalText);
  // the message a null replacement removes is listed as not sent, with the edit that removed it
  await expect(list.locator(`[data-entry-id="${dropped.targetId}"]`)).toHaveCount(0);
  await expect(list.locator(`[data-unsent-id="${dropped.targetId}"]`)).toContainText(droppedText);
  await expect(list.locator(`[data-unsent-id="${dropped.targetId}"]`)).toContainText(`removed by context_edit ${dropped.id}`);
  await page.screenshot({ path: `${SHOTS}/context-edit-applied.png` });

  // the file's leaf is on a branch that does not pass through the edit: the original is sent there
  const leaf = session.leafId!;
  expect(session.context(leaf).messages.some((m) => m.editedBy)).toBe(false);
  const atLeaf = await open(page, "newest-087", leaf);
  await atLeaf.getByRole("tab", { name: "Context", exact: true }).click();
  await expect(atLeaf.getByTestId("context-list")).toContainText(originalText);
});

test("the Entry tab renders usage, context_edit and system entries, and a v4 log's lanes", async ({ page }) => {
  test.setTimeout(180_000);
  const v087 = openFixture("newest-087");
  const edit = v087.tree.entries.find((e) => e.type === "context_edit" && e.replacement !== null) as TreeEntry;
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const inspector = await open(page, "newest-087", edit.id);
    await page.evaluate((dark) => document.documentElement.classList.toggle("dark", dark), scheme === "dark");
    await expect(inspector.locator(`[data-link-entry-id="${edit.targetId}"]`).first()).toBeVisible();
    await expect(inspector.getByTestId("context-edit-replacement")).toContainText("trimmed from context");
    await expect(inspector.getByTestId("context-edit-original")).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/entry-context-edit-${scheme}.png` });
  }
  await page.emulateMedia({ colorScheme: "light" });

  const v086 = openFixture("newest-086");
  const usage = v086.tree.entries.find((e) => e.type === "usage") as TreeEntry;
  const inspector = await open(page, "newest-086", usage.id);
  await expect(inspector).toContainText(String(usage.kind));
  await expect(inspector).toContainText(`${String(usage.provider)}/${String(usage.model)}`);
  await expect(inspector).toContainText(/in \d.* · out \d.* · Σ/);
  await page.screenshot({ path: `${SHOTS}/entry-usage.png` });

  const system = v086.tree.entries.find((e) => e.type === "message" && (e.message as JsonObject).role === "system") as TreeEntry;
  const systemInspector = await open(page, "newest-086", system.id);
  const added = systemInspector.locator("[data-tools-list]");
  await expect(added).toContainText("Tools added (2)");
  for (const tool of (system.message as JsonObject).toolsAdded as JsonObject[]) {
    await expect(added.locator(`[data-tool-name="${String(tool.name)}"]`)).toContainText(String(tool.description));
  }

  // the Context tab's System row: the prompt and tools in force at the leaf, replayed from the path's system messages
  const prompt = systemPromptOf(v086.context(v086.leafId!).messages)!;
  const contextInspector = await open(page, "newest-086", v086.leafId!);
  await contextInspector.getByRole("tab", { name: "Context", exact: true }).click();
  const row = contextInspector.getByTestId("context-system");
  await expect(row).toHaveAttribute("data-recorded", "true");
  await expect(row).toContainText(`${prompt.tools.length} tools`);
  await row.getByRole("button", { expanded: false }).click();
  await expect(row.getByRole("group", { name: "system prompt" })).toContainText(prompt.text.split("\n")[0]!);
  for (const tool of prompt.tools) await expect(row.locator(`[data-tool-name="${tool.name}"]`)).toContainText(tool.description);
  for (const step of prompt.from) await expect(row.locator(`[data-link-entry-id="${step.entryId}"]`).first()).toBeVisible();
  for (const scheme of ["light", "dark"] as const) {
    await page.evaluate((dark) => document.documentElement.classList.toggle("dark", dark), scheme === "dark");
    await contextInspector.screenshot({ path: `${SHOTS}/context-system-${scheme}.png` });
  }
  await page.evaluate(() => document.documentElement.classList.remove("dark"));
  // a session from before 0.86 records none, and says so
  const older = await open(page, "newest-v4", openFixture("newest-v4").leafId!);
  await older.getByRole("tab", { name: "Context", exact: true }).click();
  await expect(older.getByTestId("context-system")).toHaveAttribute("data-recorded", "false");

  const v4 = openFixture("newest-v4");
  const inspectorV4 = await open(page, "newest-v4", v4.leafId!);
  const lanes = inspectorV4.getByTestId("v4-lanes");
  for (const lane of v4.lanes) await expect(lanes).toContainText(lane.lane);
  await expect(lanes.locator("li").filter({ hasText: "main" })).toContainText("leaf here");
  await page.screenshot({ path: `${SHOTS}/entry-v4-lanes.png` });
});
