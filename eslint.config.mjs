// ESLint flat config: Next.js rules plus the import boundaries that keep the core pure.
import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const PURE_CORE = ["lib/session/**", "lib/layout/**", "lib/render/**", "lib/share/**", "lib/export/**", "lib/client/**", "lib/models/model-catalogue.ts"];
const CORE_TEST_SUPPORT = [
  "lib/session/**/*.test.ts",
  "lib/export/**/*.test.ts",
  "lib/layout/**/*.test.ts",
  "lib/share/**/*.test.ts",
  "lib/session/testing/**",
  "lib/layout/testing/**",
];

// Regex patterns (not gitignore-style groups) so that "path" does not also match "./path".
const uiAndAppImports = [
  { regex: "^(react|react-dom)(/.*)?$", message: "lib/session and lib/layout are pure: no React." },
  { regex: "^next(/.*)?$", message: "lib/session and lib/layout are pure: no Next.js." },
  { regex: "^@xyflow/", message: "lib/session and lib/layout are pure: React Flow belongs in components/." },
  {
    regex: "^(@/(components|app|lib/server)|(\\.\\./)+(components|app|server|lib/server))(/.*)?$",
    message: "Dependencies point one way: app → components → lib/layout → lib/session; lib/server is server-only.",
  },
];
const nodeImports = [{ regex: "^(node:.*|(fs|path)(/.*)?)$", message: "lib/session and lib/layout are pure: file system access belongs in lib/server." }];

/**
 * The layers and what each may import besides itself and npm packages (docs/ARCHITECTURE.md draws the same
 * table). Checked on resolved paths, so a relative import that climbs out of a folder is caught too.
 */
const LAYERS = {
  "lib/session": [],
  "lib/models": [],
  "lib/layout": ["lib/session", "lib/render"],
  "lib/export": ["lib/session", "lib/render"],
  "lib/share": ["lib/session", "lib/export"],
  "lib/library": ["lib/session"],
  "lib/render": [],
  "lib/client": ["lib/session", "lib/layout", "lib/export", "lib/share", "lib/render"],
  "lib/server": ["lib/session", "lib/library", "lib/export", "lib/share"],
  "lib/cli": ["lib/session", "lib/models", "lib/library", "lib/export", "lib/share", "lib/server", "scripts"],
  "lib/pi-extension": ["scripts"],
  components: ["lib/session", "lib/models", "lib/layout", "lib/export", "lib/share", "lib/library", "lib/client", "lib/render"],
};
const EVERY_FOLDER = [...Object.keys(LAYERS), "app", "scripts"];
const layerZones = Object.entries(LAYERS).map(([layer, may]) => ({
  target: `./${layer}`,
  from: EVERY_FOLDER.filter((other) => other !== layer && !may.includes(other)).map((other) => `./${other}`),
  message: `${layer} may import only ${may.length ? may.join(", ") : "itself"} (eslint.config.mjs LAYERS).`,
}));

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  {
    files: ["lib/**", "components/**"],
    ignores: ["**/*.test.ts", "**/*.test.tsx", "**/testing/**"],
    rules: { "import/no-restricted-paths": ["error", { zones: layerZones }] },
  },
  {
    files: PURE_CORE,
    rules: { "no-restricted-imports": ["error", { patterns: [...uiAndAppImports, ...nodeImports] }] },
  },
  {
    // Tests and their helpers may read fixtures from disk, but still may not reach into the UI or server.
    files: CORE_TEST_SUPPORT,
    rules: { "no-restricted-imports": ["error", { patterns: uiAndAppImports }] },
  },
  {
    files: ["components/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [{ regex: "^(@/lib/server|(\\.\\./)+lib/server)(/.*)?$", message: "Components run in the browser: never import lib/server." }],
        },
      ],
    },
  },
  {
    // CommonJS on purpose (scripts/browsers.cjs says why)
    files: ["**/*.cjs"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  globalIgnores([
    ".next*/**",
    "bench/out/**",
    "out/**",
    "dist/**",
    "reports/**",
    "test-results/**",
    "playwright-report/**",
    "next-env.d.ts",
    "node_modules/**",
  ]),
]);
