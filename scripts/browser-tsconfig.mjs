// Writes tsconfig.session.json, the browser-only typecheck's config, from the pure code scripts/layers.mjs lists:
// `npm run typecheck` runs it before `tsc -p tsconfig.session.json`, so the check always reads the list as it is.
// It rewrites the file only when it differs; scripts/layers.test.ts fails while the committed file is out of date.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { pureSources } from "./layers.mjs";

export const BROWSER_TSCONFIG = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "tsconfig.session.json");

const NOTE = `  // Written by scripts/browser-tsconfig.mjs from PURE in scripts/layers.mjs (npm run typecheck writes it again): the pure
  // code must type-check with browser/ES libraries only, no Node types (tests and test helpers excluded).
`;

/** tsconfig.session.json's text as the list makes it, formatted as prettier leaves it. */
export async function browserTsconfigText() {
  const config = {
    compilerOptions: {
      strict: true,
      target: "ES2022",
      module: "esnext",
      moduleResolution: "bundler",
      lib: ["dom", "esnext"],
      types: [],
      noEmit: true,
      skipLibCheck: true,
      resolveJsonModule: true,
      paths: { "@/*": ["./*"] },
    },
    include: pureSources(),
    exclude: ["**/*.test.ts", "**/testing/**"],
  };
  const text = JSON.stringify(config, null, 2).replace(/^\{\n/, `{\n${NOTE}`);
  const prettier = await import("prettier");
  return prettier.format(text, { ...(await prettier.resolveConfig(BROWSER_TSCONFIG)), filepath: BROWSER_TSCONFIG });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = await browserTsconfigText();
  let current = null;
  try {
    current = readFileSync(BROWSER_TSCONFIG, "utf8");
  } catch {
    // not written yet
  }
  if (current !== text) {
    writeFileSync(BROWSER_TSCONFIG, text);
    console.error(`wrote ${path.relative(process.cwd(), BROWSER_TSCONFIG)} from scripts/layers.mjs`);
  }
}
