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
  expect(app.printed).toBe(`http://127.0.0.1:${app.port}/view?file=labels.jsonl&token=${process.env.PI_VIEWER_TOKEN}`);
  await page.goto(app.printed);
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
  expect(app.printed).toBe(`http://127.0.0.1:${app.port}/?token=${process.env.PI_VIEWER_TOKEN}`);
  await page.goto(app.printed);
  const rows = page.getByTestId("session-row");
  await expect(rows).toHaveCount(2, { timeout: 90_000 });
  expect((await rows.evaluateAll((els) => els.map((el) => el.getAttribute("data-path")))).sort()).toEqual([
    "--home-dev-a--/tiny.jsonl",
    "--home-dev-b--/labels.jsonl",
  ]);
  await page.locator('[data-testid="session-row"][data-path="--home-dev-a--/tiny.jsonl"]').click();
  await expect(page.getByTestId("leaf-id")).toHaveText(openFixture("ca-tiny").leafId!, { timeout: 90_000 });
});

test("each start without PI_VIEWER_TOKEN has a token of its own, 256 random bits, that only it accepts", async ({ browser }) => {
  const first = await serveCli(dir, undefined, { PI_VIEWER_TOKEN: "" });
  const second = await serveCli(dir, undefined, { PI_VIEWER_TOKEN: "" });
  try {
    const [a, b] = [first, second].map((app) => new URL(app.printed).searchParams.get("token")!) as [string, string];
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(b).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    const status = (app: ServedApp, token: string) =>
      fetch(`http://127.0.0.1:${app.port}/api/sessions`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);
    expect([await status(first, a), await status(first, b), await status(second, b), await status(second, a)]).toEqual([200, 401, 200, 401]);
    // one browser, two viewers side by side: each keeps its own cookie (the name carries the port)
    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const pages = [await context.newPage(), await context.newPage()];
    await pages[0]!.goto(first.printed);
    await pages[1]!.goto(second.printed);
    for (const page of pages) await expect(page.getByTestId("session-row")).toHaveCount(2, { timeout: 90_000 });
    expect((await pages[0]!.reload())!.status()).toBe(200);
    await context.close();
  } finally {
    await Promise.all([first.stop(), second.stop()]);
  }
});

test("--no-token is refused off loopback", async () => {
  await expect(serveCli(dir, undefined, { HOST: "0.0.0.0", PI_VIEWER_NO_TOKEN: "1" })).rejects.toThrow(/--no-token is allowed on loopback only/);
});

test("a path that is neither a directory nor a session file is refused", async () => {
  await expect(serveCli(path.join(dir, "missing.jsonl"))).rejects.toThrow(/Not a directory or a \.jsonl session file/);
});
