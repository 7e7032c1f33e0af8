#!/usr/bin/env node
// `npm start`: builds the app if the build is missing or stale, then serves it with `next start`.
// Usage: npm start [-- [PATH] [--no-build] [--no-token] [next start args...]]. PATH is forwarded to the app as
// PI_VIEWER_TARGET; --no-build serves the existing build even if the sources changed since (tests serve the build
// they made); --no-token lets in requests without the token (loopback only).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { announce, runServer, serveAccess, serveTarget, viewerUrl } from "./serve.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
const SOURCES = ["app", "components", "lib", "public", "next.config.ts", "package.json", "scripts/build-viewer.mjs"];
// written by scripts/build-viewer.mjs; the Share dialog fetches it
const SHARE_TEMPLATE = path.join("public", "viewer", "share-template.html");
/** what the build writes into public/: never a reason to build again */
const GENERATED = path.join(root, "public", "viewer");
const SKIP_DIRS = new Set(["node_modules", ".git"]);
const distDir = process.env.NEXT_DIST_DIR || ".next"; // same default as next.config.ts

function newestMtime(p) {
  let st;
  try {
    st = statSync(p);
  } catch {
    return 0; // a missing source (e.g. no public/ yet) does not make the build stale
  }
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs; // a deleted file shows up as a newer directory mtime
  for (const entry of readdirSync(p, { withFileTypes: true })) {
    if (entry.isDirectory() && (SKIP_DIRS.has(entry.name) || entry.name.startsWith(".next") || path.join(p, entry.name) === GENERATED)) continue;
    newest = Math.max(newest, newestMtime(path.join(p, entry.name)));
  }
  return newest;
}

function buildIsStale() {
  const buildId = path.join(root, distDir, "BUILD_ID");
  if (!existsSync(buildId)) return "no build found";
  const built = statSync(buildId).mtimeMs;
  const changed = SOURCES.find((s) => newestMtime(path.join(root, s)) > built);
  return changed ? `${changed} changed since the last build` : null;
}

const args = process.argv.slice(2);
const noBuild = args.includes("--no-build");
if (noBuild) args.splice(args.indexOf("--no-build"), 1);
const noToken = args.includes("--no-token");
if (noToken) args.splice(args.indexOf("--no-token"), 1);
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: process.env.NEXT_TELEMETRY_DISABLED ?? "1" };
let target;
try {
  target = serveTarget(args[0] && !args[0].startsWith("-") ? args.shift() : null);
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
Object.assign(env, target.env);
const host = process.env.HOST || "127.0.0.1";
const port = process.env.PORT || "3000";
let access;
try {
  access = serveAccess({ host, noToken, env: process.env });
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
Object.assign(env, access.env);

function buildViewer() {
  return spawnSync(process.execPath, [path.join(root, "scripts", "build-viewer.mjs")], { cwd: root, env, stdio: "inherit" });
}

const stale = buildIsStale();
if (stale && noBuild && existsSync(path.join(root, distDir, "BUILD_ID"))) {
  console.log(`Serving the existing build in ${distDir} (${stale}; --no-build).`);
} else if (stale) {
  console.log(`Building the app (${stale})...`);
  // the share-file page first: the app serves it to the Share dialog
  const viewer = buildViewer();
  const build = viewer.status === 0 ? spawnSync(process.execPath, [nextBin, "build"], { cwd: root, env, stdio: "inherit" }) : viewer;
  if (build.status !== 0) {
    console.error("Build failed.");
    process.exit(build.status ?? 1);
  }
} else if (!existsSync(path.join(root, SHARE_TEMPLATE))) {
  // a build made by `next build` alone: only the share-file page is missing, and it takes a second
  console.log(`Building ${SHARE_TEMPLATE} (missing)...`);
  if (buildViewer().status !== 0) console.error("The share-file page could not be built: Share… will say so.");
}

announce(host, viewerUrl(host, port, target.openPath, access.token), env.PI_VIEWER_TARGET, access.token);
runServer([nextBin, "start", "-H", host, "-p", port, ...args], { cwd: root, env });
