// Share files in WebKit, the engine of Safari (which cannot run here): the same checks as firefox.spec.ts, in
// Debian's WebKitGTK MiniBrowser, driven through WebKitWebDriver (see fixtures/webkit-driver.ts).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "@playwright/test";
import { Session } from "../lib/session";
import { sessionFile } from "./fixtures/session-files";
import { shareWithCli } from "./fixtures/share-cli";
import { Keys, launchWebKit, missingWebKit, type WebKitSession } from "./fixtures/webkit-driver";

const NAME = "ca-compaction-a";
const session = Session.fromText(readFileSync(sessionFile(NAME), "utf8"));

test.describe.configure({ timeout: 120_000, mode: "serial" });

let webkit: WebKitSession;
let tmp: string;

const share = (name: string, env: Record<string, string>, ...args: string[]) => shareWithCli(sessionFile(NAME), tmp, name, env, ...args);

test.beforeAll(async () => {
  // a missing engine must fail the run, not skip it: this is the only stand-in for Safari
  expect(missingWebKit(), "WebKitGTK is needed for this spec").toEqual([]);
  // made here, not on import: Playwright also imports the file to list its tests, and nothing would remove it
  tmp = mkdtempSync(path.join(os.tmpdir(), "pi-webkit-e2e-"));
  webkit = await launchWebKit();
});

test.afterAll(async () => {
  await webkit?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/**
 * WebKitWebDriver has no console (no BiDi; MiniBrowser's console-to-stdout setting is silent in the private session
 * automation runs in) and cannot run anything before the page's own scripts. So the listeners go in once the load
 * event has passed, and catch what comes after: decoding the session, rendering it, unlocking it. An error before
 * that which leaves the app running is out of reach; one that stops it never reaches the phase `phase` waits for,
 * and a failing worker shows the error screen, whose text `phase` reports.
 */
async function open(url: string): Promise<void> {
  await webkit.goto(url);
  await webkit.run(`
    if (window.__shareErrors) return;
    const errors = (window.__shareErrors = []);
    const text = (x) => String(x) + (x && x.stack ? "\\n" + x.stack : "");
    const at = (file, line) => (file ? " at " + file + ":" + line : "");
    addEventListener("error", (e) => errors.push("error: " + (e.error ? text(e.error) : e.message + at(e.filename, e.lineno))));
    addEventListener("unhandledrejection", (e) => errors.push("unhandled rejection: " + text(e.reason)));
    addEventListener("securitypolicyviolation", (e) => errors.push("CSP violation: " + e.violatedDirective + " blocked " + (e.blockedURI || "inline") + at(e.sourceFile, e.lineNumber)));
  `);
}

/** What was recorded since `open`; throws if the page was replaced since (the listeners went with it). */
async function errors(): Promise<string[]> {
  const recorded = await webkit.run<string[] | null>("return window.__shareErrors || null");
  if (!recorded) throw new Error("the page was reloaded or left after it was opened");
  return recorded;
}

/** Runs `body` in the page until `done` accepts what it returns, and returns that. */
async function until<T>(what: string, body: string, done: (value: T) => boolean = Boolean, timeout = 60_000): Promise<T> {
  const end = Date.now() + timeout;
  for (;;) {
    const value = await webkit.run<T>(body);
    if (done(value)) return value;
    if (Date.now() > end)
      throw new Error(
        `timed out after ${timeout} ms waiting for ${what}; last saw ${JSON.stringify(value)}; recorded: ${JSON.stringify(await errors().catch(String))}`,
      );
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function phase(wanted: string): Promise<void> {
  const seen = await until<{ phase: string | null; error: string | null }>(
    `data-load-phase=${wanted}`,
    `return {
      phase: document.querySelector("[data-testid=dropzone]")?.getAttribute("data-load-phase") ?? null,
      error: document.querySelector("[data-testid=load-error]")?.textContent ?? null,
    }`,
    (s) => s.phase === wanted || s.phase === "error",
  );
  if (seen.phase !== wanted)
    throw new Error(`wanted data-load-phase=${wanted}, got the error screen: ${seen.error}; recorded: ${JSON.stringify(await errors())}`);
}

test("a share file opens from file:// in WebKit at its deep link, with no script error or CSP violation", async () => {
  const file = share("plain.html", {});
  const target = session.branch(session.leafId!)[3]!.id;
  await open(`${pathToFileURL(file).href}#entry=${target}&tab=path`);
  await phase("ready");
  const shown = await until<string[]>(
    "the Path list",
    `return [...document.querySelectorAll('[data-testid="path-list"] [data-entry-id]')].map((r) => r.getAttribute("data-entry-id"))`,
    (ids) => ids.length > 0,
  );
  expect(shown).toEqual(session.branch(target).map((e) => e.id));
  // (the graph's first cards come in a render React may put off: GraphCanvas's first window)
  await until<number>("the graph's cards", 'return document.querySelectorAll(".react-flow__node").length', (n) => n > 0);
  expect(await errors()).toEqual([]);
});

test("a password-sealed share file asks for its password in WebKit and opens with it", async () => {
  const file = share("sealed.html", { PI_SHARE_PASSWORD: "tulip meadow lantern" }, "--password");
  await open(pathToFileURL(file).href);
  await phase("locked");
  await webkit.type("[data-testid=unlock-input]", "tulip meadow lanterns" + Keys.enter);
  await until("the wrong-password message", 'return !!document.querySelector("[data-testid=unlock-error]")');
  // select what was typed, and type over it
  await webkit.type("[data-testid=unlock-input]", Keys.control + "a");
  await webkit.type("[data-testid=unlock-input]", "tulip meadow lantern" + Keys.enter);
  await phase("ready");
  expect(await errors()).toEqual([]);
});

test("inside a share file, a session picked from disk opens in WebKit (the page reads the file for the worker)", async () => {
  const file = share("picker.html", {});
  await open(pathToFileURL(file).href);
  await phase("ready");
  const other = sessionFile("ca-branching-a");
  await webkit.type("[data-testid=file-input]", other);
  const leaf = Session.fromText(readFileSync(other, "utf8")).leafId!;
  await until<string>("the picked session's leaf", `return document.querySelector("[data-testid=leaf-id]")?.textContent ?? ""`, (text) => text.includes(leaf));
  expect(await errors()).toEqual([]);
});
