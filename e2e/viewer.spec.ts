// The viewer shell: deep links and reload, uploads parsed in the browser, ?src=, progress and cancel,
// diagnostics, error states, and the raw API's refusals.
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page, type Request } from "@playwright/test";
import { Session } from "../lib/session";
import { expectedTitle, openFixture } from "./fixtures/core";
import { SESSION_FILES, sessionFile, viewUrl } from "./fixtures/session-files";

// the 2-core machine runs several servers and builds at once; a page load there can take many seconds
test.describe.configure({ timeout: 90_000 });

/** for the first thing to appear after a navigation: pages can take long to start on a busy 2-core machine */
const SLOW = { timeout: 45_000 };
const ready = (page: Page) => expect(page.getByTestId("dropzone")).toHaveAttribute("data-load-phase", "ready", SLOW);
const param = (page: Page, key: string) => new URL(page.url()).searchParams.get(key);

/** A cross-origin server that streams a file slowly, so loading progress can be watched. */
let slow: http.Server;
let slowBase: string;
test.beforeAll(async () => {
  slow = http.createServer((req, res) => {
    const bytes = readFileSync(sessionFile("ca-large"));
    // ~7 s for the whole file (55 chunks), or much longer: time enough to watch the bar move
    const pause = req.url?.startsWith("/very-slow") ? 400 : 120;
    res.writeHead(200, { "content-type": "application/x-ndjson", "content-length": bytes.length, "access-control-allow-origin": "*" });
    let offset = 0;
    const next = () => {
      if (res.destroyed) return;
      if (offset >= bytes.length) return void res.end();
      res.write(bytes.subarray(offset, (offset += 64 * 1024)));
      setTimeout(next, pause);
    };
    next();
  });
  await new Promise<void>((resolve) => slow.listen(0, "127.0.0.1", resolve));
  slowBase = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  slow.closeAllConnections();
  await new Promise((resolve) => slow.close(resolve));
});

test("a deep link selects its entry, the URL follows the selection and tab, and a reload restores both", async ({ page }) => {
  const session = openFixture("ca-branching-a");
  const leafPath = session.branch(session.leafId!);
  const middle = leafPath[Math.floor(leafPath.length / 2)]!.id;
  await page.goto(viewUrl("ca-branching-a", middle));
  await ready(page);
  await expect(page.locator("#inspector")).toContainText(middle);
  expect(param(page, "entry")).toBe(middle);

  await page.getByRole("tab", { name: "Path" }).click();
  await expect.poll(() => param(page, "tab")).toBe("path");
  const root = leafPath[0]!.id;
  await page.locator(`#inspector [data-entry-id="${root}"]`).first().click();
  await expect.poll(() => param(page, "entry")).toBe(root);
  expect(param(page, "file")).toBe(SESSION_FILES["ca-branching-a"]);

  await page.reload();
  await ready(page);
  await expect(page.getByRole("tab", { name: "Path" })).toHaveAttribute("aria-selected", "true");
  const pathIds = await page.locator("#inspector [role=tabpanel] [data-entry-id]").evaluateAll((els) => els.map((e) => e.getAttribute("data-entry-id")));
  expect(pathIds).toEqual(session.branch(root).map((e) => e.id));
  await page.getByRole("tab", { name: "Entry" }).click();
  await expect(page.locator("#inspector")).toContainText(root);
  await expect.poll(() => param(page, "tab")).toBeNull();
});

test("an unknown entry in the link falls back to the leaf", async ({ page }) => {
  const session = openFixture("hx-leaf-moves-a");
  await page.goto(viewUrl("hx-leaf-moves-a", "not-an-entry"));
  await ready(page);
  await expect.poll(() => param(page, "entry")).toBe(session.leafId);
  await expect(page.getByTestId("reader-chip")).toHaveText(session.reader === "hx" ? "harness" : "coding agent");
  await expect(page.getByTestId("reader-chip")).toHaveAttribute("title", session.rulesChoice.reason);
  await expect(page.getByTestId("leaf-id")).toContainText(session.leafId!);
});

