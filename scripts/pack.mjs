#!/usr/bin/env node
// `npm run pack`: the installable package, dist/pi-session-viewer-<version>.tgz. It holds what running needs
// and nothing else: the standalone Next.js server Next traces (its own few node_modules included), the
// static assets and public/ (samples, the share-file page), and the command compiled to one JS file. No
// build and no dependency install happen on the user's machine.
import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, lstatSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const at = (...parts) => path.join(root, ...parts);
const DIST_DIR = ".next-pack"; // a build of its own: the repository's .next stays as `npm start` and the tests left it
const out = at("dist", "package");
const app = JSON.parse(readFileSync(at("package.json"), "utf8"));

function run(command, args, env = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env } });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed`);
}

async function main() {
  run(process.execPath, [at("scripts", "build-viewer.mjs")]);
  // next build adds its build folder's type paths to tsconfig.json; this build is not the checkout's, so it is put back
  const tsconfig = readFileSync(at("tsconfig.json"), "utf8");
  try {
    run(process.execPath, [at("node_modules", "next", "dist", "bin", "next"), "build"], { PI_VIEWER_STANDALONE: "1", NEXT_DIST_DIR: DIST_DIR });
  } finally {
    writeFileSync(at("tsconfig.json"), tsconfig);
  }

  rmSync(out, { recursive: true, force: true });
  const server = path.join(out, "server");
  cpSync(at(DIST_DIR, "standalone"), server, { recursive: true });
  // Next links the packages it keeps external (the search index's SQLite) from <distDir>/node_modules by absolute
  // symlinks into this build; a package carries no links, so they become copies
  const aliases = path.join(server, DIST_DIR, "node_modules");
  if (existsSync(aliases)) {
    for (const name of readdirSync(aliases)) {
      const link = path.join(aliases, name);
      if (!lstatSync(link).isSymbolicLink()) continue;
      const target = realpathSync(link);
      rmSync(link);
      cpSync(target, link, { recursive: true });
    }
  }
  // the standalone server serves these, but Next leaves copying them to whoever deploys it
  cpSync(at(DIST_DIR, "static"), path.join(server, DIST_DIR, "static"), { recursive: true });
  cpSync(at("public"), path.join(server, "public"), { recursive: true });
  if (!existsSync(path.join(server, "public", "viewer", "share-template.html"))) throw new Error("the share-file page was not built");

  const forNode = { bundle: true, platform: "node", target: "node20", tsconfig: at("tsconfig.json"), logLevel: "warning" };
  await esbuild.build({
    ...forNode,
    entryPoints: [at("lib", "cli", "pi-session-viewer.ts")],
    outfile: path.join(out, "bin", "pi-session-viewer.js"),
    format: "cjs",
    minify: true,
    legalComments: "none",
    banner: { js: "#!/usr/bin/env node" },
  });
  chmodSync(path.join(out, "bin", "pi-session-viewer.js"), 0o755);
  // the search index's SQLite is bundled into the command; its WebAssembly is read from beside the bundle
  cpSync(at("node_modules", "node-sqlite3-wasm", "dist", "node-sqlite3-wasm.wasm"), path.join(out, "bin", "node-sqlite3-wasm.wasm"));
  // the pi extension (/viewer): pi loads it from the package's "pi" manifest; it runs the command above
  await esbuild.build({
    ...forNode,
    entryPoints: [at("lib", "pi-extension", "viewer.ts")],
    outfile: path.join(out, "extension", "viewer.mjs"),
    // ESM: pi takes the module's default export as the extension's factory
    format: "esm",
    banner: {
      js: 'import { fileURLToPath as __toPath } from "node:url"; import { dirname as __dir } from "node:path"; const __dirname = __dir(__toPath(import.meta.url));',
    },
  });

  const manifest = {
    name: "pi-session-viewer",
    version: app.version,
    description: app.description,
    license: app.license,
    bin: { "pi-session-viewer": "bin/pi-session-viewer.js" },
    engines: app.engines,
    keywords: ["pi-package", "pi", "pi-coding-agent", "session", "viewer", "jsonl"],
    files: ["bin", "extension", "server", "README.md"],
    pi: { extensions: ["./extension/viewer.mjs"] },
  };
  writeFileSync(path.join(out, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(path.join(out, "README.md"), readme(app.version));

  run("npm", ["pack", "--silent", "--pack-destination", at("dist"), out]);
  console.log(`package: dist/pi-session-viewer-${app.version}.tgz`);
}

function readme(version) {
  return `# pi-session-viewer ${version}

Look inside the session files of the pi coding agent in your browser: every branch, the leaf and how it
moved, the root path and the exact context the model gets at any entry, forks pi resumes, and share files
that open anywhere.

\`\`\`sh
pi-session-viewer                 # serves ~/.pi/agent/sessions on http://127.0.0.1:3000
pi-session-viewer PATH --open     # a sessions directory or one .jsonl file; opens the browser
pi-session-viewer context FILE    # the CLI: info, branch, context, fork, share (JSON on stdout)
pi-session-viewer --help
\`\`\`

In pi: \`pi install npm:pi-session-viewer\` (or the path of an unpacked copy), then \`/viewer\` opens the session
you are in at its current leaf, \`/viewer ENTRY\` another entry, \`/viewer stop\` stops the viewer.
`;
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
