// Next.js configuration: pins the project root, disables image optimisation and sets baseline security headers.
import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  turbopack: { root: __dirname }, // don't let Next infer a workspace root from a parent lockfile
  outputFileTracingRoot: __dirname, // must equal turbopack.root
  images: { unoptimized: true },
  poweredByHeader: false,
  // separate build folders let several checkouts' servers (and parallel e2e runs) coexist
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // the installable package (scripts/pack.mjs) runs the server Next traces into <distDir>/standalone
  ...(process.env.PI_VIEWER_STANDALONE === "1" ? { output: "standalone" as const } : {}),
  // images are served as they are (unoptimized), so the image optimiser's native library is never loaded
  // and no test output or earlier package is traced into a new one (Next matches these anywhere in a path: "dist/**" drops next/dist)
  outputFileTracingExcludes: { "*": ["node_modules/sharp/**", "node_modules/@img/**", "dist/package/**", "test-results/**", "playwright-report/**"] },
  // the search index's SQLite is WebAssembly that its module reads from beside itself: loaded from node_modules, and
  // carried into the standalone server
  serverExternalPackages: ["node-sqlite3-wasm"],
  outputFileTracingIncludes: { "/api/search": ["./node_modules/node-sqlite3-wasm/dist/*"] },
  agentRules: false, // otherwise `next dev` writes AGENTS.md when it detects a coding agent
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "no-referrer" },
          // older browsers ignore CSP frame-ancestors (proxy.ts); the viewer is never framed
          { key: "X-Frame-Options", value: "DENY" },
        ],
      },
    ];
  },
};

export default nextConfig;
