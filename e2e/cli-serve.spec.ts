// `npm start -- PATH`: a session file opens in the viewer, a directory becomes the library; the command prints the
// URL to open. Runs scripts/start.mjs itself on a free port, serving the build in NEXT_DIST_DIR (never rebuilding).
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { expectedTitle, openFixture } from "./fixtures/core";
import { serveCli, type ServedApp } from "./fixtures/serve-cli";
import { sessionFile } from "./fixtures/session-files";

test.describe.configure({ timeout: 180_000 });

let dir: string;
let app: ServedApp | null = null;

test.beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "pi-cli-e2e-"));
  mkdirSync(path.join(dir, "--home-dev-a--"));
  mkdirSync(path.join(dir, "--home-dev-b--"));
  copyFileSync(sessionFile("ca-tiny"), path.join(dir, "--home-dev-a--", "tiny.jsonl"));
  copyFileSync(sessionFile("ca-labels"), path.join(dir, "--home-dev-b--", "labels.jsonl"));
});

test.afterEach(async () => {
  await app?.stop();
  app = null;
});

test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("a session file: the printed URL opens it in the viewer", async ({ page }) => {
  const file = path.join(dir, "--home-dev-b--", "labels.jsonl");
  app = await serveCli(file);
  expect(app.url).toBe(`http://127.0.0.1:${app.port}/view?file=labels.jsonl`);
  await page.goto(app.url);
  const session = openFixture("ca-labels");
  await expect(page.getByTestId("session-title")).toHaveText(expectedTitle(session)!, { timeout: 90_000 });
  await expect(page.getByTestId("entry-count")).toHaveText(`${session.account().entry} entries`);
  await expect(page.getByTestId("leaf-id")).toHaveText(session.leafId!);
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-status", "live", { timeout: 30_000 });
  expect(await app.stop()).toBe(false); // Ctrl-C stops it although the page holds a live tail open
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-status", "reconnecting", { timeout: 30_000 });
});

test("a directory: the printed URL opens the library of its sessions", async ({ page }) => {
  app = await serveCli(dir);
  expect(app.url).toBe(`http://127.0.0.1:${app.port}/`);
  await page.goto(app.url);
  const rows = page.getByTestId("session-row");
  await expect(rows).toHaveCount(2, { timeout: 90_000 });
  expect((await rows.evaluateAll((els) => els.map((el) => el.getAttribute("data-path")))).sort()).toEqual([
    "--home-dev-a--/tiny.jsonl",
    "--home-dev-b--/labels.jsonl",
  ]);
  await page.locator('[data-testid="session-row"][data-path="--home-dev-a--/tiny.jsonl"]').click();
  await expect(page.getByTestId("leaf-id")).toHaveText(openFixture("ca-tiny").leafId!, { timeout: 90_000 });
});

test("a path that is neither a directory nor a session file is refused", async () => {
  await expect(serveCli(path.join(dir, "missing.jsonl"))).rejects.toThrow(/Not a directory or a \.jsonl session file/);
});
