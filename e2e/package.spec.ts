// The installable package: `npm run pack` writes dist/pi-session-viewer-<version>.tgz, which is installed into
// a temporary prefix the way a user would (`npm install -g`), and the installed command is run: --version,
// --help, the CLI subcommands against the repository's CLI, and the server on the bundled samples and on one
// file, checked over HTTP and in Chromium; and its pi extension, loaded by pi's own extension loader and run
// with the command context pi's own ExtensionRunner builds. A file missing from the package fails here.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "@playwright/test";
import { freePort } from "./fixtures/serve-cli";
import { sessionFile } from "./fixtures/session-files";

test.describe.configure({ timeout: 240_000, mode: "serial" });
const ROOT = path.resolve(__dirname, "..");
const VERSION = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;
const prefix = mkdtempSync(path.join(os.tmpdir(), "pi-viewer-prefix-"));
const empty = mkdtempSync(path.join(os.tmpdir(), "pi-viewer-no-sessions-"));
const command = path.join(prefix, "bin", "pi-session-viewer");
const installed = path.join(prefix, "lib", "node_modules", "pi-session-viewer");
const servers: ChildProcess[] = [];

function sh(cmd: string, args: string[], env: Record<string, string> = {}) {
  return spawnSync(cmd, args, { cwd: ROOT, encoding: "utf8", env: { ...process.env, ...env }, timeout: 180_000 });
}

test.beforeAll(async () => {
  const packed = sh(process.execPath, ["scripts/pack.mjs"]);
  expect(packed.status, packed.stderr).toBe(0);
  const tgz = path.join(ROOT, "dist", `pi-session-viewer-${VERSION}.tgz`);
  const install = sh("npm", ["install", "-g", tgz, "--prefix", prefix, "--no-audit", "--no-fund"]);
  expect(install.status, install.stderr).toBe(0);
});

test.afterAll(() => {
  for (const server of servers) server.kill("SIGTERM");
  rmSync(prefix, { recursive: true, force: true });
  rmSync(empty, { recursive: true, force: true });
});

/** Starts the installed command and resolves with the URL it prints. */
function serve(args: string[], env: Record<string, string>): Promise<string> {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  servers.push(child);
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk) => {
      out += chunk;
      const url = /pi session viewer: (http:\/\/\S+)/.exec(out)?.[1];
      if (url) resolve(url);
    });
    child.on("exit", (code) => reject(new Error(`the command exited (${code}): ${out}`)));
  });
}

/** The token is in the printed address; scripts send it as a bearer token. */
const signed = (url: string) => ({ headers: { authorization: `Bearer ${new URL(url).searchParams.get("token")}` } });

