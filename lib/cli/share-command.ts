/**
 * `cli share FILE -o OUT.html`: writes a share file (lib/share) from the command line, the same file the
 * viewer's Share dialog writes. A password is never taken as an argument (it would show in `ps` and shell
 * history): it comes from PI_SHARE_PASSWORD or is asked for on the terminal.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { compileRedaction, type RedactionOptions } from "@/lib/export/redaction-rules";
import type { Session } from "@/lib/session";
import { SHARE_SCOPES, type ShareScope } from "@/lib/share/manifest";
import { lineRedactor } from "@/lib/share/redactor";
import type { Protection } from "@/lib/share/seal";
import { makeShareFile } from "@/lib/share/share-file";
import { scopeProblem } from "@/lib/share/share-data";

export const SHARE_USAGE = `share FILE -o OUT.html [--scope session|fork|path] [--leaf ID] [--tab entry|path|context|stats]
        [--redact] [--redact-literal TEXT]... [--redact-regex RE]... [--home-paths] [--drop-images]
        [--password | --key]
      one HTML file that opens the whole viewer on this session from disk, with no server and no network.
      --scope: the whole file (default), the fork pi would write at --leaf, or the root → --leaf path only.
      --redact masks likely secrets (README, "Redacting secrets"); --redact-literal/--redact-regex add your own;
      --home-paths writes home folders (/home/<you>, /Users/<you>, C:\\Users\\<you>, pi's --home-<you>-…--
      folder names) as ~. --password seals it (PI_SHARE_PASSWORD or a prompt); --key seals it with a random key,
      printed as the link's #k= fragment.`;

export interface ShareArgs {
  scope: ShareScope;
  tab: "entry" | "path" | "context" | "stats" | null;
  builtIn: boolean;
  literals: string[];
  regexes: string[];
  homePaths: boolean;
  dropImages: boolean;
  lock: "none" | "password" | "key";
}

export function defaultShareArgs(): ShareArgs {
  return { scope: "session", tab: null, builtIn: false, literals: [], regexes: [], homePaths: false, dropImages: false, lock: "none" };
}

/** Takes one share option at argv[i] (and its value); returns how many arguments it used, 0 if it is not one. */
export function takeShareOption(argv: string[], i: number, args: ShareArgs, fail: (message: string) => never): number {
  const arg = argv[i]!;
  const value = () => argv[i + 1] ?? fail(`${arg} needs a value`);
  switch (arg) {
    case "--scope": {
      const scope = value();
      if (!(SHARE_SCOPES as readonly string[]).includes(scope)) fail(`--scope must be ${SHARE_SCOPES.join(", ")}`);
      args.scope = scope as ShareScope;
      return 2;
    }
    case "--tab": {
      const tab = value();
      if (!["entry", "path", "context", "stats"].includes(tab)) fail("--tab must be entry, path, context or stats");
      args.tab = tab as ShareArgs["tab"];
      return 2;
    }
    case "--redact":
      args.builtIn = true;
      return 1;
    case "--redact-literal":
      args.literals.push(value());
      return 2;
    case "--redact-regex":
      args.regexes.push(value());
      return 2;
    case "--home-paths":
      args.homePaths = true;
      return 1;
    case "--drop-images":
      args.dropImages = true;
      return 1;
    case "--password":
    case "--key":
      if (args.lock !== "none") fail("--password and --key: choose one");
      args.lock = arg === "--password" ? "password" : "key";
      return 1;
    default:
      return 0;
  }
}

const ROOT = path.resolve(__dirname, "../..");

/** The viewer page a share file is made from; built on first use in a checkout that has not built it yet. */
function template(): string {
  // the installed command points at the page packed beside its server
  const installed = process.env.PI_VIEWER_SHARE_TEMPLATE;
  if (installed) return readFileSync(installed, "utf8");
  const TEMPLATE = path.join(ROOT, "public/viewer/share-template.html");
  if (!existsSync(TEMPLATE)) {
    process.stderr.write("building the viewer page (public/viewer/share-template.html)…\n");
    const built = spawnSync(process.execPath, [path.join(ROOT, "scripts/build-viewer.mjs")], { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
    if (built.status !== 0 || !existsSync(TEMPLATE)) throw new Error("the viewer page could not be built (npm run build:viewer)");
  }
  return readFileSync(TEMPLATE, "utf8");
}

/** Reads a password from the terminal without echo. */
async function promptPassword(): Promise<string> {
  if (process.env.PI_SHARE_PASSWORD) return process.env.PI_SHARE_PASSWORD;
  if (!process.stdin.isTTY) throw new Error("--password: set PI_SHARE_PASSWORD, or run on a terminal to be asked");
  process.stderr.write("password for the share file: ");
  process.stdin.setRawMode(true);
  process.stdin.resume();
  let typed = "";
  try {
    for await (const chunk of process.stdin) {
      for (const char of String(chunk)) {
        if (char === "\r" || char === "\n") return typed;
        if (char === "\u0003") throw new Error("cancelled");
        if (char === "\u007f") typed = typed.slice(0, -1);
        else typed += char;
      }
    }
    return typed;
  } finally {
    process.stdin.setRawMode(false);
    process.stdin.pause();
    process.stderr.write("\n");
  }
}

export interface ShareRun {
  file: string;
  session: Session;
  leaf: string | null | undefined;
  out: string | undefined;
  args: ShareArgs;
  fail: (message: string) => never;
}

export async function runShare({ file, session, leaf, out: outArg, args, fail }: ShareRun): Promise<string> {
  const out = outArg ?? fail(`share needs -o OUT.html\nusage: cli ${SHARE_USAGE}`);
  const entryId = leaf === undefined ? session.leafId : leaf;
  const problem = scopeProblem(session, args.scope, entryId);
  if (problem) fail(`${file}:0: error: --scope ${args.scope}: ${problem}`);
  const options: RedactionOptions = { builtIn: args.builtIn, literals: args.literals, regexes: args.regexes, homePaths: args.homePaths };
  const redacting = args.builtIn || args.literals.length > 0 || args.regexes.length > 0 || args.homePaths;
  const rules = redacting ? compileRedaction(options) : null;
  if (rules && "errors" in rules) fail(rules.errors.map((e) => `${e.rule}: ${e.message}`).join("\n"));
  const redactor = rules && !("errors" in rules) ? lineRedactor(rules) : null;
  const protection: Protection = args.lock === "password" ? { kind: "password", password: await promptPassword() } : { kind: args.lock as "none" | "key" };
  const share = await makeShareFile(template(), session, readFileSync(file, "utf8"), path.basename(file), {
    scope: args.scope,
    entryId,
    tab: args.tab,
    sourcePath: path.resolve(file),
    redactor,
    record: redactor?.record,
    dropImages: args.dropImages,
    protection,
  });
  try {
    writeFileSync(out, share.html, { flag: "wx" });
  } catch (error) {
    fail(
      `${out}: ${(error as NodeJS.ErrnoException).code === "EEXIST" ? "already exists; the share file is never written over one" : `cannot be written (${(error as Error).message})`}`,
    );
  }
  const target = path.resolve(out);
  const link = `file://${target}${share.key ? `#k=${share.key}` : ""}`;
  return JSON.stringify(
    {
      file: target,
      link,
      key: share.key,
      scope: share.manifest.scope,
      entryId: share.manifest.entryId,
      lines: share.manifest.lines,
      bytes: { session: share.sizes.session, compressed: share.sizes.compressed, file: share.sizes.file },
      redaction: share.manifest.redaction,
      images: share.manifest.images,
      sealed: args.lock,
    },
    null,
    2,
  );
}
