/**
 * The pi extension of pi-session-viewer (`pi install npm:pi-session-viewer`, or a local path): `/viewer`
 * opens the running session in the viewer, at its current leaf, and the viewer's live tail follows pi as it
 * writes. `/viewer ENTRY` opens another entry; `/viewer stop` stops the viewer this pi started.
 *
 * The viewer is the package's own command (../bin/pi-session-viewer.js) serving pi's sessions directory on
 * 127.0.0.1 only, with a token of its own that the opened address carries. A viewer that another pi of the same
 * user started for the same directory is reused: the state (viewer-state.ts) says where it listens and its token,
 * and it is used only if its process lives and it answers there to that token.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
// plain ESM shared with the command (typed from its JS); esbuild bundles it
import { newToken, openBrowser, viewerUrl } from "../../scripts/serve.mjs";
import { readViewerState, removeViewerState, viewerStatePlace, writeViewerState, type ViewerState } from "./viewer-state";

/** The parts of pi's extension API this uses (pi's ExtensionAPI and ExtensionCommandContext have them). */
interface CommandContext {
  hasUI: boolean;
  ui: { notify(message: string, level?: "info" | "warning" | "error"): void };
  sessionManager: { getSessionFile(): string | undefined; getLeafId(): string | null; getEntry(id: string): unknown };
}
interface ExtensionApi {
  registerCommand(name: string, options: { description: string; handler: (args: string, ctx: CommandContext) => Promise<void> }): void;
  on(event: "session_shutdown", handler: (event: { reason?: string }) => void): void;
}

const HOST = "127.0.0.1";
const COMMAND = path.resolve(__dirname, "..", "bin", "pi-session-viewer.js");

/** the viewer this pi process started, if any */
let started: { child: ChildProcess; running: ViewerState } | null = null;

/**
 * pi keeps a session at <sessions>/--<cwd>--/<file>.jsonl: the viewer serves <sessions>, so every project is in
 * its library. A session kept elsewhere (--session-dir) is served from its own folder.
 */
export function libraryOf(sessionFile: string): { dir: string; path: string } {
  const folder = path.dirname(sessionFile);
  if (/^--.*--$/.test(path.basename(folder))) return { dir: path.dirname(folder), path: `${path.basename(folder)}/${path.basename(sessionFile)}` };
  return { dir: folder, path: path.basename(sessionFile) };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, HOST, () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function answers(viewer: Pick<ViewerState, "port" | "token">): Promise<boolean> {
  try {
    const headers = { authorization: `Bearer ${viewer.token}` };
    return (await fetch(`http://${HOST}:${viewer.port}/api/sessions`, { headers, signal: AbortSignal.timeout(2000) })).ok;
  } catch {
    return false;
  }
}

async function waitUntilServing(viewer: ViewerState, child: ChildProcess): Promise<void> {
  let exited = false;
  child.once("exit", () => (exited = true));
  for (let i = 0; i < 300 && !exited; i++) {
    if (await answers(viewer)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(exited ? "the viewer stopped as it started" : "the viewer did not answer within 30 s");
}

/** A viewer serving `sessionsDir`: this pi's, another pi's that still answers, or a new one. */
async function viewerFor(sessionsDir: string): Promise<ViewerState> {
  if (started && started.running.sessionsDir === sessionsDir && (await answers(started.running))) return started.running;
  const place = viewerStatePlace();
  const known = readViewerState(place);
  if (known && known.sessionsDir === sessionsDir && alive(known.pid) && (await answers(known))) return known;
  stopStarted();
  const port = await freePort();
  const token = newToken();
  const child = spawn(process.execPath, [COMMAND, sessionsDir, "--port", String(port), "--host", HOST], {
    stdio: "ignore",
    env: { ...process.env, HOST, PORT: String(port), PI_VIEWER_TOKEN: token, PI_VIEWER_NO_TOKEN: "" },
  });
  const running = { port, token, sessionsDir, pid: child.pid ?? 0 };
  await waitUntilServing(running, child);
  started = { child, running };
  writeViewerState(place, running);
  return running;
}

function stopStarted(): boolean {
  if (!started) return false;
  started.child.kill("SIGTERM");
  const place = viewerStatePlace();
  if (readViewerState(place)?.pid === started.running.pid) removeViewerState(place);
  started = null;
  return true;
}

function say(ctx: CommandContext, message: string, level: "info" | "warning" | "error" = "info"): void {
  if (ctx.hasUI) ctx.ui.notify(message, level);
  else console.log(message);
}

export async function viewerCommand(args: string, ctx: CommandContext): Promise<string | null> {
  const wanted = args.trim();
  if (wanted === "stop") {
    say(ctx, stopStarted() ? "Stopped the session viewer." : "This pi started no session viewer.");
    return null;
  }
  const file = ctx.sessionManager.getSessionFile();
  if (!file) {
    say(ctx, "This session is not saved to a file, so the viewer has nothing to open.", "warning");
    return null;
  }
  if (wanted && !ctx.sessionManager.getEntry(wanted)) {
    say(ctx, `No entry ${wanted} in this session.`, "warning");
    return null;
  }
  const library = libraryOf(file);
  const viewer = await viewerFor(library.dir);
  const entry = wanted || ctx.sessionManager.getLeafId();
  const page = `/view?file=${encodeURIComponent(library.path)}${entry ? `&entry=${encodeURIComponent(entry)}` : ""}`;
  const url = viewerUrl(HOST, String(viewer.port), page, viewer.token);
  say(ctx, `Session viewer: ${url}`);
  // the message has the link either way; a desktop also gets the page
  openBrowser(url);
  return url;
}

export default function piSessionViewer(pi: ExtensionApi): void {
  pi.registerCommand("viewer", {
    description: "Open this session in pi-session-viewer on localhost (/viewer ENTRY opens an entry, /viewer stop stops it)",
    handler: async (args, ctx) => {
      try {
        await viewerCommand(args, ctx);
      } catch (error) {
        say(ctx, `The session viewer could not start: ${error instanceof Error ? error.message : String(error)}`, "error");
      }
    },
  });
  // the viewer lives as long as the pi that started it (a switch to another session keeps it: same library)
  pi.on("session_shutdown", (event) => {
    if (event.reason === "quit") stopStarted();
  });
}
