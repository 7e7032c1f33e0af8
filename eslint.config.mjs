// ESLint flat config: Next.js rules plus the import boundaries that keep the core pure (the layers: scripts/layers.mjs).
import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import { FENCES, FOLDERS, LAYERS, pureGlobs, pureTestGlobs } from "./scripts/layers.mjs";

// Regex patterns (not gitignore-style groups) so that "path" does not also match "./path".
const uiAndAppImports = [
  { regex: "^(react|react-dom)(/.*)?$", message: "Pure code (scripts/layers.mjs PURE): no React." },
  { regex: "^next(/.*)?$", message: "Pure code (scripts/layers.mjs PURE): no Next.js." },
  { regex: "^@xyflow/", message: "Pure code (scripts/layers.mjs PURE): React Flow belongs in components/." },
  {
    regex: "^(@/(components|app|lib/server)|(\\.\\./)+(components|app|server|lib/server))(/.*)?$",
    message: "Dependencies point one way: app → components → lib/layout → lib/session; lib/server is server-only.",
  },
];
const nodeImports = [{ regex: "^(node:.*|(fs|path)(/.*)?)$", message: "Pure code (scripts/layers.mjs PURE): file system access belongs in lib/server." }];

const layerZones = Object.entries(LAYERS).map(([layer, may]) => ({
  target: `./${layer}`,
  from: FOLDERS.filter((other) => other !== layer && !may.includes(other)).map((other) => `./${other}`),
  message: `${layer} may import only ${may.length ? may.join(", ") : "itself"} (scripts/layers.mjs LAYERS).`,
}));
const fenceZones = Object.entries(FENCES).map(([folder, banned]) => ({
  target: `./${folder}`,
  from: banned.map((other) => `./${other}`),
  message: `${folder} may not import ${banned.join(", ")} (scripts/layers.mjs FENCES).`,
}));

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  {
    files: ["lib/**", "components/**"],
    ignores: ["**/*.test.ts", "**/*.test.tsx", "**/testing/**"],
    rules: { "import/no-restricted-paths": ["error", { zones: [...layerZones, ...fenceZones] }] },
  },
  {
    files: pureGlobs(),
    rules: { "no-restricted-imports": ["error", { patterns: [...uiAndAppImports, ...nodeImports] }] },
  },
  {
    // Tests and their helpers may read fixtures from disk, but still may not reach into the UI or server.
    files: pureTestGlobs(),
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
    // CommonJS on purpose (scripts/requirements.cjs says why)
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
