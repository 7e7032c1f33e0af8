// Content read on demand: an upload and a library file are indexed from their light lines (long strings cut), and
// what is shown, searched or exported is read again from the File or from the server by byte range. Text past the
// cut must appear where the whole file would show it; a file replaced under the page must be said so, by name.
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { Session } from "../lib/session";
import { checksumHex } from "../lib/session/read/byte-checksum";
import { CUT_OVER } from "../lib/session/read/light-lines";
import { serveCli, type ServedApp } from "./fixtures/serve-cli";

test.describe.configure({ mode: "serial", timeout: 180_000 });

const PROJECT = "--home-dev-on-demand--";
let dir: string;
let app: ServedApp;

/** Words enough to be cut, then a marker only the full text holds. */
const long = (marker: string) => `${"lorem ipsum dolor sit amet ".repeat(Math.ceil(CUT_OVER / 20))}${marker}`;
const usage = { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

function sessionText(prefix: string): string {
  const at = (s: number) => new Date(Date.UTC(2026, 2, 1, 12, 0, s)).toISOString();
  const lines = [
    { type: "session", version: 3, id: "0199f0aa-1111-7222-8333-444455556666", timestamp: at(0), cwd: "/home/dev/on-demand" },
    { type: "message", id: `${prefix}000001`, parentId: null, timestamp: at(1), message: { role: "user", content: long("MARKUSERTAIL"), timestamp: 1 } },
    {
      type: "message",
      id: `${prefix}000002`,
      parentId: `${prefix}000001`,
      timestamp: at(2),
      message: {
        role: "assistant",
        content: [{ type: "text", text: long("MARKASSISTANTTAIL") }],
        api: "anthropic-messages",
        provider: "anthropic",
        model: "claude-sonnet-4-5",
        usage,
        stopReason: "stop",
        timestamp: 2,
      },
    },
    {
      type: "message",
      id: `${prefix}000003`,
      parentId: `${prefix}000002`,
      timestamp: at(3),
      message: { role: "user", content: long("MARKSECONDTAIL"), timestamp: 3 },
    },
  ];
  return lines.map((line) => `${JSON.stringify(line)}\n`).join("");
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dir = mkdtempSync(path.join(os.tmpdir(), "pi-on-demand-e2e-"));
  mkdirSync(path.join(dir, PROJECT));
  app = await serveCli(dir);
});

// the printed address would set the server's cookie; the tests open addresses of their own
test.beforeEach(({ context }) => app.signIn(context));

test.afterAll(async () => {
  await app?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Requests for the session's file the page (and its workers) send: their Range header, "" for the whole file. */
function rawRequests(page: Page): string[] {
  const ranges: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/api/sessions/raw")) ranges.push(request.headers()["range"] ?? "");
  });
  return ranges;
}

/**
 * How the server answered each request for the file's light index: "made", "kept", or the status; "kept
 * sent" when the snapshot of the index went first (the page restores the index instead of reading the lines).
 */
function lightIndexAnswers(page: Page): string[] {
  const answers: string[] = [];
  page.on("response", (response) => {
    // (not the frames a session shown before its lines came reads by range: e2e/early-show.spec.ts)
    if (!response.url().includes("/api/sessions/light") || new URL(response.url()).searchParams.has("index")) return;
    const headers = response.headers();
    const index = headers["x-light-index"];
    answers.push(index ? [index, headers["x-index-snapshot"]].filter(Boolean).join(" ") : String(response.status()));
  });
  return answers;
}

async function expectFullContent(page: Page, ids: { assistant: string; user: string }): Promise<void> {
  const entry = page.locator("#inspector-panel-entry");
  await expect(entry).toContainText("MARKASSISTANTTAIL");
  // the whole path's content is what the model is sent
  await page.locator("#inspector-tab-context").click();
  await page.getByTestId("context-mode-llm").click();
  const sent = page.getByTestId("llm-list");
  await sent.locator("[aria-expanded]").nth(0).click();
  await sent.locator("[aria-expanded]").nth(1).click();
  await expect(sent.getByTestId("llm-text")).toHaveCount(2);
  await expect(sent.getByTestId("llm-text").nth(0)).toContainText("MARKUSERTAIL");
  await expect(sent.getByTestId("llm-text").nth(1)).toContainText("MARKASSISTANTTAIL");
  // a search finds words only the full text holds, and no light "…" text stands in for content
  await page.getByTestId("search-input").fill("MARKSECONDTAIL");
  await expect(page.getByTestId("search-count")).toHaveText("1 hit · 1 entry");
  await expect(page.getByTestId("search-results").getByRole("option")).toHaveCount(1);
  await page.getByTestId("search-input").fill("");
  await page.locator(`.react-flow__node[data-id="${ids.user}"]`).click();
  await page.locator("#inspector-tab-entry").click();
  await expect(page.locator("#inspector-panel-entry")).toContainText("MARKSECONDTAIL");
  await expect(page.getByTestId("content-reading")).toHaveText("");
}

