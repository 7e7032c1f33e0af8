#!/usr/bin/env node
// A throwaway PostgreSQL server for the archive's tests and bench: `initdb` in a temporary folder, the server on a
// socket in that folder (no port to collide with, nothing reachable from the network), run as an unprivileged
// user (PostgreSQL refuses to run as root), and everything removed on stop. No test touches a server the machine
// already runs. Run as a command it prints the URL and keeps the server until Ctrl-C (for `npm run bench:archive`
// or a look with psql).
// CommonJS, so that every loader takes it: vitest, tsx, and Playwright's, which turns an .mjs into what Node refuses.
const { spawn, spawnSync } = require("node:child_process");
const { chownSync, mkdtempSync, readdirSync, rmSync } = require("node:fs");
const { tmpdir } = require("node:os");
const path = require("node:path");
const { requirementPath } = require("./requirements.cjs");

/** The user to run the server as: ourselves, or when we are root, Debian's `postgres` user, else `nobody`. */
function serverUser() {
  if (typeof process.getuid !== "function" || process.getuid() !== 0) return null;
  for (const name of ["postgres", "nobody"]) {
    const id = spawnSync("id", ["-u", name], { encoding: "utf8" });
    const group = spawnSync("id", ["-g", name], { encoding: "utf8" });
    if (id.status === 0 && group.status === 0) return { name, uid: Number(id.stdout), gid: Number(group.stdout) };
  }
  throw new Error("running as root, and neither a postgres nor a nobody user exists to run PostgreSQL as");
}

/** Gives every file under `dir` (and it) to `user`. */
function chownTree(dir, user) {
  chownSync(dir, user.uid, user.gid);
  for (const name of readdirSync(dir, { recursive: true })) chownSync(path.join(dir, String(name)), user.uid, user.gid);
}

/**
 * Starts a server and returns its URL (database `postgres`, user `postgres`, trust over the private socket) and
 * `stop`, which shuts it down and removes its folder.
 * @param {{ settings?: Record<string, string> }} [options] extra `-c` settings (the bench keeps durability on)
 * @returns {Promise<{ url: string, dir: string, stop: () => Promise<void> }>}
 */
async function startPostgres({ settings = {} } = {}) {
  const initdb = requirementPath("postgresql", 0);
  const postgres = requirementPath("postgresql", 1);
  const dir = mkdtempSync(path.join(tmpdir(), "pi-viewer-pg-"));
  const user = serverUser();
  const as = user ? { uid: user.uid, gid: user.gid } : {};
  try {
    if (user) chownTree(dir, user);
    const data = path.join(dir, "data");
    const made = spawnSync(initdb, ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-locale", "--no-sync", "--no-instructions"], {
      ...as,
      encoding: "utf8",
      cwd: dir,
    });
    if (made.status !== 0) throw new Error(`initdb failed (${initdb}):\n${made.stderr || made.stdout || made.error}`);
    // fsync off: a test server's data is thrown away; what the tests check is transactions, not the disk
    const fast = { fsync: "off", synchronous_commit: "off", full_page_writes: "off" };
    const config = { listen_addresses: "", unix_socket_directories: dir, max_connections: "100", ...fast, ...settings };
    const server = spawn(postgres, ["-D", data, ...Object.entries(config).flatMap(([key, value]) => ["-c", `${key}=${value}`])], {
      ...as,
      cwd: dir,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let log = "";
    const exited = new Promise((resolve) => server.once("exit", resolve));
    await new Promise((resolve, reject) => {
      server.stderr.setEncoding("utf8");
      server.stderr.on("data", (text) => {
        log = (log + text).slice(-8000);
        if (log.includes("database system is ready to accept connections")) resolve(undefined);
      });
      server.once("error", reject);
      server.once("exit", (code) => reject(new Error(`PostgreSQL (${postgres}) exited with ${code} before it was ready:\n${log}`)));
    });
    server.stderr.resume();
    let stopped = null;
    const stop = () =>
      (stopped ??= (async () => {
        if (server.exitCode === null) {
          server.kill("SIGINT"); // fast shutdown: end sessions, no waiting for clients
          await exited;
        }
        rmSync(dir, { recursive: true, force: true });
      })());
    return { url: `postgresql://postgres@${encodeURIComponent(dir)}/postgres`, dir, stop };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** A fresh database on the server at `url`, for one test file: its URL. */
function databaseUrl(url, name) {
  const at = new URL(url);
  at.pathname = `/${name}`;
  return at.toString();
}

module.exports = { startPostgres, databaseUrl };

if (require.main === module) {
  startPostgres().then((server) => {
    console.log(server.url);
    const end = () => void server.stop().then(() => process.exit(0));
    process.once("SIGINT", end);
    process.once("SIGTERM", end);
  });
}