/** Requests other than GETs for the app's own pages and static assets (none may carry a session). */
function watchRequests(page: Page): Request[] {
  const seen: Request[] = [];
  page.on("request", (request) => seen.push(request));
  return seen;
}
/**
 * Waits, once asked, until the page has read no content of its library file by range for a second: an entry's
 * content when it is shown, and the selected entry's context, read ahead while the page is idle.
 */
function contentReads(page: Page): { settled(): Promise<void> } {
  const isRead = (r: Request) => r.url().includes("/api/sessions/raw") && r.headers()["range"] !== undefined;
  let pending = 0;
  let last = Date.now();
  page.on("request", (r) => {
    if (!isRead(r)) return;
    pending++;
    last = Date.now();
  });
  const done = (r: Request) => {
    if (!isRead(r)) return;
    pending--;
    last = Date.now();
  };
  page.on("requestfinished", done);
  page.on("requestfailed", done);
  return { settled: () => expect.poll(() => pending === 0 && Date.now() - last > 1000, SLOW).toBe(true) };
}

function contentCarrying(requests: Request[]): string[] {
  return requests
    .filter((r) => {
      const url = new URL(r.url());
      const allowed =
        r.method() === "GET" &&
        !r.postData() &&
        (url.pathname.startsWith("/_next/") ||
          url.pathname === "/view" ||
          url.pathname.startsWith("/__nextjs") ||
          url.pathname === "/icon.svg" ||
          // the library asks where its forks left their sources once it shows
          url.pathname === "/api/sessions/forks");
      return !allowed;
    })
    .map((r) => `${r.method()} ${r.url()}`);
}

test("a file chosen on the library page is parsed in the browser, and a reload asks for it again", async ({ page }) => {
  const session = openFixture("ca-compaction-a");
  await page.goto("/");
  const requests = watchRequests(page);
  await page.getByTestId("file-input").setInputFiles(sessionFile("ca-compaction-a"));
  await ready(page);
  const name = sessionFile("ca-compaction-a").split("/").pop()!;
  expect(param(page, "upload")).toBe(name);
  await expect(page.getByTestId("session-title")).toHaveText(expectedTitle(session)!);
  await expect(page.getByTestId("entry-count")).toHaveText(`${session.account().entry} entries`);
  await expect.poll(() => param(page, "entry")).toBe(session.leafId);
  expect(contentCarrying(requests)).toEqual([]);

  await page.reload();
  await expect(page.getByTestId("dropzone")).toHaveAttribute("data-load-phase", "upload-lost", SLOW);
  await expect(page.getByRole("heading", { name: `Open ${name} again` })).toBeVisible();
  await page.getByTestId("file-input").setInputFiles(sessionFile("ca-compaction-a"));
  await ready(page);
});

test("a file dropped on the viewer replaces the session, read in the browser", async ({ page }) => {
  const reads = contentReads(page);
  await page.goto(viewUrl("ca-branching-a"));
  await ready(page);
  // the library file's live tail connects after the load, and its content is read when shown and ahead of the
  // Context tab: only requests after that count
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-status", "live", SLOW);
  await reads.settled();
  const previous = param(page, "file")!;
  const dropped = openFixture("hx-leaf-moves-a");
  const text = readFileSync(sessionFile("hx-leaf-moves-a"), "utf8");
  const requests = watchRequests(page);
  const transfer = await page.evaluateHandle((content) => {
    const data = new DataTransfer();
    data.items.add(new File([content], "dropped.jsonl", { type: "application/x-ndjson" }));
    return data;
  }, text);
  await page.getByTestId("dropzone").dispatchEvent("drop", { dataTransfer: transfer });
  await expect.poll(() => param(page, "upload")).toBe("dropped.jsonl");
  await ready(page);
  await expect(page.getByTestId("session-title")).toHaveText(expectedTitle(dropped)!);
  await expect(page.getByTestId("reader-chip")).toHaveText("harness");
  expect(param(page, "file")).toBeNull();
  // nothing of the dropped file goes to the server; the previous session's own content may still be read around the
  // drop (by range, from its library file: a read it had started, or its selection's context read ahead), and its fork family
  const ownReads = (r: string) =>
    r.startsWith("GET ") &&
    ["/api/sessions/raw", "/api/sessions/family"].includes(new URL(r.slice(4)).pathname) &&
    new URL(r.slice(4)).searchParams.get("path") === previous;
  expect(contentCarrying(requests).filter((r) => !ownReads(r))).toEqual([]);
});