test("a library file shows, projects and searches content past the cut, read from the server by byte range", async ({ page }) => {
  const rel = `${PROJECT}/2026-03-01T12-00-00-000Z_library.jsonl`;
  writeFileSync(path.join(dir, ...rel.split("/")), sessionText("aa"));
  const requests = rawRequests(page);
  const light = lightIndexAnswers(page);
  await page.goto(`${app.url}/view?file=${encodeURIComponent(rel)}&entry=aa000002`);
  await expectFullContent(page, { assistant: "aa000002", user: "aa000003" });
  const ranges = requests.filter(Boolean);
  expect(ranges.length).toBeGreaterThan(0);
  expect(ranges.every((r) => /^bytes=\d+-\d+$/.test(r))).toBe(true);
  // indexed from the light index the server made while sending it; the whole file read once, by the search,
  // which streams it through a worker
  expect(light).toEqual(["made"]);
  expect(requests.filter((r) => r === "")).toHaveLength(1);
  // opened again: the kept index and the snapshot the server made of it meanwhile, the same answers
  requests.length = 0;
  await page.goto(`${app.url}/view?file=${encodeURIComponent(rel)}&entry=aa000002`);
  await expectFullContent(page, { assistant: "aa000002", user: "aa000003" });
  expect(light).toEqual(["made", "kept sent"]);
  expect(await page.evaluate(() => performance.getEntriesByName("session:restored").length)).toBe(1);
  expect(requests.filter(Boolean).length).toBeGreaterThan(0);
});

