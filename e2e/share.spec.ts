// Share files: written from the Share dialog and from the CLI, opened from file:// with the network off. The
// viewer in the file answers Path and Context as the CLI does, searches, switches branches, restores the
// entry and tab; sealed files ask for their password; redacted files hold none of the secrets; the XSS corpus
// stays inert under the file's own CSP.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test, type Browser, type Download, type Page } from "@playwright/test";
import { Session } from "../lib/session";
import { unpackShare } from "../lib/share/pack";
import { unseal } from "../lib/share/seal";
import { extractShare } from "../lib/share/share-html";
import { dedupe, listIds } from "./fixtures/lists";
import { sessionFile, viewUrl } from "./fixtures/session-files";
import { xssSession } from "./fixtures/xss-payloads";

test.describe.configure({ timeout: 150_000, mode: "serial" });
const SLOW = { timeout: 60_000 };
const ROOT = path.resolve(__dirname, "..");
const NAME = "hx-retained-a"; // branches, a compaction, labels and leaf moves
const tmp = mkdtempSync(path.join(os.tmpdir(), "pi-share-e2e-"));
test.afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function cli(env: Record<string, string>, ...args: string[]): string {
  const r = spawnSync(process.execPath, ["--import", "tsx", "lib/cli/main.ts", ...args], { cwd: ROOT, encoding: "utf8", env: { ...process.env, ...env } });
  if (r.status !== 0) throw new Error(`cli ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

const source = readFileSync(sessionFile(NAME), "utf8");
const session = Session.fromText(source);

/** Three entries from the file: the leaf, the compaction, and a message off the leaf's path. */
function entriesToCheck(): { leaf: string; compaction: string; off: string } {
  const leaf = session.leafId!;
  const onPath = new Set(session.branch(leaf).map((e) => e.id));
  const compaction = session.tree.entries.find((e) => e.type === "compaction")!.id as string;
  const off = session.tree.entries.find((e) => e.type === "message" && !onPath.has(e.id as string) && (e.message as { role?: string }).role === "user")!
    .id as string;
  return { leaf, compaction, off };
}

/** A page with the network off that fails the test on any request that is not the file itself. */
async function offlinePage(browser: Browser): Promise<{ page: Page; requests: string[]; close: () => Promise<void> }> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.setOffline(true);
  const page = await context.newPage();
  const requests: string[] = [];
  page.on("request", (request) => {
    if (!/^(file|blob|data):/.test(request.url())) requests.push(request.url());
  });
  return { page, requests, close: () => context.close() };
}

async function openShare(page: Page, file: string, hash = ""): Promise<void> {
  await page.goto(`${pathToFileURL(file).href}${hash}`);
  await expect(page.getByTestId("dropzone")).toHaveAttribute("data-load-phase", "ready", SLOW);
}

async function download(page: Page, click: () => Promise<void>, name: string): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent("download"), click()]);
  const target = path.join(tmp, name);
  await (file as Download).saveAs(target);
  return target;
}

async function readShareFile(file: string, secret?: { password: string } | { key: string }) {
  const payload = extractShare(readFileSync(file, "utf8"));
  expect(payload).not.toBeNull();
  return unpackShare(await unseal(payload!, secret));
}

const written: Record<"ui" | "cli", string> = { ui: "", cli: "" };

test("the Share dialog writes a share file of the whole session", async ({ page }) => {
  await page.goto(viewUrl(NAME));
  await expect(page.getByTestId("dropzone")).toHaveAttribute("data-load-phase", "ready", SLOW);
  await page.getByTestId("share-open").click();
  const dialog = page.getByTestId("share-dialog");
  await expect(dialog.getByTestId("share-size")).toContainText(`${source.trimEnd().split("\n").length} lines`);
  // nothing in this session matches the built-in patterns or a home path, so the data stays the file's own
  await dialog.getByTestId("share-redact-builtin").uncheck();
  await dialog.getByTestId("share-home-paths").uncheck();
  written.ui = await download(page, () => dialog.getByTestId("share-write").click(), "ui.html");
  await expect(dialog.getByTestId("share-result")).toBeVisible();
  const back = await readShareFile(written.ui);
  expect(back.text).toBe(source);
  expect(back.manifest).toMatchObject({ scope: "session", entryId: session.leafId, redaction: null });
});

test("the CLI writes a share file of the whole session", () => {
  written.cli = path.join(tmp, "cli.html");
  const told = JSON.parse(cli({}, "share", sessionFile(NAME), "-o", written.cli));
  expect(told.file).toBe(written.cli);
});

for (const which of ["ui", "cli"] as const) {
  test(`${which} share file from file:// with the network off: Path and Context match the CLI, search, branches, deep links`, async ({ browser }) => {
    const { leaf, compaction, off } = entriesToCheck();
    const { page, requests, close } = await offlinePage(browser);
    const inspector = page.locator("#inspector");
    for (const id of [leaf, compaction, off]) {
      await openShare(page, written[which], `#entry=${id}&tab=path`);
      await expect(inspector.getByRole("tab", { name: "Path", exact: true })).toHaveAttribute("aria-selected", "true");
      expect(await listIds(inspector.getByTestId("path-list"))).toEqual(JSON.parse(cli({}, "branch", sessionFile(NAME), "--leaf", id)));
      await inspector.getByRole("tab", { name: "Context", exact: true }).click();
      const context = JSON.parse(cli({}, "context", sessionFile(NAME), "--leaf", id));
      const core = session.context(id);
      expect(core.entryIds).toEqual(context.entryIds);
      expect(core.messages.map((m) => m.message)).toEqual(context.messages);
      expect(dedupe(await listIds(inspector.getByTestId("context-list")))).toEqual(dedupe(core.messages.map((m) => m.entryId)));
      // the view is kept in the fragment, so the address is a deep link
      await expect(page).toHaveURL(new RegExp(`#entry=${id}&tab=context$`));
      await inspector.getByRole("tab", { name: "Entry", exact: true }).click();
      await expect(inspector.locator("header")).toContainText(id);
      await page.goto("about:blank");
    }

    // search a word of the off-path message, pick the hit: the other branch is selected and its path shown
    await openShare(page, written[which]);
    await inspector.getByRole("tab", { name: "Entry", exact: true }).click();
    await expect(inspector.locator("header")).toContainText(session.leafId!);
    const text = JSON.stringify(session.tree.full(session.tree.get(off)!).message);
    const word = /[A-Za-z]{7,}/.exec(text.replace(/"(role|content|type|text|timestamp)"/g, ""))![0];
    await page.getByTestId("search-input").fill(word);
    await expect(page.getByTestId("search-results")).toBeVisible();
    await page.getByTestId("search-results").locator(`[data-entry-id="${off}"]`).first().click();
    await expect(inspector.locator("header")).toContainText(off);
    await expect(page).toHaveURL(new RegExp(`#entry=${off}`));
    await page.getByTestId("search-input").fill("");
    await inspector.getByRole("tab", { name: "Path", exact: true }).click();
    expect(await listIds(inspector.getByTestId("path-list"))).toEqual(session.branch(off).map((e) => e.id));

    expect(requests).toEqual([]);
    await close();
  });
}

