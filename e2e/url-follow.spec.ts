// The view follows its URL when the URL changes under the page, not only when the page loads: Back and Forward
// in the viewer, and a share file given another #entry= (a second link to it in the same tab: the page is not
// loaded again for a new fragment).
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test, type Page } from "@playwright/test";
import { openFixture } from "./fixtures/core";
import { sessionFile, viewUrl } from "./fixtures/session-files";
import { shareWithCli } from "./fixtures/share-cli";

test.describe.configure({ timeout: 90_000 });
const SLOW = { timeout: 45_000 };
const NAME = "ca-branching-a";
const session = openFixture(NAME);
const leafPath = session.branch(session.leafId!);
// two entries on the leaf's path, so the Path tab lists both
const A = leafPath[leafPath.length - 1]!.id;
const B = leafPath[Math.floor(leafPath.length / 2)]!.id;

const tmp = mkdtempSync(path.join(os.tmpdir(), "pi-url-follow-e2e-"));
test.afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const ready = (page: Page) => expect(page.getByTestId("dropzone")).toHaveAttribute("data-load-phase", "ready", SLOW);
/** The graph's selection: a card's id, or the entry a folded segment holds selected (whatever the inspector's tab). */
const selected = (page: Page, id: string) =>
  expect
    .poll(() =>
      page
        .getByTestId("session-graph")
        .locator("[data-selected=true]")
        .evaluateAll((els: HTMLElement[]) => els.map((el) => el.dataset.entryId ?? el.dataset.selectedEntryId)),
    )
    .toEqual([id]);
const tab = (page: Page, name: string) => expect(page.locator("#inspector").getByRole("tab", { name, exact: true })).toHaveAttribute("aria-selected", "true");

/** Marks the document, so that a step can show the page followed its URL rather than loaded again. */
async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
}
const sameDocument = (page: Page) => page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true);

test("the viewer: Back and Forward select the entries their URLs name", async ({ page }) => {
  await page.goto(viewUrl(NAME, A));
  await ready(page);
  await selected(page, A);
  await markDocument(page);

  // a link the page follows itself (a client-side router's): a new history entry at B's URL, then B shown there
  const atB = new URL(viewUrl(NAME, B), page.url());
  await page.evaluate((href) => history.pushState(null, "", href), atB.pathname + atB.search);
  await page.locator("#inspector").getByRole("tab", { name: "Path", exact: true }).click();
  await page.locator(`#inspector [data-entry-id="${B}"]`).first().click();
  await selected(page, B);
  await expect.poll(() => new URL(page.url()).searchParams.get("entry")).toBe(B);

  await page.goBack();
  await selected(page, A);
  await tab(page, "Entry");
  await expect.poll(() => new URL(page.url()).searchParams.get("entry")).toBe(A);

  await page.goForward();
  await selected(page, B);
  await tab(page, "Path");

  await page.goBack();
  await selected(page, A);
  expect(await sameDocument(page)).toBe(true);
});

test("a share file: another #entry= selects that entry, and Back the one before", async ({ page }) => {
  const file = shareWithCli(sessionFile(NAME), tmp, "follow.html");
  await page.goto(`${pathToFileURL(file).href}#entry=${A}`);
  await ready(page);
  await selected(page, A);
  await markDocument(page);

  await page.evaluate((hash) => (location.hash = hash), `#entry=${B}&tab=path`);
  await selected(page, B);
  await tab(page, "Path");

  await page.goBack();
  await selected(page, A);
  await tab(page, "Entry");
  await expect(page).toHaveURL(new RegExp(`#entry=${A}$`));

  await page.goForward();
  await selected(page, B);
  expect(await sameDocument(page)).toBe(true);
});
