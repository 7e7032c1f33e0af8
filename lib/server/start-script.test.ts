// `npm start` (scripts/start.mjs) binds loopback unless HOST says otherwise, and warns when it does.
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
// a build folder of its own whose BUILD_ID is newer than every source, so start.mjs does not build;
// `next start` then fails for want of a real build, after start.mjs has said where it binds
const DIST = ".next-start-script-test";

beforeAll(() => {
  mkdirSync(path.join(ROOT, DIST), { recursive: true });
  writeFileSync(path.join(ROOT, DIST, "BUILD_ID"), "test");
  const future = new Date(Date.now() + 3600_000);
  utimesSync(path.join(ROOT, DIST, "BUILD_ID"), future, future);
});
afterAll(() => rmSync(path.join(ROOT, DIST), { recursive: true, force: true }));

function start(env: Record<string, string | undefined>): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const base: NodeJS.ProcessEnv = { ...process.env, NEXT_DIST_DIR: DIST, PORT: "39871", NEXT_TELEMETRY_DISABLED: "1" };
    delete base.HOST;
    const child = spawn(process.execPath, [path.join(ROOT, "scripts", "start.mjs")], { cwd: ROOT, env: { ...base, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("exit", () => resolve({ stdout, stderr }));
  });
}

describe("npm start", () => {
  it("binds 127.0.0.1 by default, without a warning", async () => {
    const { stdout, stderr } = await start({});
    expect(stdout).toContain("http://127.0.0.1:39871/");
    expect(stdout + stderr).not.toContain("WARNING");
  });

  it.each(["127.0.0.1", "localhost", "::1"])("does not warn for the loopback address %s", async (host) => {
    const { stdout, stderr } = await start({ HOST: host });
    expect(stdout + stderr).not.toContain("WARNING");
  });

  it.each(["0.0.0.0", "::", "192.168.1.20"])("warns that HOST=%s exposes the sessions", async (host) => {
    const { stderr } = await start({ HOST: host });
    expect(stderr).toContain(`WARNING: HOST=${host} is not a loopback address`);
    expect(stderr).toContain("exposed on the network");
  });
});