async function until(url: string, init: RequestInit = {}): Promise<Response> {
  for (let i = 0; i < 300; i++) {
    try {
      return await fetch(url, init);
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${url} never answered`);
}

test("the installed package holds what running needs and none of the dev tools", () => {
  expect(existsSync(path.join(installed, "server", "server.js"))).toBe(true);
  expect(existsSync(path.join(installed, "server", "public", "viewer", "share-template.html"))).toBe(true);
  const modules = readdirSync(path.join(installed, "server", "node_modules"));
  for (const dev of ["@earendil-works", "@playwright", "playwright", "typescript", "vitest", "tsx", "esbuild", "eslint", "sharp", "@img"])
    expect(modules).not.toContain(dev);
  // the package's own dependencies are what it carries: nothing is installed beside it
  expect(existsSync(path.join(installed, "node_modules"))).toBe(false);
  // the server is compiled: no source, test output or earlier package is traced into it (a route's dynamic cache
  // path once made Next trace every project file named like it, earlier packages too, nested deeper each pack)
  const top = readdirSync(path.join(installed, "server")).sort();
  expect(top).toEqual([".next-pack", "node_modules", "package.json", "public", "server.js"]);
});

test("--version, --help, and the CLI subcommands as the repository's CLI answers them", () => {
  expect(sh(command, ["--version"]).stdout.trim()).toBe(VERSION);
  const help = sh(command, ["--help"]);
  expect(help.status).toBe(0);
  expect(help.stdout).toContain("pi-session-viewer [PATH] [--port N] [--host H] [--open] [--no-token]");
  expect(help.stdout).toContain("context FILE");
  const file = sessionFile("ca-compaction-a");
  for (const args of [
    ["info", file],
    ["context", file],
    ["branch", file, "--leaf", "null"],
    // the search index's SQLite, bundled into the command with its WebAssembly beside it
    ["search", "redis", "--dir", path.dirname(path.dirname(file)), "--json"],
    ["usage", "--dir", path.dirname(path.dirname(file)), "--by", "model", "--json"],
  ]) {
    const ours = sh(command, args);
    const repo = sh(process.execPath, ["--import", "tsx", "lib/cli/main.ts", ...args]);
    expect(ours.status, ours.stderr).toBe(0);
    expect(ours.stdout).toBe(repo.stdout);
  }
  const bad = sh(command, ["branch", file, "--leaf", "nope"]);
  expect(bad.status).toBe(1);
  expect(bad.stdout).toBe("");
  expect(bad.stderr).toContain("no entry with id nope");
  const unknown = sh(command, ["--nope"]);
  expect(unknown.status).toBe(1);
  expect(unknown.stderr).toContain("unknown option --nope");
});

test("serves the bundled samples when there are no sessions, over HTTP and in Chromium", async ({ page }) => {
  const printed = await serve(["--port", String(await freePort())], { PI_SESSIONS_DIR: empty });
  expect(printed).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+$/);
  const url = `${new URL(printed).origin}/`;
  expect((await until(url)).status).toBe(401);
  expect((await until(url, signed(printed))).status).toBe(200);
  const listed = (await (await until(`${url}api/sessions`, signed(printed))).json()) as { path: string }[];
  const samples = readdirSync(path.join(ROOT, "public", "samples"), { recursive: true }).filter((f) => String(f).endsWith(".jsonl"));
  expect(listed.length).toBe(samples.length);
  await page.goto(printed);
  await page.goto(`${url}view?file=${encodeURIComponent(listed[0]!.path)}`);
  await expect(page.getByTestId("dropzone")).toHaveAttribute("data-load-phase", "ready", { timeout: 60_000 });
  await expect(page.locator(".react-flow__node").first()).toBeVisible();
  expect((await until(`${url}viewer/share-template.html`, signed(printed))).status).toBe(200);
  // the search index's SQLite (WebAssembly read from beside its module) runs in the installed server too
  const search = await until(`${url}api/search?q=redis`, signed(printed));
  expect(search.status).toBe(200);
  expect(((await search.json()) as { file: string }[]).some((hit) => hit.file.includes("forks"))).toBe(true);
  expect((await until(`${url}api/usage?by=model`, signed(printed))).status).toBe(200);
});

test("serves one session file and opens it at its leaf", async ({ page }) => {
  const file = sessionFile("ca-branching-a");
  const url = await serve([file, "--port", String(await freePort())], {});
  expect(url).toContain(`/view?file=${encodeURIComponent(path.basename(file))}&token=`);
  expect((await until(url)).status).toBe(401); // fetch follows the redirect, and keeps no cookie
  expect((await until(url, signed(url))).status).toBe(200);
  await page.goto(url);
  await expect(page.getByTestId("dropzone")).toHaveAttribute("data-load-phase", "ready", { timeout: 60_000 });
  await expect(page.getByTestId("leaf-id")).toBeVisible();
});

/** pi 1.6's extension loader and runner, and its SessionManager (loaded by path: pi's package root needs Node 22). */
async function pi() {
  const core = path.join(ROOT, "node_modules", "pi-coding-agent-160", "dist", "core");
  const load = (file: string) => import(pathToFileURL(path.join(core, file)).href);
  return {
    loadExtensions: (await load("extensions/loader.js")).loadExtensions,
    ExtensionRunner: (await load("extensions/runner.js")).ExtensionRunner,
    SessionManager: (await load("session-manager.js")).SessionManager,
  };
}

test("pi's /viewer (the package's extension, loaded and run by pi's code) opens the session at its leaf, follows it, and stops", async ({ page }) => {
  const { loadExtensions, ExtensionRunner, SessionManager } = await pi();
  // a sessions directory laid out as pi lays it out, holding one session pi has open
  const sessions = mkdtempSync(path.join(os.tmpdir(), "pi-viewer-pi-sessions-"));
  const project = path.join(sessions, "--tmp-project--");
  mkdirSync(project);
  const file = path.join(project, path.basename(sessionFile("ca-branching-a")));
  copyFileSync(sessionFile("ca-branching-a"), file);
  const manager = SessionManager.open(file, project);
  const leaf = manager.getLeafId() as string;

  const manifest = JSON.parse(readFileSync(path.join(installed, "package.json"), "utf8")) as { pi: { extensions: string[] } };
  const extensionPath = path.join(installed, manifest.pi.extensions[0]!);
  const loaded = await loadExtensions([extensionPath], sessions);
  expect(loaded.errors).toEqual([]);
  const runner = new ExtensionRunner(loaded.extensions, loaded.runtime, sessions, manager, undefined);
  // pi's interactive UI stands behind ctx.ui; here only what the command tells the user is kept
  const notes: string[] = [];
  runner.setUIContext(
    new Proxy({ notify: (message: string) => notes.push(message) }, { get: (ui, key) => (key in ui ? ui[key as "notify"] : () => undefined) }),
    "interactive",
  );
  const viewer = runner.getCommand("viewer");
  expect(viewer).toBeTruthy();
  const run = async (args: string) => {
    await viewer.handler(args, runner.createCommandContext());
    return notes[notes.length - 1]!;
  };

  try {
    const said = await run("");
    const url = /Session viewer: (http:\/\/127\.0\.0\.1:\d+\/view\?\S+)/.exec(said)?.[1];
    expect(url, said).toBeTruthy();
    // the address carries the viewer's own token: one step into the page, and nobody else gets in
    expect(url).toMatch(/&token=[\w-]{43}$/);
    expect((await fetch(`${new URL(url!).origin}/api/sessions`)).status).toBe(401);
    expect(url).toContain(`file=${encodeURIComponent(`--tmp-project--/${path.basename(file)}`)}`);
    expect(url).toContain(`entry=${leaf}`);
    await page.goto(url!);
    await expect(page.getByTestId("dropzone")).toHaveAttribute("data-load-phase", "ready", { timeout: 60_000 });
    await expect(page.locator("#inspector header")).toContainText(leaf);
    await expect(page.getByTestId("live-tail")).toBeVisible();

    // pi writes on: the page's live tail shows the new entry as the leaf
    const added = manager.appendMessage({ role: "user", content: "written after /viewer", timestamp: Date.now() }) as string;
    await expect(page.getByTestId("leaf-id")).toContainText(added, { timeout: 30_000 });

    // another entry: the same viewer, a link to that entry
    const other = manager.getBranch(leaf)[1].id as string;
    const again = await run(other);
    expect(again).toContain(`${new URL(url!).origin}/view?`);
    expect(again).toContain(`token=${new URL(url!).searchParams.get("token")}`);
    expect(again).toContain(`entry=${other}`);
    expect(await run("nope-not-an-entry")).toContain("No entry nope-not-an-entry");

    expect(await run("stop")).toContain("Stopped");
    await expect
      .poll(
        async () =>
          fetch(`${new URL(url!).origin}/api/sessions`).then(
            () => "up",
            () => "down",
          ),
        { timeout: 15_000 },
      )
      .toBe("down");
    expect(await run("stop")).toContain("started no session viewer");
  } finally {
    await viewer.handler("stop", runner.createCommandContext());
    rmSync(sessions, { recursive: true, force: true });
  }
});
