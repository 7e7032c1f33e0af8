import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync, appendFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { libraryRoot, loadLibrary, sessionRoot } from "./library";
import { describeSessions, findSessionFiles, listSessions } from "./list-sessions";

let root: string;
let dir: string;

const header = (id: string, timestamp: string, cwd: string) => JSON.stringify({ type: "session", version: 3, id, timestamp, cwd });
const user = (id: string, parentId: string | null, text: string) =>
  JSON.stringify({ type: "message", id, parentId, timestamp: "2026-01-01T00:00:00.000Z", message: { role: "user", content: text } });
const info = (id: string, parentId: string | null, name: string) =>
  JSON.stringify({ type: "session_info", id, parentId, timestamp: "2026-01-01T00:00:00.000Z", name });

function write(rel: string, lines: string[]): void {
  const file = path.join(dir, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, lines.join("\n") + "\n");
}

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "list-sessions-"));
  dir = path.join(root, "sessions");
  write("--home-dev-app--/old.jsonl", [
    header("old", "2026-01-01T10:00:00.000Z", "/home/dev/app"),
    user("a", null, "fix   the\nbuild"),
    user("b", "a", "x"),
    user("c", "a", "y"),
  ]);
  write("--home-dev-app--/new.jsonl", [header("new", "2026-03-01T10:00:00.000Z", "/home/dev/app"), user("a", null, "hello"), info("i", "a", "Named session")]);
  write("--home-dev-api--/mid.jsonl", [header("mid", "2026-02-01T10:00:00.000Z", "/home/dev/api"), user("a", null, "api work")]);
  write("top.jsonl", [header("top", "2025-12-01T10:00:00.000Z", "/tmp/x")]);
  write("headerless.jsonl", [user("a", null, "no header here")]);
  // no header timestamp: sorted by the file's own time
  utimesSync(path.join(dir, "headerless.jsonl"), new Date("2025-06-01"), new Date("2025-06-01"));
  write("--home-dev-app--/notes.txt", ["not a session"]);
  write("--home-dev-app--/deeper/hidden.jsonl", [header("deep", "2026-04-01T10:00:00.000Z", "/x")]);
  write("not-a-project/skipped.jsonl", [header("skip", "2026-04-01T10:00:00.000Z", "/x")]);
  mkdirSync(path.join(root, "outside"));
  writeFileSync(path.join(root, "outside", "secret.jsonl"), header("secret", "2026-05-01T10:00:00.000Z", "/secret") + "\n");
  symlinkSync(path.join(root, "outside", "secret.jsonl"), path.join(dir, "link-out.jsonl"));
  symlinkSync(path.join(root, "outside"), path.join(dir, "--linked-out--"));
  mkdirSync(path.join(root, "empty"));
  mkdirSync(path.join(root, "samples", "--s--"), { recursive: true });
  writeFileSync(path.join(root, "samples", "--s--", "sample.jsonl"), header("sample", "2026-01-01T00:00:00.000Z", "/s") + "\n");
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("listSessions", () => {
  it("lists project folders one level deep and top-level files, newest first", async () => {
    const list = await listSessions(dir);
    expect(list.map((s) => s.path)).toEqual([
      "--home-dev-app--/new.jsonl",
      "--home-dev-api--/mid.jsonl",
      "--home-dev-app--/old.jsonl",
      "top.jsonl",
      "headerless.jsonl",
    ]);
  });

  it("leaves out symlinks that point outside the directory", async () => {
    const paths = (await listSessions(dir)).map((s) => s.path);
    expect(paths.some((p) => p.includes("link-out") || p.includes("linked-out"))).toBe(false);
  });

  it("describes each session from its header and entries", async () => {
    const byPath = new Map((await listSessions(dir)).map((s) => [s.path, s]));
    expect(byPath.get("--home-dev-app--/old.jsonl")).toMatchObject({
      project: "--home-dev-app--",
      id: "old",
      cwd: "/home/dev/app",
      timestamp: "2026-01-01T10:00:00.000Z",
      name: "fix the build",
      named: false,
      entryCount: 3,
      branchCount: 1,
      hasHeader: true,
    });
    expect(byPath.get("--home-dev-app--/new.jsonl")).toMatchObject({ name: "Named session", named: true, entryCount: 2, branchCount: 0 });
    expect(byPath.get("top.jsonl")).toMatchObject({ project: "", name: null, entryCount: 0 });
    expect(byPath.get("headerless.jsonl")).toMatchObject({ hasHeader: false, cwd: null, entryCount: 1 });
  });

  it("sees a file change (size or mtime) and reads it again", async () => {
    const file = path.join(dir, "--home-dev-api--", "mid.jsonl");
    const before = (await listSessions(dir)).find((s) => s.id === "mid")!;
    appendFileSync(file, info("n", "a", "Renamed") + "\n");
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    const after = (await listSessions(dir)).find((s) => s.id === "mid")!;
    expect(before.name).toBe("api work");
    expect(after).toMatchObject({ name: "Renamed", entryCount: 2 });
  });

  it("leaves out a file swapped for a FIFO or an outside link after its check, without waiting on it", async () => {
    const swapDir = path.join(root, "swap");
    for (const name of ["fifo", "link", "kept"]) {
      mkdirSync(path.join(swapDir, "--p--"), { recursive: true });
      writeFileSync(path.join(swapDir, "--p--", `${name}.jsonl`), header(name, "2026-01-01T10:00:00.000Z", "/p") + "\n");
    }
    const checked = await findSessionFiles(swapDir);
    expect(checked.map((f) => f.rel).sort()).toEqual(["--p--/fifo.jsonl", "--p--/kept.jsonl", "--p--/link.jsonl"]);
    // a FIFO opened for reading without O_NONBLOCK would wait for a writer forever
    const fifo = path.join(swapDir, "fifo.tmp");
    execFileSync("mkfifo", [fifo]);
    renameSync(fifo, path.join(swapDir, "--p--", "fifo.jsonl"));
    const link = path.join(swapDir, "link.tmp");
    symlinkSync(path.join(root, "outside", "secret.jsonl"), link);
    renameSync(link, path.join(swapDir, "--p--", "link.jsonl"));
    const listed = await describeSessions(checked, swapDir);
    expect(listed.map((s) => s.id)).toEqual(["kept"]);
  });

  it("returns nothing for a missing directory", async () => {
    expect(await listSessions(path.join(root, "missing"))).toEqual([]);
  });
});

