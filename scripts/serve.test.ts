// What the two ways to serve (npm start, pi-session-viewer) make of their PATH and of an archive's URL.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { serveTarget, shownDatabaseUrl } from "./serve.mjs";

const dir = mkdtempSync(path.join(os.tmpdir(), "serve-"));
writeFileSync(path.join(dir, "a.jsonl"), "{}\n");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("serveTarget", () => {
  it("reads a directory as the library, a file as the session to open in its folder's", () => {
    expect(serveTarget(dir, {})).toEqual({ env: { PI_VIEWER_TARGET: dir, PI_SESSIONS_DIR: dir }, openPath: "/" });
    expect(serveTarget(path.join(dir, "a.jsonl"), {}).openPath).toBe("/view?file=a.jsonl");
    expect(() => serveTarget(path.join(dir, "none"), {})).toThrow(/Not a directory or a \.jsonl session file/);
  });

  it("refuses a PATH when PI_VIEWER_DATABASE_URL names the archive to serve", () => {
    const env = { PI_VIEWER_DATABASE_URL: "postgres://viewer:secret@db.example/pi" };
    expect(() => serveTarget(dir, env)).toThrow(/PI_VIEWER_DATABASE_URL is set: the server reads the archive there, not/);
    expect(serveTarget(null, env)).toEqual({ env: {}, openPath: "/" });
  });
});

describe("shownDatabaseUrl", () => {
  it("prints an archive's URL without its password", () => {
    expect(shownDatabaseUrl("postgres://viewer:secret@db.example:5432/pi?sslmode=require")).toBe("postgres://viewer:***@db.example:5432/pi?sslmode=require");
    expect(shownDatabaseUrl("postgres://db.example/pi")).toBe("postgres://db.example/pi");
    expect(shownDatabaseUrl("not a url")).toBe("(not a URL)");
  });
});