test("pi's schema notes come with a restored index, and from the worker when the snapshot cannot be restored", async ({ page }) => {
  const rel = `${PROJECT}/2026-03-01T12-00-00-000Z_schema.jsonl`;
  const file = path.join(dir, ...rel.split("/"));
  // a line that does not parse, and an answer whose usage count is a string: pi's schema says so
  const lines = sessionText("gg").trimEnd().split("\n");
  const at = lines.findIndex((line) => line.includes('"role":"assistant"'));
  const answer = JSON.parse(lines[at]!);
  answer.message.usage.input = "many";
  lines[at] = JSON.stringify(answer);
  lines.splice(2, 0, '{"type":"message","id":"bad');
  const text = `${lines.join("\n")}\n`;
  writeFileSync(file, text);
  const expected = Session.fromText(text).diagnostics();
  expect(expected.map((d) => d.kind)).toEqual(["invalid-json", "schema"]);
  const light = lightIndexAnswers(page);
  const diagnosticsShown = async (how: "parsed" | "restored") => {
    await page.goto(`${app.url}/view?file=${encodeURIComponent(rel)}`);
    await page
      .getByTestId("diagnostics-banner")
      .getByRole("button", { name: /Show details/ })
      .click();
    const items = page.getByTestId("diagnostics").locator("li");
    await expect(items).toHaveCount(expected.length);
    expect(await items.evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-line"))))).toEqual(expected.map((d) => d.line));
    await expect(items.nth(1)).toContainText("message.usage.input");
    expect(await page.evaluate(() => performance.getEntriesByName("session:restored").length)).toBe(how === "restored" ? 1 : 0);
  };
  await diagnosticsShown("parsed");
  // the server checked the lines as it made the snapshot: the notes come with it
  await diagnosticsShown("restored");
  // a snapshot the server takes for whole (its stamp's checksum made again over the changed bytes) that does not
  // restore: the page checks it, reads the lines it kept, and the worker checks them
  const snap = path.join(process.env.PI_VIEWER_CACHE_DIR!, "light", `${createHash("sha256").update(realpathSync(file)).digest("hex").slice(0, 32)}.snap`);
  const kept = readFileSync(snap);
  const stampEnd = 4 + kept.readUInt32LE(0);
  const stamp = JSON.parse(kept.subarray(4, stampEnd).toString("utf8")) as { sum: string };
  kept.fill(0, stampEnd, stampEnd + 16);
  stamp.sum = checksumHex(kept.subarray(stampEnd));
  const restamped = Buffer.from(JSON.stringify(stamp));
  expect(restamped.byteLength).toBe(stampEnd - 4);
  restamped.copy(kept, 4);
  writeFileSync(snap, kept);
  await diagnosticsShown("parsed");
  expect(light).toEqual(["made", "kept sent", "kept sent"]);
  // one the server finds damaged is dropped, never sent: the page parses the lines
  const damaged = readFileSync(snap);
  damaged[stampEnd + 32]! ^= 0xff;
  writeFileSync(snap, damaged);
  await diagnosticsShown("parsed");
  expect(light).toEqual(["made", "kept sent", "kept sent", "kept none"]);
});

test("the selected entry's context is read ahead: the Context tab opens with its content and sends no request", async ({ page }) => {
  const rel = `${PROJECT}/2026-03-01T12-00-00-000Z_ahead.jsonl`;
  writeFileSync(path.join(dir, ...rel.split("/")), sessionText("ff"));
  const requests = rawRequests(page);
  await page.goto(`${app.url}/view?file=${encodeURIComponent(rel)}&entry=ff000002`);
  await expect(page.locator("#inspector-panel-entry")).toContainText("MARKASSISTANTTAIL");
  // the Entry tab reads its entry; the context's other entry is read ahead while the page is idle
  await expect.poll(() => requests.filter(Boolean).length).toBe(2);
  const before = requests.length;
  await page.locator("#inspector-tab-context").click();
  await page.getByTestId("context-mode-llm").click();
  const sent = page.getByTestId("llm-list");
  await sent.locator("[aria-expanded]").nth(0).click();
  await expect(sent.getByTestId("llm-text").nth(0)).toContainText("MARKUSERTAIL");
  expect(requests.length).toBe(before);
});

test("a library file in an older format is read whole: the server makes no light index of it", async ({ page }) => {
  const rel = `${PROJECT}/2026-03-01T12-00-00-000Z_v2.jsonl`;
  const lines = sessionText("dd").split("\n");
  lines[0] = lines[0]!.replace('"version":3', '"version":2');
  writeFileSync(path.join(dir, ...rel.split("/")), lines.join("\n"));
  const requests = rawRequests(page);
  const light = lightIndexAnswers(page);
  await page.goto(`${app.url}/view?file=${encodeURIComponent(rel)}&entry=dd000002`);
  await expect(page.locator("#inspector-panel-entry")).toContainText("MARKASSISTANTTAIL");
  expect(light).toEqual(["409"]);
  expect(requests.filter((r) => r === "")).toHaveLength(1);
});

test("a URL whose server serves byte ranges (?src=) is read on demand too, and searched through a worker", async ({ page }) => {
  const rel = `${PROJECT}/2026-03-01T12-00-00-000Z_url.jsonl`;
  writeFileSync(path.join(dir, ...rel.split("/")), sessionText("ee"));
  const requests = rawRequests(page);
  const src = `/api/sessions/raw?path=${encodeURIComponent(rel)}`;
  await page.goto(`${app.url}/view?src=${encodeURIComponent(src)}&entry=ee000002`);
  await expectFullContent(page, { assistant: "ee000002", user: "ee000003" });
  expect(requests.filter(Boolean).length).toBeGreaterThan(0);
  expect(requests.filter((r) => r === "")).toHaveLength(2);
});

test("an upload shows, projects and searches content past the cut, read from the picked file again", async ({ page }) => {
  const requests = rawRequests(page);
  await page.goto(`${app.url}/view`);
  await page.getByTestId("file-input").setInputFiles({ name: "upload.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(sessionText("bb")) });
  await expect(page.getByTestId("session-graph")).toHaveAttribute("data-placed", "true", { timeout: 60_000 });
  await page.locator('.react-flow__node[data-id="bb000002"]').click();
  await expectFullContent(page, { assistant: "bb000002", user: "bb000003" });
  expect(requests).toEqual([]); // a picked file is never sent anywhere
});

test("a library file replaced after it was opened: reading its content says so, by file name and line", async ({ page }) => {
  const name = "2026-03-01T12-00-00-000Z_replaced.jsonl";
  const file = path.join(dir, PROJECT, name);
  const before = sessionText("cc");
  writeFileSync(file, before);
  await page.goto(`${app.url}/view?file=${encodeURIComponent(`${PROJECT}/${name}`)}&entry=cc000001`);
  await expect(page.locator("#inspector-panel-entry")).toContainText("MARKUSERTAIL");
  // paused: the live tail would see the rewrite and open the file again (live-tail.spec covers that)
  await expect(page.getByTestId("live-status")).toHaveAttribute("aria-label", /pause the live tail/);
  await page.getByTestId("live-status").click();
  await expect(page.getByTestId("live-status")).toHaveAttribute("aria-label", /resume the live tail/);
  // the same bytes but another session's ids: what the page indexed is no longer there
  const after = sessionText("dd");
  expect(after.length).toBe(before.length);
  expect(Session.fromText(after).tree.get("cc000003")).toBeUndefined();
  writeFileSync(file, after);
  await page.locator('.react-flow__node[data-id="cc000003"]').click();
  await expect(page.getByTestId("content-read-error")).toHaveText(
    `${name}: line 4 no longer holds entry cc000003: the file changed since it was opened; open it again`,
  );
  await expect(page.locator("#inspector-panel-entry")).not.toContainText("MARKSECONDTAIL");
});
