// The app served from an archive: two machines push their sessions into a real PostgreSQL (the one `npm test`
// started, or one of this file's own), and `npm start` with PI_VIEWER_DATABASE_URL serves them. The library groups
// them by machine and project and filters by machine; a session opens from the archive's bytes; a line one machine
// pushes reaches the open page; usage is summed by machine.
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { Session } from "../lib/session";
import { pushLibrary } from "../lib/server/archive/push-library";
import { testArchive, type TestArchive } from "../lib/server/archive/testing/test-archive";
import { drawnIds, fitAll } from "./fixtures/graph";
import { serveCli, type ServedApp } from "./fixtures/serve-cli";
import { sessionFile } from "./fixtures/session-files";

test.describe.configure({ mode: "serial", timeout: 180_000 });

const LAPTOP = "laptop";
const RUNNER = "ci-runner-2";
const PROJECT = "--home-ci-app--";
const NAME = "2026-03-01T10-00-00-000Z_019c5caa-0000-7000-8000-00000000c1c1.jsonl";
let archive: TestArchive;
let app: ServedApp;
let root: string;
let laptop: string;
let runner: string;

async function push(dir: string, machine: string): Promise<void> {
  await pushLibrary(archive.pool, dir, { machine, machineId: await archive.machine(machine) });
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  archive = await testArchive();
  root = mkdtempSync(path.join(os.tmpdir(), "pi-archive-e2e-"));
  laptop = path.join(root, "laptop");
  cpSync(path.join(__dirname, "fixtures", "sessions", "--home-dev-projects-forks--"), path.join(laptop, "--home-dev-projects-forks--"), { recursive: true });
  runner = path.join(root, "runner");
  mkdirSync(path.join(runner, PROJECT), { recursive: true });
  const text = readFileSync(sessionFile("ca-branching-a"), "utf8");
  const header = JSON.parse(text.split("\n", 1)[0]!) as Record<string, unknown>;
  writeFileSync(path.join(runner, PROJECT, NAME), [JSON.stringify({ ...header, cwd: "/home/ci/app" }), ...text.split("\n").slice(1)].join("\n"));
  await push(laptop, LAPTOP);
  await push(runner, RUNNER);
  // the directory the server would read is empty: what it shows comes from the archive
  mkdirSync(path.join(root, "empty"));
  app = await serveCli(null, undefined, { PI_VIEWER_DATABASE_URL: archive.url, PI_SESSIONS_DIR: path.join(root, "empty") });
});

test.beforeEach(({ context }) => app.signIn(context));

test.afterAll(async () => {
  await app?.stop();
  await archive?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

const runnerFile = () => path.join(runner, PROJECT, NAME);

async function openLibrary(page: Page, query = ""): Promise<void> {
  await page.goto(`${app.url}/${query}`);
  await expect(page.getByTestId("project-group").first()).toBeVisible();
}

test("the library lists both machines' sessions, grouped by machine and project, and filters by machine", async ({ page }) => {
  expect(app.output()).toContain("Archive: postgres");
  await openLibrary(page);
  await expect(page.getByTestId("sessions-dir")).toContainText("postgres");
  const groups = page.getByTestId("project-group");
  await expect(groups).toHaveCount(2);
  const machines = await page.getByTestId("group-machine").allTextContents();
  expect(machines.sort()).toEqual([RUNNER, LAPTOP].sort());
  await expect(page.getByTestId("session-count")).toHaveText("4 sessions in 2 projects on 2 machines");
  await page.screenshot({ path: test.info().outputPath("archive-library.png") });

  await page.getByTestId("machine-filter").selectOption(RUNNER);
  await expect(page.getByTestId("session-count")).toHaveText("1 of 4 sessions");
  await expect(groups).toHaveCount(1);
  await expect(page.getByTestId("group-machine")).toHaveText(RUNNER);
  await expect(page).toHaveURL(new RegExp(`[?&]machine=${RUNNER}`));
  // the URL keeps the filter: a reload shows the same list
  await page.reload();
  await expect(page.getByTestId("session-count")).toHaveText("1 of 4 sessions");
});

test("a session opens from the archive, and a line its machine pushes reaches the open page", async ({ page }) => {
  const rel = `${RUNNER}/${PROJECT}/${NAME}`;
  await page.goto(`${app.url}/view?file=${encodeURIComponent(rel)}`);
  const graph = page.getByTestId("session-graph");
  await expect(graph).toHaveAttribute("data-placed", "true", { timeout: 90_000 });
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-status", "live", { timeout: 30_000 });
  const before = Session.fromText(readFileSync(runnerFile(), "utf8"));
  await fitAll(graph);
  await expect.poll(async () => new Set(await drawnIds(graph)).size, { timeout: 30_000 }).toBe([...before.tree.ids()].length);
  await page.screenshot({ path: test.info().outputPath("archive-viewer.png") });

  const id = "ar0chive";
  const parentId = before.leafId;
  const line = JSON.stringify({
    type: "message",
    id,
    parentId,
    timestamp: "2026-03-01T11:00:00.000Z",
    message: { role: "user", content: "pushed from the runner", timestamp: Date.UTC(2026, 2, 1, 11) },
  });
  appendFileSync(runnerFile(), `${line}\n`);
  await push(runner, RUNNER);
  await expect
    .poll(
      async () => {
        await fitAll(graph);
        return (await drawnIds(graph)).includes(id);
      },
      { timeout: 15_000 },
    )
    .toBe(true);
});

test("search finds every machine's sessions, or one machine's", async ({ page }) => {
  const hits = async (query: string) => (await (await page.request.get(`${app.url}/api/search?${query}`)).json()) as { file: string }[];
  const all = await hits("q=the&limit=500");
  expect(new Set(all.map((hit) => hit.file.split("/")[0])).size).toBe(2);
  const runnerHits = await hits(`q=the&limit=500&machine=${RUNNER}`);
  expect(runnerHits.length).toBeGreaterThan(0);
  expect(runnerHits.every((hit) => hit.file.startsWith(`${RUNNER}/`))).toBe(true);
  // the page's machine filter narrows its content search too
  await openLibrary(page, `?machine=${RUNNER}`);
  await page.getByTestId("search-mode-contents").click();
  await page.getByTestId("filter").fill("the");
  await expect(page.getByTestId("search-hit").first()).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`machine=${RUNNER}`));
  const shown = await page.getByTestId("search-hit").evaluateAll((links) => links.map((link) => link.getAttribute("href") ?? ""));
  expect(shown.length).toBeGreaterThan(0);
  expect(shown.every((href) => new URL(href, "http://x").searchParams.get("file")!.startsWith(`${RUNNER}/`))).toBe(true);
});

