/**
 * The stylesheet of the exported HTML transcript, made by the same Tailwind and the same tokens as the app
 * (app/globals.css), for only the classes the transcript's components use. The export has no script, so the
 * dark theme follows the reader's system (prefers-color-scheme) where the app follows its .dark class.
 *
 *   node scripts/transcript-css.mjs          writes components/transcript/transcript-css.ts
 *   node scripts/transcript-css.mjs --check  fails when that file is not what this script makes
 *
 * components/transcript/transcript-css.test.ts runs the check, so a class added to a renderer cannot be
 * missing from the export.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import postcss from "postcss";
import tailwind from "@tailwindcss/postcss";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const TRANSCRIPT_CSS_FILE = path.join(ROOT, "components/transcript/transcript-css.ts");

/** the files whose classes the export uses, relative to app/ (where the input stylesheet sits) */
const SOURCES = ["../components/transcript/*.tsx", "../components/inspector/Markdown.tsx", "../components/inspector/Fields.tsx"];
const DARK = "@media (prefers-color-scheme: dark)";

/** app/globals.css with its dark theme under the system's preference, scanning only the transcript's sources. */
export function exportInput(globals) {
  const swap = (text, from, to) => {
    if (!from.test(text)) throw new Error(`app/globals.css no longer has ${from}; update scripts/transcript-css.mjs`);
    return text.replace(from, to);
  };
  let css = swap(globals, /@import "tailwindcss";/, `@import "tailwindcss" source(none);\n${SOURCES.map((s) => `@source "${s}";`).join("\n")}`);
  css = swap(css, /@custom-variant dark \([^)]*\)\);/, `@custom-variant dark (${DARK});`);
  css = swap(css, /^html\.dark \{([^}]*)\}/m, `${DARK} {\n  html {$1}\n}`);
  css = swap(css, /^\.dark \{([^}]*)\}/gm, `${DARK} {\n  :root {$1}\n}`);
  // React Flow's chrome: there is no graph in a transcript
  return css.replace(/\/\* React Flow[^]*?\n\}\n/, "");
}

export async function transcriptCss() {
  const globals = await readFile(path.join(ROOT, "app/globals.css"), "utf8");
  const from = path.join(ROOT, "app/transcript-export.css");
  const result = await postcss([tailwind({ base: ROOT, optimize: { minify: true } })]).process(exportInput(globals), { from });
  return result.css.trim();
}

export async function transcriptCssModule() {
  const css = await transcriptCss();
  return [
    "// Made by scripts/transcript-css.mjs from app/globals.css and the classes of the transcript's components; do not edit.",
    "// The exported HTML transcript's whole stylesheet: the app's Tailwind and tokens, dark by the system's preference.",
    `export const TRANSCRIPT_CSS = ${JSON.stringify(css)};`,
    "",
  ].join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const made = await transcriptCssModule();
  if (process.argv.includes("--check")) {
    const kept = await readFile(TRANSCRIPT_CSS_FILE, "utf8").catch(() => "");
    if (kept !== made) {
      console.error(`${path.relative(ROOT, TRANSCRIPT_CSS_FILE)} is stale: run node scripts/transcript-css.mjs`);
      process.exit(1);
    }
  } else {
    await writeFile(TRANSCRIPT_CSS_FILE, made);
    console.log(`wrote ${path.relative(ROOT, TRANSCRIPT_CSS_FILE)} (${made.length} bytes)`);
  }
}
