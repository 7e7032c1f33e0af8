/**
 * The installed command (`npm install -g pi-session-viewer`, built by scripts/pack.mjs):
 *   pi-session-viewer [PATH] [--port N] [--host H] [--open]   serve the viewer (what `npm start -- PATH` does)
 *   pi-session-viewer info|branch|context|fork|share …         the CLI (lib/cli/run.ts), same output and exit codes
 * The server is the standalone Next.js server packed beside this file (../server/server.js).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
// plain ESM shared with scripts/start.mjs (typed from its JS); esbuild bundles it
import { announce, openBrowser, runServer, serveAccess, serveTarget, viewerUrl, whenServing } from "../../scripts/serve.mjs";
import { LIBRARY_COMMANDS } from "./library-commands";
import { CLI_COMMANDS, runCli, USAGE as CLI_USAGE } from "./run";

const PACKAGE_ROOT = path.resolve(__dirname, "..");

const HELP = `pi-session-viewer: look inside pi coding agent sessions in your browser

usage:
  pi-session-viewer [PATH] [--port N] [--host H] [--open] [--no-token]
      serve the viewer on http://127.0.0.1:3000 (PORT/HOST in the environment work too).
      PATH: a sessions directory (default ~/.pi/agent/sessions, or PI_SESSIONS_DIR), or one .jsonl file to open.
      The printed address carries the server's token (new each start; PI_VIEWER_TOKEN fixes it).
      --open: open the page in the desktop's browser.
      --no-token: let in requests without the token (loopback only; any local user can then read your sessions).
  pi-session-viewer <command> FILE ...
${CLI_USAGE.replace(/^usage: cli [^\n]*\n\n/, "")
  .split("\n")
  .map((line) => `    ${line}`)
  .join("\n")}
  pi-session-viewer --version | --help`;

function version(): string {
  return (JSON.parse(readFileSync(path.join(PACKAGE_ROOT, "package.json"), "utf8")) as { version: string }).version;
}

class UsageError extends Error {}

function serveArgs(argv: string[]): { target: string | null; port: string; host: string; open: boolean; noToken: boolean } {
  let target: string | null = null;
  let port = process.env.PORT || "3000";
  let host = process.env.HOST || "127.0.0.1";
  let open = false;
  let noToken = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () =>
      argv[++i] ??
      (() => {
        throw new UsageError(`${arg} needs a value`);
      })();
    if (arg === "--port" || arg === "-p") port = value();
    else if (arg === "--host" || arg === "-H") host = value();
    else if (arg === "--open") open = true;
    else if (arg === "--no-token") noToken = true;
    else if (arg.startsWith("-")) throw new UsageError(`unknown option ${arg}`);
    else if (target === null) target = arg;
    else throw new UsageError(`one PATH at most (got ${target} and ${arg})`);
  }
  if (!/^\d+$/.test(port) || Number(port) > 65535) throw new UsageError(`--port must be a port number, not ${port}`);
  return { target, port, host, open, noToken };
}

async function serve(argv: string[]): Promise<void> {
  const { target, port, host, open, noToken } = serveArgs(argv);
  const chosen = serveTarget(target) as { env: Record<string, string>; openPath: string };
  const access = serveAccess({ host, noToken, env: process.env });
  const env = { ...process.env, ...chosen.env, ...access.env, NEXT_TELEMETRY_DISABLED: "1", PORT: port, HOSTNAME: host };
  const url = viewerUrl(host, port, chosen.openPath, access.token);
  announce(host, url, chosen.env.PI_VIEWER_TARGET, access.token);
  runServer([path.join(PACKAGE_ROOT, "server", "server.js")], { cwd: path.join(PACKAGE_ROOT, "server"), env });
  if (!open || !(await whenServing(url))) return;
  const opened = openBrowser(url, (launcher: string) => console.log(`--open: could not start ${launcher}; open the URL above in a browser.`));
  if (!opened) console.log("--open: no desktop here (DISPLAY is not set); open the URL above in a browser.");
}

function shareTemplate(): string {
  return path.join(PACKAGE_ROOT, "server", "public", "viewer", "share-template.html");
}

async function main(argv: string[]): Promise<number> {
  const [first] = argv;
  if (first === "--version" || first === "-v") {
    process.stdout.write(`${version()}\n`);
    return 0;
  }
  if (first === "--help" || first === "-h" || first === "help") {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  if (first !== undefined && ([...CLI_COMMANDS, ...LIBRARY_COMMANDS, "push"] as readonly string[]).includes(first)) {
    process.env.PI_VIEWER_SHARE_TEMPLATE ??= shareTemplate();
    return runCli(argv);
  }
  try {
    await serve(argv);
    return -1; // the server runs on; its exit ends this process
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${error instanceof UsageError ? `\n${HELP}\n` : ""}`);
    return 1;
  }
}

main(process.argv.slice(2)).then((code) => {
  if (code >= 0) process.exitCode = code;
});