test("a share file's fragment deep-links a comparison, a search and a filter", async ({ browser }) => {
  const { leaf, off } = entriesToCheck();
  const { page, requests, close } = await offlinePage(browser);
  await openShare(page, written.cli, `#entry=${leaf}&compare=${off}`);
  const view = page.getByTestId("compare-view");
  await expect(view.getByTestId("compare-a")).toHaveAttribute("data-entry-id", leaf);
  await expect(view.getByTestId("compare-b")).toHaveAttribute("data-entry-id", off);
  await expect(page).toHaveURL(new RegExp(`#entry=${leaf}&compare=${off}$`));
  await page.goto("about:blank");
  await openShare(page, written.cli, "#q=compaction&filter=user-only");
  await expect(page.getByTestId("search-input")).toHaveValue("compaction");
  await expect(page).toHaveURL(/[#&]filter=user-only/);
  expect(requests).toEqual([]);
  await close();
});

test("a password-sealed share file refuses a wrong password and opens with the right one", async ({ page, browser }) => {
  await page.goto(viewUrl(NAME, entriesToCheck().compaction));
  await expect(page.getByTestId("dropzone")).toHaveAttribute("data-load-phase", "ready", SLOW);
  await page.locator("#inspector").getByRole("tab", { name: "Context", exact: true }).click();
  await page.getByTestId("share-open").click();
  const dialog = page.getByTestId("share-dialog");
  await dialog.getByTestId("share-scope-fork").check();
  await dialog.getByTestId("share-lock-password").check();
  await dialog.getByTestId("share-password").fill("correct horse battery");
  await dialog.getByTestId("share-password-confirm").fill("correct horse batter");
  await expect(dialog.getByTestId("share-write")).toBeDisabled();
  await dialog.getByTestId("share-password-confirm").fill("correct horse battery");
  const file = await download(page, () => dialog.getByTestId("share-write").click(), "sealed.html");
  expect(readFileSync(file, "utf8")).not.toContain(JSON.stringify(session.header!.cwd));

  const { page: reader, requests, close } = await offlinePage(browser);
  await reader.goto(pathToFileURL(file).href);
  await expect(reader.getByTestId("unlock")).toBeVisible(SLOW);
  await reader.getByTestId("unlock-input").fill("wrong horse");
  await reader.getByTestId("unlock-input").press("Enter");
  await expect(reader.getByTestId("unlock-error")).toContainText("does not open", SLOW);
  await reader.getByTestId("unlock-input").fill("correct horse battery");
  await reader.getByTestId("unlock-input").press("Enter");
  await expect(reader.getByTestId("dropzone")).toHaveAttribute("data-load-phase", "ready", SLOW);
  // the sender's entry and tab
  await expect(reader.locator("#inspector").getByRole("tab", { name: "Context", exact: true })).toHaveAttribute("aria-selected", "true");
  await expect(reader).toHaveURL(new RegExp(`#entry=${entriesToCheck().compaction}&tab=context$`));
  expect(requests).toEqual([]);
  await close();
});

test("a key-sealed share file opens from its link and asks for the key without it", async ({ browser }) => {
  const file = path.join(tmp, "keyed.html");
  const told = JSON.parse(cli({}, "share", sessionFile(NAME), "-o", file, "--key"));
  const { page, close } = await offlinePage(browser);
  await page.goto(pathToFileURL(file).href);
  await expect(page.getByTestId("unlock")).toBeVisible(SLOW);
  await page.getByTestId("unlock-input").fill(told.link);
  await page.getByTestId("unlock-input").press("Enter");
  await expect(page.getByTestId("dropzone")).toHaveAttribute("data-load-phase", "ready", SLOW);
  await page.goto("about:blank");
  await openShare(page, file, `#k=${told.key}`);
  await expect(page).toHaveURL(new RegExp(`k=${told.key}`));
  await close();
});

const GH = "ghp_" + "Z9y8X7w6V5".repeat(4).slice(0, 36);
const CUSTOMER = "Globex Holdings";
const HOST = "build7.corp.example";
const T = (s: number) => `2026-01-21T10:00:0${s}.000Z`;
const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const SECRETS = [
  { type: "session", version: 3, id: "019bd0f9-f200-7ae8-82c3-00000000c0de", timestamp: T(0), cwd: "/home/ann/globex" },
  { type: "message", id: "u1", parentId: null, timestamp: T(1), message: { role: "user", content: `deploy ${CUSTOMER} to ${HOST} with ${GH}`, timestamp: 1 } },
  {
    type: "message",
    id: "a1",
    parentId: "u1",
    timestamp: T(2),
    message: {
      role: "assistant",
      content: [{ type: "text", text: `Reading /home/ann/globex/deploy.sh for ${CUSTOMER}` }],
      provider: "p",
      model: "m",
      usage,
      stopReason: "stop",
      timestamp: 2,
    },
  },
  { type: "message", id: "u2", parentId: "a1", timestamp: T(3), message: { role: "user", content: `and ${HOST}?`, timestamp: 3 } },
  { type: "message", id: "u2b", parentId: "a1", timestamp: T(4), message: { role: "user", content: "another branch", timestamp: 4 } },
]
  .map((l) => JSON.stringify(l) + "\n")
  .join("");

test("redaction: previewed by rule, absent from the file's bytes, and the fork inside keeps its ids", async ({ page }) => {
  await page.goto("/view");
  await page.getByTestId("file-input").setInputFiles({ name: "secrets.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(SECRETS) });
  await expect(page.getByTestId("dropzone")).toHaveAttribute("data-load-phase", "ready", SLOW);
  await page.locator('[data-entry-id="u2"]').first().click();
  await expect(page.locator("#inspector header")).toContainText("u2");
  await page.getByTestId("share-open").click();
  const dialog = page.getByTestId("share-dialog");
  await dialog.getByTestId("share-scope-fork").check();
  await dialog.getByTestId("share-literals").fill(CUSTOMER);
  await dialog.getByTestId("share-regexes").fill("[a-z0-9]+\\.corp\\.example");
  const count = (rule: string) => dialog.locator(`[data-testid=redaction-count][data-rule="${rule}"]`);
  await expect(count("github-token")).toHaveText("github-token 1");
  await expect(count("literal-1")).toHaveText("literal-1 2");
  await expect(count("regex-1")).toHaveText("regex-1 2");
  await expect(count("home-path")).toHaveText("home-path 2");
  await dialog.getByRole("button", { name: /Show where/ }).click();
  await expect(dialog.getByTestId("redaction-hits").locator("mark").first()).toBeVisible();
  const file = await download(page, () => dialog.getByTestId("share-write").click(), "redacted.html");

  const html = readFileSync(file, "utf8");
  const back = await readShareFile(file);
  for (const secret of [GH, CUSTOMER, HOST, "/home/ann"]) {
    expect(html).not.toContain(secret);
    expect(back.text).not.toContain(secret);
    expect(JSON.stringify(back.manifest)).not.toContain(secret);
  }
  expect(back.manifest.redaction!.total).toBe(7);
  const fork = Session.fromText(back.text);
  const original = Session.fromText(SECRETS);
  expect(fork.tree.entries.map((e) => e.id)).toEqual(original.fork("u2").entries.map((e) => e.id));
  expect(fork.leafId).toBe("u2");
  expect(fork.diagnostics().filter((d) => d.severity === "error")).toEqual([]);
});

test("the XSS corpus in a share file opened from file:// stays inert under the file's CSP", async ({ browser }) => {
  const jsonl = path.join(tmp, "xss.jsonl");
  writeFileSync(jsonl, xssSession());
  const file = path.join(tmp, "xss.html");
  cli({}, "share", jsonl, "-o", file);
  const { page, requests, close } = await offlinePage(browser);
  const problems: string[] = [];
  page.on("dialog", (d) => {
    problems.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console: ${m.text()}`);
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __cspViolations: string[] };
    w.__cspViolations = [];
    document.addEventListener("securitypolicyviolation", (e) => w.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const inspector = page.locator("#inspector");
  for (const id of ["x-assistant", "x-tool", "x-custom", "x-error"]) {
    await openShare(page, file, `#entry=${id}`);
    for (const tab of ["Entry", "Path", "Context"]) {
      await inspector.getByRole("tab", { name: tab, exact: true }).click();
      await expect(inspector.getByRole("tab", { name: tab, exact: true })).toHaveAttribute("aria-selected", "true");
    }
    const found = await page.evaluate(() => {
      const out: string[] = [];
      const w = window as unknown as { __xss?: unknown; __cspViolations?: string[] };
      if (w.__xss !== undefined) out.push(`window.__xss = ${String(w.__xss)}`);
      for (const v of w.__cspViolations ?? []) out.push(`CSP violation: ${v}`);
      const scripts = [...document.querySelectorAll("script")];
      // the theme script, the data block and the viewer: nothing else may become a script
      if (scripts.length !== 3) out.push(`${scripts.length} <script> elements`);
      for (const el of document.querySelectorAll("*")) {
        for (const attr of el.getAttributeNames()) if (/^on/i.test(attr)) out.push(`<${el.localName} ${attr}>`);
        if (["iframe", "object", "embed", "base"].includes(el.localName)) out.push(`<${el.localName}>`);
      }
      return out;
    });
    expect([...problems, ...found], id).toEqual([]);
    await page.goto("about:blank");
  }
  expect(requests).toEqual([]);
  await close();
});