test("?src= loads a session from a URL the app serves (a bundled sample)", async ({ page }) => {
  const sample = readFileSync("public/samples/" + SESSION_FILES["ca-labels"]);
  expect(sample.equals(readFileSync(sessionFile("ca-labels")))).toBe(true);
  await page.goto(`/view?src=${encodeURIComponent(`/samples/${SESSION_FILES["ca-labels"]}`)}`);
  await ready(page);
  await expect(page.getByTestId("session-title")).toHaveText(expectedTitle(openFixture("ca-labels"))!);
});

test("a slow cross-origin ?src= shows byte progress, then the session", async ({ page }) => {
  const size = readFileSync(sessionFile("ca-large")).length;
  await page.goto(`/view?src=${encodeURIComponent(`${slowBase}/ca-large.jsonl`)}`);
  const bar = page.getByRole("progressbar", { name: "Reading the session file" });
  await expect.poll(async () => Number(await bar.getAttribute("aria-valuenow")), { timeout: 30_000 }).toBeGreaterThan(0);
  await expect(bar).toHaveAttribute("aria-valuemax", String(size));
  await expect(page.getByTestId("progress-text")).toContainText("of 3.4 MB");
  await ready(page);
  await expect(page.getByTestId("entry-count")).toHaveText(`${openFixture("ca-large").account().entry.toLocaleString("en-US")} entries`);
});

test("Cancel stops a load", async ({ page }) => {
  await page.goto(`/view?src=${encodeURIComponent(`${slowBase}/very-slow/ca-large.jsonl`)}`);
  await expect(page.getByTestId("loading")).toBeVisible(SLOW);
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("heading", { name: "Loading cancelled" })).toBeVisible(SLOW);
});