describe("loadLibrary", () => {
  it("uses the configured directory when it holds sessions", async () => {
    const library = await loadLibrary(dir, path.join(root, "samples"));
    expect(library.source).toBe("directory");
    expect(library.sessions.length).toBe(5);
  });

  it("falls back to the samples when the directory is empty or missing", async () => {
    for (const configured of [path.join(root, "empty"), path.join(root, "missing")]) {
      const library = await loadLibrary(configured, path.join(root, "samples"));
      expect(library.source).toBe("samples");
      expect(library.dir).toBe(path.join(root, "samples"));
      expect(library.sessions.map((s) => s.path)).toEqual(["--s--/sample.jsonl"]);
    }
  });

  it("decides the same way without reading any file (libraryRoot, used by the raw endpoint)", async () => {
    expect(await libraryRoot(dir, path.join(root, "samples"))).toMatchObject({ source: "directory", dir });
    const fallback = await libraryRoot(path.join(root, "empty"), path.join(root, "samples"));
    expect(fallback).toMatchObject({ source: "samples", dir: path.join(root, "samples") });
    expect(fallback.files.map((f) => f.rel)).toEqual(["--s--/sample.jsonl"]);
  });

  it("is told where files are served from without listing them all (sessionRoot), as libraryRoot says", async () => {
    // a folder whose only candidates are refused (a link out, a folder linked out): none is a session file
    const refused = path.join(root, "refused");
    mkdirSync(refused);
    symlinkSync(path.join(root, "outside", "secret.jsonl"), path.join(refused, "link-out.jsonl"));
    symlinkSync(path.join(root, "outside"), path.join(refused, "--linked-out--"));
    for (const configured of [dir, refused, path.join(root, "empty"), path.join(root, "missing")]) {
      const { source, dir: listedDir, configuredDir } = await libraryRoot(configured, path.join(root, "samples"));
      const found = await sessionRoot(configured, path.join(root, "samples"));
      expect({ source: found.source, dir: found.dir, configuredDir: found.configuredDir }, configured).toEqual({ source, dir: listedDir, configuredDir });
    }
    expect((await sessionRoot(refused, path.join(root, "samples"))).source).toBe("samples");
  });
});
