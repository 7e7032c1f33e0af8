// Every XSS payload in every string field of a session (and in its folder and file name) stays inert:
// on the library, through every entry's Entry, Path and Context tabs, for an uploaded file and in an exported HTML transcript.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test, type Page } from "@playwright/test";
import { THEME_SCRIPT } from "../components/ui/theme-script";
import { SESSIONS_DIR } from "./fixtures/session-files";
import { ALL_PAYLOADS, XSS_ENTRY_IDS, XSS_FIELDS, XSS_FILE_NAME, XSS_FOLDER, XSS_PAYLOADS, xssSession } from "./fixtures/xss-payloads";

test.describe.configure({ timeout: 180_000, mode: "serial" });
const SLOW = { timeout: 60_000 };

/** What a page must never show: a dialog, a console error, a CSP violation, a run payload, a live handler or link. */
function watch(page: Page) {
  const problems: string[] = [];
  page.on("dialog", (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console error: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  return problems;
}

async function expectInert(page: Page, problems: string[], where: string) {
  const found = await page.evaluate((themeScript) => {
    const out: string[] = [];
    const w = window as unknown as { __xss?: unknown; __cspViolations?: string[] };
    if (w.__xss !== undefined) out.push(`window.__xss = ${String(w.__xss)}`);
    if (({} as Record<string, unknown>).polluted !== undefined) out.push("Object.prototype polluted");
    for (const v of w.__cspViolations ?? []) out.push(`CSP violation: ${v}`);
    for (const el of document.querySelectorAll("*")) {
      for (const attr of el.getAttributeNames()) {
        if (/^on/i.test(attr)) out.push(`<${el.localName} ${attr}>`);
        if (/^(href|src|action|formaction|data|srcdoc)$/i.test(attr)) {
          const value = el
            .getAttribute(attr)!
            .replace(/[\u0000-\u0020]/g, "")
            .toLowerCase();
          // an SVG drawn by <img> cannot run script or load anything (the browser's image mode); anywhere else it can
          const svg = value.startsWith("data:image/svg") && !(el.localName === "img" && attr === "src");
          if (value.startsWith("javascript:") || value.startsWith("data:text/html") || svg || attr.toLowerCase() === "srcdoc")
            out.push(`<${el.localName} ${attr}=${value.slice(0, 40)}>`);
        }
      }
      if (["iframe", "object", "embed", "base", "meta"].includes(el.localName) && !(el.localName === "meta" && el.closest("head")))
        out.push(`<${el.localName}> in the page`);
    }
    for (const script of document.querySelectorAll("script")) {
      // Next's own scripts carry the request's nonce or come from /_next/; the theme script is ours (allowed by hash)
      const own = script.nonce !== "" || (script.src && new URL(script.src).pathname.startsWith("/_next/")) || script.textContent === themeScript;
      if (!own) out.push(`foreign <script>: ${script.outerHTML.slice(0, 80)}`);
    }
    return out;
  }, THEME_SCRIPT);
  expect([...problems, ...found], where).toEqual([]);
}

/** Records CSP violations in the page before any of its scripts run. */
async function recordViolations(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __cspViolations: string[] };
    w.__cspViolations = [];
    document.addEventListener("securitypolicyviolation", (e) =>
      w.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`),
    );
  });
}

const folder = path.join(SESSIONS_DIR, XSS_FOLDER);
const rel = `${XSS_FOLDER}/${XSS_FILE_NAME}`;

test.beforeAll(() => {
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, XSS_FILE_NAME), xssSession());
  console.log(
    `xss: ${XSS_PAYLOADS.length} payloads × ${XSS_FIELDS.length} fields = ${XSS_PAYLOADS.length * XSS_FIELDS.length} placements, plus a hostile folder and file name`,
  );
});
test.afterAll(() => rmSync(folder, { recursive: true, force: true }));

test("the library lists the hostile session as text", async ({ page }) => {
  const problems = watch(page);
  await recordViolations(page);
  await page.goto("/");
  const row = page.getByTestId("session-row").filter({ hasText: "<script>window.__xss=1</script>" });
  await expect(row.first()).toBeVisible(SLOW);
  await page.getByTestId("filter").fill("__xss");
  await expect(row.first()).toBeVisible();
  await page.mouse.move(200, 300);
  await expectInert(page, problems, "library");
});

for (const id of XSS_ENTRY_IDS) {
  test(`${id}: its Entry, Path and Context tabs render every payload inert`, async ({ page }) => {
    const problems = watch(page);
    await recordViolations(page);
    await page.goto(`/view?${new URLSearchParams({ file: rel, entry: id })}`);
    await expect(page.getByTestId("dropzone")).toHaveAttribute("data-load-phase", "ready", SLOW);
    const inspector = page.locator("#inspector");
    await expect(inspector).toContainText(id, SLOW);
    // the payload text itself is on the page, as text
    await expect(page.getByTestId("session-title")).toContainText("<script>window.__xss=1</script>");
    for (const tab of ["Entry", "Path", "Context"]) {
      await inspector.getByRole("tab", { name: tab, exact: true }).click();
      await expect(inspector.getByRole("tab", { name: tab, exact: true })).toHaveAttribute("aria-selected", "true");
      // open every disclosure in view (thinking, tool arguments, details) so hidden content renders too
      for (const summary of await inspector.locator("summary:visible").all()) await summary.click({ timeout: 2_000 }).catch(() => undefined);
      await page.mouse.move(400, 300);
      await expectInert(page, problems, `${id} ${tab}`);
    }
  });
}

test("the tool renderers keep hostile paths, languages, ANSI text and OSC 8 targets as text", async ({ page }) => {
  const problems = watch(page);
  await recordViolations(page);
  await page.goto(`/view?${new URLSearchParams({ file: rel, entry: "x-tools" })}`);
  const inspector = page.locator("#inspector");
  for (const tool of ["edit", "write", "read", "bash", "grep", "ls"]) await expect(inspector.locator(`[data-tool="${tool}"]`).first()).toBeVisible(SLOW);
  const more = inspector.getByRole("button", { name: /^Show \d+ more lines?$/ });
  for (let n = await more.count(); n > 0; n--) await more.first().click();
  // the path with markup in it is its text; no grammar is picked from a hostile extension or fence name
  await expect(inspector.locator('[data-tool="edit"] [data-tool-path]')).toHaveText('src/<img src=x onerror="window.__xss=57">.<script>');
  for (const language of await inspector.locator("[data-language]").evaluateAll((els) => els.map((el) => el.getAttribute("data-language"))))
    expect(language).toMatch(/^[a-z-]+$/);
  // of the OSC 8 links only the https one is a link, its quotes escaped by the URL parser; the other links are
  // the plain https URLs in the payloads' text, cut where a quote starts
  const links = await inspector.locator('[data-tool="bash"] a').evaluateAll((els) => els.map((el) => el.getAttribute("href")));
  expect(links).toContain("https://example.com/%22onmouseover=%22window.__xss=54");
  for (const href of links) expect(href).toMatch(/^https:\/\/example\.com\/[^"'<> ]*$/);
  await expect(inspector.locator('[data-tool="bash"] [aria-label=output]')).toContainText('<img src=x onerror="window.__xss=51">');
  await expectInert(page, problems, "tool renderers");
});

test("a hostile system prompt and tools stay text in the Context tab's System row", async ({ page }) => {
  const problems = watch(page);
  await recordViolations(page);
  await page.goto(`/view?${new URLSearchParams({ file: rel, entry: "x-system" })}`);
  const inspector = page.locator("#inspector");
  await inspector.getByRole("tab", { name: "Context", exact: true }).click(SLOW);
  const row = inspector.getByTestId("context-system");
  await expect(row).toHaveAttribute("data-recorded", "true", SLOW);
  await row.getByRole("button", { expanded: false }).click();
  for (const summary of await row.locator("summary").all()) await summary.click();
  // the tool named with every payload is listed by that name; the prompt holds the payloads as its text
  await expect(row.locator("[data-tool-name]").first()).toHaveAttribute("data-tool-name", ALL_PAYLOADS);
  await expect(row.getByRole("group", { name: "system prompt" })).toContainText(XSS_PAYLOADS[0]!.split("\n")[0]!);
  await expectInert(page, problems, "system row");
});

test("Export HTML of the hostile path opens inert: no script, no request but its own, no CSP report", async ({ page, context }, testInfo) => {
  const problems = watch(page);
  await recordViolations(page);
  await page.goto(`/view?${new URLSearchParams({ file: rel, entry: "x-system" })}`);
  await expect(page.locator("#inspector header")).toContainText("x-system", SLOW);
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export HTML" }).click()]);
  const file = testInfo.outputPath("xss-transcript.html");
  await download.saveAs(file);
  await expectInert(page, problems, "export");

  const viewer = await context.newPage();
  const viewerProblems = watch(viewer);
  await recordViolations(viewer);
  const requests: string[] = [];
  viewer.on("request", (request) => requests.push(request.url()));
  await viewer.goto(pathToFileURL(file).href);
  // every fold and every <details> opened, the pointer over the page: nothing in it may run
  for (const summary of await viewer.locator("summary").all()) await summary.click({ timeout: 2_000 }).catch(() => undefined);
  await viewer.mouse.move(300, 300);
  await expect(viewer.locator("script")).toHaveCount(0);
  await expect(viewer.locator('[data-tool-call-id="call-bash"]').first()).toContainText('<img src=x onerror="window.__xss=51">');
  await expect(viewer.locator('section[data-kind="system"] [data-tool-name]').first()).toHaveAttribute("data-tool-name", ALL_PAYLOADS);
  expect(requests).toEqual([pathToFileURL(file).href]);
  await expectInert(viewer, viewerProblems, "exported HTML");
});

test("an uploaded hostile file, with a hostile file name, stays inert", async ({ page }) => {
  const problems = watch(page);
  await recordViolations(page);
  await page.goto("/view");
  await page.getByTestId("file-input").setInputFiles({ name: XSS_FILE_NAME, mimeType: "application/x-ndjson", buffer: Buffer.from(xssSession()) });
  await expect(page.getByTestId("dropzone")).toHaveAttribute("data-load-phase", "ready", SLOW);
  for (const node of await page.locator(".react-flow__node:visible").all()) {
    await node.click({ timeout: 5_000 }).catch(() => undefined);
    await expectInert(page, problems, `graph node ${await node.getAttribute("data-id")}`);
  }
  await page.screenshot({ path: "/tmp/shots-harden/xss-upload.png" });
  await expectInert(page, problems, "upload");
});
