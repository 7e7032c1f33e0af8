// Export HTML: the download is exactly components/transcript/transcript-html.tsx's output for the same file and
// entry, and opened in Chromium it makes no request but its own, opens no dialog, runs no script, reports no CSP
// violation and shows the transcript: tool calls drawn by the app's renderers, in the reader's light or dark.
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "@playwright/test";
import { transcriptTitle } from "../lib/export/markdown-transcript";
import { openFixture } from "./fixtures/core";
import { sessionFile, viewUrl, type FixtureName } from "./fixtures/session-files";
import { expectedTranscriptHtml } from "./fixtures/transcript-html";

test.describe.configure({ timeout: 120_000 });

for (const name of ["ca-roles-a", "ca-compaction-a", "tools-160"] as const satisfies readonly FixtureName[]) {
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
    expect(html).toBe(expectedTranscriptHtml(sessionFile(name), leaf));

    const viewer = await context.newPage();
    const requests: string[] = [];
    const dialogs: string[] = [];
    const logged: string[] = [];
    viewer.on("console", (message) => logged.push(message.text()));
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
    expect(logged.filter((text) => /Content Security Policy|Refused/i.test(text))).toEqual([]);

    // the app's renderers: every tool call on the path, its diff lines, its highlighted code, its folds
    const calls = session.branch(leaf).flatMap((entry) => {
      const message = entry.type === "message" ? (entry.message as { role?: string; content?: unknown }) : null;
      return message?.role === "assistant" && Array.isArray(message.content)
        ? (message.content as { type?: string; id?: string }[]).filter((block) => block.type === "toolCall").map((block) => block.id!)
        : [];
    });
    for (const id of calls) await expect(viewer.locator(`[data-tool-call-id="${id}"]`).first()).toBeVisible();
    if (name === "tools-160") {
      await expect(viewer.locator('[data-tool="edit"] [data-diff="+"]').first()).toBeVisible();
      await expect(viewer.locator('[data-tool="write"] [data-language="typescript"] .hljs-keyword').first()).toBeVisible();
      await expect(viewer.locator('[data-tool="bash"] [class*="ansi-"]').first()).toBeVisible();
      // a fold opens without script: its <details> shows the lines it held
      const fold = viewer.locator('[data-folded="true"]').first();
      const summary = fold.locator("summary");
      await expect(summary).toContainText(/Show \d+ more lines?/);
      await summary.click();
      await expect(fold.locator("details")).toHaveAttribute("open", "");
    }
    mkdirSync("/tmp/shots-compare", { recursive: true });
    for (const scheme of ["light", "dark"] as const) {
      await viewer.emulateMedia({ colorScheme: scheme });
      await viewer.screenshot({ path: `/tmp/shots-compare/export-html-${name}-${scheme}.png`, fullPage: name === "tools-160" });
    }
  });
}