test("two servers on one archive give the same answers", async ({ page, context }) => {
  const second = await serveCli(null, undefined, { PI_VIEWER_DATABASE_URL: archive.url, PI_SESSIONS_DIR: path.join(root, "empty") });
  try {
    await second.signIn(context);
    for (const query of ["/api/sessions", "/api/search?q=the&limit=500", "/api/search?q=rate%20limiter", "/api/usage?by=session", "/api/usage?by=machine"]) {
      const [one, two] = await Promise.all([app, second].map(async (server) => (await page.request.get(`${server.url}${query}`)).json()));
      expect(two, query).toEqual(one);
    }
  } finally {
    await second.stop();
  }
});

test("an empty archive says how to fill it; one that cannot be reached says why, on every page and in the API", async ({ page, context }) => {
  const empty = await testArchive();
  const unreachable = "postgresql://postgres@%2Ftmp%2Fpi-viewer-no-such-server/postgres";
  const servers = await Promise.all(
    [empty.url, unreachable].map((url) => serveCli(null, undefined, { PI_VIEWER_DATABASE_URL: url, PI_SESSIONS_DIR: path.join(root, "empty") })),
  );
  try {
    const [emptyApp, downApp] = servers as [ServedApp, ServedApp];
    await emptyApp.signIn(context);
    await downApp.signIn(context);
    await page.goto(`${emptyApp.url}/`);
    await expect(page.getByTestId("archive-empty")).toContainText("pi-session-viewer push --to URL");
    expect(await (await page.request.get(`${emptyApp.url}/api/sessions`)).json()).toEqual([]);

    const response = await page.request.get(`${downApp.url}/api/sessions`);
    expect(response.status()).toBe(503);
    expect(await response.json()).toMatchObject({ code: "archive", error: expect.stringContaining("no PostgreSQL server answers there") });
    for (const where of ["/", "/usage", `/view?file=${encodeURIComponent(`${RUNNER}/${PROJECT}/${NAME}`)}`]) {
      await page.goto(`${downApp.url}${where}`);
      await expect(page.getByTestId("archive-unavailable"), where).toContainText("no PostgreSQL server answers there");
    }
    await page.screenshot({ path: test.info().outputPath("archive-unavailable.png") });
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    await empty.close();
  }
});

test("usage sums each machine's sessions", async ({ page }) => {
  const response = await page.request.get(`${app.url}/api/usage?by=machine`);
  expect(response.status()).toBe(200);
  const rows = (await response.json()) as { key: string; calls: number }[];
  expect(rows.map((row) => row.key).sort()).toEqual([LAPTOP, RUNNER].sort());
  const sessions = (await (await page.request.get(`${app.url}/api/sessions`)).json()) as { path: string; machine: string }[];
  expect(sessions.every((session) => session.path.startsWith(`${session.machine}/`))).toBe(true);
  await page.goto(`${app.url}/usage?by=machine`);
  await expect(page.getByText(RUNNER).first()).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("archive-usage.png") });
});
