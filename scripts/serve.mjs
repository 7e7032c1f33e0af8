// Serving the viewer, shared by `npm start` (scripts/start.mjs, the repository's build) and the installed
// `pi-session-viewer` command (lib/cli/pi-session-viewer.ts, the package's standalone server): what a PATH
// argument means, the token, the URL to print, the warning off loopback, the child server's lifetime, --open.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { statSync } from "node:fs";
import path from "node:path";

export function isLoopback(host) {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127\./.test(host);
}

/**
 * What PATH asks for: a directory is read as the sessions directory; a session file opens in the viewer, its
 * folder as the library. Returns the environment to add and the page to open, or throws with the reason. A PATH
 * with PI_VIEWER_DATABASE_URL set is refused: the server would read the archive, not it.
 * @param {string | null} arg
 * @param {Record<string, string | undefined>} [env]
 */
export function serveTarget(arg, env = process.env) {
  if (arg && env.PI_VIEWER_DATABASE_URL?.trim())
    throw new Error(`PI_VIEWER_DATABASE_URL is set: the server reads the archive there, not ${arg} (unset it to read a directory or a file)`);
  if (!arg) return { env: {}, openPath: "/" };
  const target = path.resolve(arg);
  const stat = statSync(target, { throwIfNoEntry: false });
  if (stat?.isDirectory()) return { env: { PI_VIEWER_TARGET: target, PI_SESSIONS_DIR: target }, openPath: "/" };
  if (stat?.isFile() && target.endsWith(".jsonl")) {
    return { env: { PI_VIEWER_TARGET: target, PI_SESSIONS_DIR: path.dirname(target) }, openPath: `/view?file=${encodeURIComponent(path.basename(target))}` };
  }
  throw new Error(`Not a directory or a .jsonl session file: ${target}`);
}

/** 256 random bits, URL-safe: the server's token for this start. */
export function newToken() {
  return randomBytes(32).toString("base64url");
}

/**
 * The environment that sets the server's access (lib/server/access-config.ts): the token (PI_VIEWER_TOKEN as given,
 * else a new one per start) and the name it is bound to. `--no-token` (or PI_VIEWER_NO_TOKEN=1) is refused off
 * loopback: there, anyone who can reach the port would read every session.
 * @param {{ host: string, noToken: boolean, env: Record<string, string | undefined> }} options
 * @returns {{ env: Record<string, string>, token: string | null }}
 */
export function serveAccess({ host, noToken, env }) {
  if (noToken || env.PI_VIEWER_NO_TOKEN === "1") {
    if (!isLoopback(host)) throw new Error(`--no-token is allowed on loopback only, not with HOST=${host}: every session would be open to the network.`);
    return { env: { PI_VIEWER_NO_TOKEN: "1", PI_VIEWER_TOKEN: "", HOST: host }, token: null };
  }
  const token = env.PI_VIEWER_TOKEN || newToken();
  return { env: { PI_VIEWER_TOKEN: token, PI_VIEWER_NO_TOKEN: "", HOST: host }, token };
}

/**
 * @param {string} host
 * @param {string} port
 * @param {string} openPath
 * @param {string | null} [token]
 */
export function viewerUrl(host, port, openPath, token = null) {
  const urlHost = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  const url = `http://${urlHost}:${port}${openPath}`;
  return token ? `${url}${openPath.includes("?") ? "&" : "?"}token=${encodeURIComponent(token)}` : url;
}

/**
 * Prints where the viewer is (with its token: the user never types it) and warns of what is exposed.
 * @param {string} host
 * @param {string} url
 * @param {string | undefined} target
 * @param {string | null} [token]
 */
export function announce(host, url, target, token = null, env = process.env) {
  console.log(`pi session viewer: ${url}`);
  if (target) console.log(`Target: ${target}`);
  const archive = env.PI_VIEWER_DATABASE_URL?.trim();
  if (archive) console.log(`Archive: ${shownDatabaseUrl(archive)}`);
  if (token === null) {
    console.warn("WARNING: no token (--no-token): every program and user of this machine that can reach the port can read your sessions.");
  }
  if (!isLoopback(host)) {
    console.warn(`WARNING: HOST=${host} is not a loopback address; the viewer and the session files it serves are exposed on the network.`);
    if (["0.0.0.0", "::", "[::]"].includes(host)) {
      console.warn("It answers only to loopback names until PI_VIEWER_ALLOWED_HOSTS lists the names others use to reach it.");
    }
  }
}

/** A database URL as it may be printed: its password replaced. */
export function shownDatabaseUrl(url) {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(not a URL)";
  }
}

/** How long the server may finish its requests once told to stop. */
const GRACE_MS = 2000;

/**
 * Runs the server as a child that lives and dies with this process. Next's server, told to stop, waits for every
 * open connection to end, and a page's live tail never ends by itself: after a short grace the server is killed.
 */
export function runServer(args, options) {
  const server = spawn(process.execPath, args, { ...options, stdio: "inherit" });
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, () => {
      server.kill(signal);
      setTimeout(() => server.kill("SIGKILL"), GRACE_MS).unref();
    });
  }
  server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  return server;
}

/**
 * Opens `url` in the desktop's browser; false when there is no desktop. `onFailure` hears of a launcher that
 * would not start.
 * @param {string} url
 * @param {(launcher: string) => void} [onFailure]
 */
export function openBrowser(url, onFailure = () => {}) {
  if (process.platform === "linux" && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) return false;
  const command = process.platform === "darwin" ? ["open", url] : process.platform === "win32" ? ["cmd", "/c", "start", "", url] : ["xdg-open", url];
  const child = spawn(command[0], command.slice(1), { stdio: "ignore", detached: true });
  child.on("error", () => onFailure(command[0]));
  child.unref();
  return true;
}

/** Resolves once `url` answers (any status), so --open never shows a browser error page. */
export async function whenServing(url, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      await fetch(url, { method: "HEAD" });
      return true;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return false;
}
