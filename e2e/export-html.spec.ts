// Export HTML: the download is exactly lib/export/html-transcript.ts's output for the same file and entry, and
// opened in Chromium it makes no request but its own, opens no dialog, runs no script and shows the transcript.
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "@playwright/test";
import { transcriptHtml } from "../lib/export/html-transcript";
import { transcriptTitle } from "../lib/export/markdown-transcript";
import { openFixture } from "./fixtures/core";
import { viewUrl, type FixtureName } from "./fixtures/session-files";

test.describe.configure({ timeout: 120_000 });

for (const name of ["ca-roles-a", "ca-compaction-a"] as const satisfies readonly FixtureName[]) {
  test(`Export HTML on ${name}: the core's transcript, inert when opened`, async ({ page, context }, testInfo) => {
    const session = openFixture(name);
    const leaf = session.leafId!;
    await page.goto(viewUrl(name, leaf));
    await expect(page.getByTestId("session-graph")).toHaveAttribute("data-placed", "true", { timeout: 90_000 });

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export HTML" }).click()]);
    expect(download.suggestedFilename()).toMatch(/\.html$/);
    const file = testInfo.outputPath(download.suggestedFilename());
    mkdirSync(path.dirname(file), { recursive: true });
    await download.saveAs(file);
    const html = readFileSync(file, "utf8");
    expect(html).toBe(transcriptHtml(session, leaf));

    const viewer = await context.newPage();
    const requests: string[] = [];
    const dialogs: string[] = [];
    viewer.on("request", (request) => requests.push(request.url()));
    viewer.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const url = pathToFileURL(file).href;
    await viewer.goto(url);
    await viewer.waitForLoadState("load");
    expect(requests).toEqual([url]);
    expect(dialogs).toEqual([]);
    await expect(viewer.locator("script")).toHaveCount(0);
    const title = transcriptTitle(session, session.branch(leaf));
    await expect(viewer.getByRole("heading", { level: 1 })).toHaveText(title);
    const sections = viewer.locator("section[data-entry-id]");
    expect(await sections.count()).toBeGreaterThan(2);
    const firstUser = session.branch(leaf).find((e) => e.type === "message" && (e.message as { role?: string }).role === "user")!;
    await expect(viewer.locator(`section[data-entry-id="${firstUser.id}"]`)).toBeVisible();
    mkdirSync("/tmp/shots-compare", { recursive: true });
    await viewer.screenshot({ path: `/tmp/shots-compare/export-html-${name}.png` });
  });
}
