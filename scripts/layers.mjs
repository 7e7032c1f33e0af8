// The app's layers, in one place: what each folder may import, and which code is pure. eslint.config.mjs makes its
// import rules from them and scripts/browser-tsconfig.mjs the browser-only typecheck's list of files
// (tsconfig.session.json); docs/ARCHITECTURE.md draws the same table, and scripts/layers.test.ts holds all three to it.

/**
 * Each layer and what it may import besides itself and npm packages; a folder not listed here (app/) may import
 * anything. Checked on resolved paths, so a relative import that climbs out of a folder is caught too.
 * @type {Record<string, string[]>}
 */
export const LAYERS = {
  "lib/session": [],
  "lib/models": [],
  "lib/render": [],
  "lib/layout": ["lib/session", "lib/render"],
  "lib/export": ["lib/session", "lib/render"],
  "lib/share": ["lib/session", "lib/export"],
  "lib/library": ["lib/session"],
  "lib/client": ["lib/session", "lib/layout", "lib/export", "lib/share", "lib/render"],
  "lib/server": ["lib/session", "lib/library", "lib/export", "lib/share"],
  "lib/cli": ["lib/session", "lib/models", "lib/library", "lib/export", "lib/share", "lib/server", "scripts"],
  "lib/pi-extension": ["scripts"],
  components: ["lib/session", "lib/models", "lib/layout", "lib/export", "lib/share", "lib/library", "lib/client", "lib/render"],
};

/**
 * Folders inside a layer that must not import some of their neighbours: the tree indexes a session's structure
 * and knows no rule set (the rule sets register what they keep as observers of it, lib/session/rules/session-tree.ts).
 * @type {Record<string, string[]>}
 */
export const FENCES = {
  "lib/session/tree": ["lib/session/rules"],
};

/** Every folder the layer rules speak of: the layers, and the two that are none (app/ may import anything). */
export const FOLDERS = [...Object.keys(LAYERS), "app", "scripts"];

/**
 * The pure code, a folder or one file: it imports no Node module, nor React, Next or React Flow, nor anything of
 * components/, app/ or lib/server, and type-checks with the browser's libraries alone. Its tests and test helpers
 * (`*.test.ts`, `testing/`) may read files from disk. lib/models is pure but for the generator that reads pi-ai's
 * own files (catalogue-source.ts, write-catalogue.ts).
 */
export const PURE = ["lib/session", "lib/models/model-catalogue.ts", "lib/render", "lib/layout", "lib/export", "lib/share", "lib/library", "lib/client"];

const isFile = (place) => /\.[cm]?[jt]sx?$/.test(place);

/** The files PURE names, as globs: a folder's every file, or the one file. */
export const pureGlobs = () => PURE.map((place) => (isFile(place) ? place : `${place}/**`));

/** The tests and test helpers of the pure folders. */
export const pureTestGlobs = () => PURE.filter((place) => !isFile(place)).flatMap((folder) => [`${folder}/**/*.test.ts`, `${folder}/**/testing/**`]);

/** The TypeScript files PURE names, as a tsconfig's `include` (its `exclude` drops the tests and test helpers). */
export const pureSources = () => PURE.map((place) => (isFile(place) ? place : `${place}/**/*.ts`));