test("unreadable lines raise the diagnostics banner with the core's line numbers", async ({ page }) => {
  const session = openFixture("edge-malformed-line");
  const unreadable = session.account().unreadable;
  await page.goto(viewUrl("edge-malformed-line"));
  await ready(page);
  const banner = page.getByTestId("diagnostics-banner");
  await expect(banner).toContainText(`${unreadable} ${unreadable === 1 ? "line" : "lines"} could not be read`);
  await banner.getByRole("button", { name: /Show details/ }).click();
  const items = page.getByTestId("diagnostics").locator("li");
  const diagnostics = session.diagnostics();
  await expect(items).toHaveCount(diagnostics.length);
  expect(await items.evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-line"))))).toEqual(diagnostics.map((d) => d.line));
  for (const line of session.parser.unreadable.keys())
    await expect(page.getByTestId("diagnostics").locator(`li[data-line="${line}"]`).first()).toContainText(`line ${line}`);
});

test("schema notes join the diagnostics after the session is shown, checked on the light text", async ({ page }) => {
  // an unreadable line raises the banner; line 6 has a usage count that is a string and an answer long enough
  // to be cut in the light text, so its note comes from the worker's check, after the tree is on screen
  const lines = readFileSync(sessionFile("ca-tiny"), "utf8").split("\n");
  const answer = JSON.parse(lines[4]!);
  answer.message.usage.input = "many";
  answer.message.content[1].text += ` ${"long output ".repeat(400)}`;
  lines[4] = JSON.stringify(answer);
  lines.splice(3, 0, '{"type":"message","id":"bad');
  const text = lines.join("\n");
  const diagnostics = Session.fromText(text).diagnostics();
  expect(diagnostics.map((d) => [d.line, d.kind])).toEqual([
    [4, "invalid-json"],
    [6, "schema"],
  ]);
  await page.goto("/");
  await page.getByTestId("file-input").setInputFiles({ name: "odd-usage.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(text) });
  await ready(page);
  await page
    .getByTestId("diagnostics-banner")
    .getByRole("button", { name: /Show details/ })
    .click();
  const items = page.getByTestId("diagnostics").locator("li");
  await expect(items).toHaveCount(diagnostics.length);
  expect(await items.evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-line"))))).toEqual([4, 6]);
  await expect(items.nth(1)).toContainText("message.usage.input");
});

test("a file pi refuses (BOM before the header) says so", async ({ page }) => {
  expect(openFixture("edge-bom").parser.caRefused).toBe(true);
  await page.goto(viewUrl("edge-bom"));
  await ready(page);
  await expect(page.getByTestId("diagnostics-banner")).toContainText("pi would refuse to open this file");
});

test("helpful states: a missing file, a refused path, a file that is not a session", async ({ page }) => {
  await page.goto(`/view?file=${encodeURIComponent("--home-dev-projects-edge--/missing.jsonl")}`);
  await expect(page.getByTestId("load-error")).toHaveText("No such session file.", SLOW);
  await page.goto(`/view?file=${encodeURIComponent("../package.json")}`);
  await expect(page.getByTestId("load-error")).toContainText("This path cannot be opened", SLOW);
  await page.goto(viewUrl("edge-empty"));
  await ready(page);
  await expect(page.getByTestId("viewer-message")).toContainText(openFixture("edge-empty").diagnostics()[0]!.message);
  await page.goto("/view");
  await expect(page.getByRole("heading", { name: "No session chosen" })).toBeVisible(SLOW);
});

test("the raw API refuses traversal and odd paths with 4xx and no file content", async ({ request }) => {
  const ok = await request.get(`/api/sessions/raw?path=${encodeURIComponent(SESSION_FILES["ca-tiny"])}`);
  expect(ok.status()).toBe(200);
  expect(ok.headers()["content-type"]).toBe("application/x-ndjson");
  expect(await ok.text()).toBe(readFileSync(sessionFile("ca-tiny"), "utf8"));

  const attempts = [
    "../package.json",
    "../../package.json",
    "..%2F..%2Fpackage.json",
    "%2e%2e%2fpackage.json",
    "%252e%252e%252fpackage.json",
    "--home-dev-projects-edge--%2F..%2F..%2F..%2Fpackage.json",
    "%2Fetc%2Fpasswd",
    encodeURIComponent(`${process.cwd()}/e2e/fixtures/sessions/${SESSION_FILES["ca-tiny"]}`),
    "..%5C..%5Cpackage.json",
    "x.jsonl%00.txt",
    "package.json",
    "--home-dev-projects-edge--%2Fmissing.jsonl",
    "",
  ];
  for (const attempt of attempts) {
    const response = await request.get(`/api/sessions/raw?path=${attempt}`);
    expect([400, 403, 404], attempt).toContain(response.status());
    const body = await response.text();
    expect(JSON.parse(body), attempt).toHaveProperty("error");
    expect(body, attempt).not.toContain("pi-session-viewer");
    expect(body, attempt).not.toContain('"type":"session"');
    expect(body, attempt).not.toContain(process.cwd());
  }
});

test("screenshots of the viewer, light and dark", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(viewUrl("edge-malformed-line"));
  await ready(page);
  await page
    .getByTestId("diagnostics-banner")
    .getByRole("button", { name: /Show details/ })
    .click();
  await page.screenshot({ path: "test-results/shell-viewer-diagnostics-light.png" });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto(viewUrl("ca-compaction-multi-a"));
  await ready(page);
  await expect(page.locator("html")).toHaveClass(/dark/);
  await page.screenshot({ path: "test-results/shell-viewer-dark.png" });
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto(viewUrl("ca-compaction-multi-a"));
  await ready(page);
  await page.screenshot({ path: "test-results/shell-viewer-light.png" });
});
