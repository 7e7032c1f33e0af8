#!/usr/bin/env node
// Builds the viewer as one HTML page that needs no server: the same React components and core as the app,
// bundled by esbuild into a single inline script (the workers inside it, started from blob: URLs), the
// Tailwind and React Flow styles inline, and a Content-Security-Policy meta tag that allows exactly those
// inline scripts by hash. Two pages come out of it:
//   public/viewer/share-template.html  a share file without its data: the CLI and the Share dialog fill the
//                                      <script id="pi-share"> element; no network access at all
//   out/static/                        (with --static) the viewer for any static host: uploads and ?src=<url>
// Usage: node scripts/build-viewer.mjs [--static]
import { copyFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import postcss from "postcss";
import tailwind from "@tailwindcss/postcss";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const at = (...parts) => path.join(root, ...parts);

const COMMON = {
  bundle: true,
  minify: true,
  platform: "browser",
  target: "es2022",
  format: "iife",
  legalComments: "none",
  write: false,
  logLevel: "error",
  tsconfig: at("tsconfig.json"),
  define: { "process.env.NODE_ENV": '"production"', "import.meta.url": '""' },
};

async function bundle(entry, extra = {}) {
  const result = await esbuild.build({ ...COMMON, ...extra, define: { ...COMMON.define, ...extra.define }, entryPoints: [at(entry)] });
  return inlineSafe(result.outputFiles[0].text.trim());
}

/**
 * The bundle with "<!--" and "</script" written as "\x3C!--" and "\x3C/script": the same string or pattern
 * to JavaScript (highlight.js's HTML grammar holds both), but nothing an HTML parser reads inside a <script>.
 * Minified code never has them outside a string or a regular expression (esbuild writes `< !--`).
 */
function inlineSafe(text) {
  return text.replace(/<!--/g, "\\x3C!--").replace(/<\/script/gi, (found) => `\\x3C${found.slice(1)}`);
}

async function styles() {
  const css = readFileSync(at("app/globals.css"), "utf8");
  const { css: app } = await postcss([tailwind({ base: root, optimize: { minify: true } })]).process(css, { from: at("app/globals.css") });
  const flow = readFileSync(at("node_modules/@xyflow/react/dist/style.css"), "utf8");
  return `${flow}\n${app}`;
}

/** An inline <script>'s text must not end the element early or open a comment the parser honours. */
function assertInlineSafe(name, text) {
  const bad = /<\/script|<!--/i.exec(text);
  if (bad) throw new Error(`${name}: the bundle holds "${bad[0]}" at ${bad.index}; it cannot be inlined`);
}

/** Written whole or not at all: a server may be serving the previous page while this one is written. */
function writeAtomically(file, text) {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}

const sha256 = (text) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

function csp(scripts, { network }) {
  return [
    "default-src 'none'",
    `script-src ${scripts.map(sha256).join(" ")}`,
    // React Flow and the layout write style attributes; styles cannot run script
    "style-src 'unsafe-inline'",
    // the parse worker is the page's own inline code, started from a blob: URL
    "worker-src blob:",
    "img-src data: blob:",
    // a share file reads nothing; the static viewer fetches ?src= from any CORS-enabled origin
    `connect-src ${network ? "'self' http: https:" : "'none'"}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

const escapeAttr = (text) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;");

function page({ app, theme, css, network }) {
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeAttr(csp([theme, app], { network }))}">`,
    '<meta name="referrer" content="no-referrer">',
    '<meta name="generator" content="pi-session-viewer">',
    "<title>pi session viewer</title>",
    `<script>${theme}</script>`,
    `<style>${css}</style>`,
    "</head>",
    '<body class="min-h-screen font-sans text-[13px] antialiased">',
    '<div id="root"></div>',
    "<noscript>This page is the pi session viewer; it needs JavaScript to show the session.</noscript>",
    // the share writer puts the sealed session here (lib/share/share-html.ts); a data block, never executed
    '<script type="application/octet-stream" id="pi-share"></script>',
    `<script>${app}</script>`,
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

async function main() {
  const started = Date.now();
  const [worker, shareWorker, css, themeModule] = await Promise.all([
    bundle("lib/client/parse.worker.ts"),
    bundle("lib/client/share.worker.ts"),
    styles(),
    bundle("components/ui/theme-script.ts", { format: "esm", minify: false }),
  ]);
  // the app's own constant, evaluated as the app evaluates it
  const { THEME_SCRIPT: themeScript } = await import(`data:text/javascript,${encodeURIComponent(themeModule)}`);
  // a share file shares nothing onward (its Share button is not shown), so it goes without the share worker
  const app = (withShareWorker) =>
    bundle("components/standalone/main.tsx", {
      define: { PARSE_WORKER_SOURCE: JSON.stringify(worker), SHARE_WORKER_SOURCE: JSON.stringify(withShareWorker ? shareWorker : "") },
      alias: { "next/link": at("components/standalone/PlainLink.tsx") },
      jsx: "automatic",
    });
  const [shareApp, hostedApp] = await Promise.all([app(false), app(true)]);
  assertInlineSafe("viewer bundle", shareApp);
  assertInlineSafe("viewer bundle", hostedApp);
  assertInlineSafe("theme script", themeScript);

  const share = page({ app: shareApp, theme: themeScript, css, network: false });
  mkdirSync(at("public/viewer"), { recursive: true });
  writeAtomically(at("public/viewer/share-template.html"), share);
  console.log(`viewer: public/viewer/share-template.html ${(share.length / 1024).toFixed(0)} KiB (${Date.now() - started} ms)`);

  if (process.argv.includes("--static")) {
    const out = at("out/static");
    mkdirSync(path.join(out, "view"), { recursive: true });
    const hosted = page({ app: hostedApp, theme: themeScript, css, network: true });
    writeFileSync(path.join(out, "index.html"), hosted);
    writeFileSync(path.join(out, "view", "index.html"), hosted);
    // the Share dialog of the static viewer makes share files from this page, fetched beside it
    writeFileSync(path.join(out, "share-template.html"), share);
    writeFileSync(path.join(out, "view", "share-template.html"), share);
    writeFileSync(path.join(out, ".nojekyll"), "");
    copyFileSync(at("app/icon.svg"), path.join(out, "icon.svg"));
    console.log(`static viewer: out/static/ (index.html, view/index.html)`);
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
