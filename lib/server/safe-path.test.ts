import { execFileSync } from "node:child_process";
import { linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpStatus, openLocalSessionFile, openSessionFile, resolveSessionPath, SessionPathError } from "./safe-path";

let root: string;
let dir: string;
const SECRET = '{"type":"session","id":"secret"}\n';
let refused = 0;

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "safe-path-"));
  dir = path.join(root, "sessions");
  mkdirSync(path.join(dir, "--home-dev-app--"), { recursive: true });
  writeFileSync(path.join(dir, "--home-dev-app--", "a.jsonl"), '{"type":"session","id":"a"}\n');
  writeFileSync(path.join(dir, "top.jsonl"), '{"type":"session","id":"t"}\n');
  writeFileSync(path.join(dir, "notes.txt"), "not a session");
  mkdirSync(path.join(dir, "folder.jsonl"));
  mkdirSync(path.join(root, "outside"));
  writeFileSync(path.join(root, "outside", "secret.jsonl"), SECRET);
  writeFileSync(path.join(root, "outside", "id_rsa"), SECRET);
  // inside → outside: a file link, a folder link, a link chain, a link to a non-.jsonl file
  symlinkSync(path.join(root, "outside", "secret.jsonl"), path.join(dir, "link-out.jsonl"));
  symlinkSync(path.join(root, "outside"), path.join(dir, "--linked-out--"));
  symlinkSync("../outside/secret.jsonl", path.join(dir, "relative-link-out.jsonl"));
  symlinkSync(path.join(dir, "link-out.jsonl"), path.join(dir, "chain-out.jsonl"));
  symlinkSync(path.join(root, "outside", "id_rsa"), path.join(dir, "key.jsonl"));
  symlinkSync(path.join(dir, "notes.txt"), path.join(dir, "notes-in.jsonl"));
  symlinkSync(path.join(dir, "missing.jsonl"), path.join(dir, "dangling.jsonl"));
  symlinkSync("loop-b.jsonl", path.join(dir, "loop-a.jsonl"));
  symlinkSync("loop-a.jsonl", path.join(dir, "loop-b.jsonl"));
  // inside → inside: allowed
  symlinkSync(path.join(dir, "top.jsonl"), path.join(dir, "link-in.jsonl"));
  symlinkSync(path.join(dir, "--home-dev-app--"), path.join(dir, "--alias--"));
  // outside → inside: the sessions directory itself reached through a link is fine
  symlinkSync(dir, path.join(root, "sessions-link"));
  // files that are not regular: a FIFO (would block a reader), devices (never end), a folder
  execFileSync("mkfifo", [path.join(dir, "pipe.jsonl")]);
  symlinkSync("/dev/null", path.join(dir, "null.jsonl"));
  symlinkSync("/dev/zero", path.join(dir, "zero.jsonl"));
  symlinkSync("/dev/urandom", path.join(dir, "--home-dev-app--", "random.jsonl"));
  symlinkSync("/proc/self/environ", path.join(dir, "environ.jsonl"));
  // a hard link to a file outside: its path looks like any session's
  linkSync(path.join(root, "outside", "secret.jsonl"), path.join(dir, "hard.jsonl"));
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  console.log(`safe-path: ${refused} traversal and unsafe-file attempts refused`);
});

async function refusal(rel: unknown, base = dir): Promise<SessionPathError> {
  const error = await resolveSessionPath(base, rel).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, String(rel)).toBeInstanceOf(SessionPathError);
  const refusedError = error as SessionPathError;
  expect(refusedError.message).not.toContain(root);
  expect(refusedError.message).not.toContain("secret");
  refused++;
  return refusedError;
}

describe("resolveSessionPath", () => {
  it("resolves files in a project folder and at the top", async () => {
    const inFolder = await resolveSessionPath(dir, "--home-dev-app--/a.jsonl");
    expect(inFolder.rel).toBe("--home-dev-app--/a.jsonl");
    expect(inFolder.size).toBe(28);
    expect((await resolveSessionPath(dir, "top.jsonl")).rel).toBe("top.jsonl");
  });

  it("follows symlinks that stay inside the directory", async () => {
    const linked = await resolveSessionPath(dir, "link-in.jsonl");
    expect(path.basename(linked.file)).toBe("top.jsonl");
    expect(path.basename((await resolveSessionPath(dir, "--alias--/a.jsonl")).file)).toBe("a.jsonl");
  });

  it("serves a sessions directory that is itself reached through a symlink", async () => {
    const viaLink = await resolveSessionPath(path.join(root, "sessions-link"), "top.jsonl");
    expect(viaLink.rel).toBe("top.jsonl");
  });

  // the query string has been decoded once (URLSearchParams); each value is what reaches the guard
  it.each([
    ["..", "../outside/secret.jsonl"],
    ["nested ..", "--home-dev-app--/../../outside/secret.jsonl"],
    [".. at the end", "--home-dev-app--/.."],
    [".. back in", "--home-dev-app--/../top.jsonl"],
    ["dot segment", "./top.jsonl"],
    ["dot folder", "--home-dev-app--/./a.jsonl"],
    ["empty segment", "--home-dev-app--//a.jsonl"],
    ["trailing slash", "top.jsonl/"],
    ["absolute path", "/etc/passwd.jsonl"],
    ["absolute path into the dir", path.join(os.tmpdir(), "x", "top.jsonl")],
    ["absolute /dev", "/dev/zero.jsonl"],
    ["protocol-relative", "//etc/passwd.jsonl"],
    ["drive letter", "C:/Users/x.jsonl"],
    ["drive letter, lower case", "c:top.jsonl"],
    ["backslash ..", "..\\outside\\secret.jsonl"],
    ["backslash inside a name", "--home-dev-app--\\a.jsonl"],
    ["UNC path", "\\\\server\\share\\x.jsonl"],
    ["mixed slashes", "..\\/outside/secret.jsonl"],
    ["NUL before the extension", "top.jsonl\u0000.txt"],
    ["NUL after ..", "..\u0000/top.jsonl"],
    ["newline", "top\n.jsonl"],
    ["carriage return", "top.jsonl\r"],
    ["tab", "\t../outside/secret.jsonl"],
    ["DEL", "top\u007f.jsonl"],
    ["C1 control", "top\u0085.jsonl"],
    ["zero-width space", "--home-dev-app--/\u200ba.jsonl"],
    ["right-to-left override", "top\u202elnosj.jsonl"],
    ["BOM", "\ufefftop.jsonl"],
    ["encoded dots", "%2e%2e/outside/secret.jsonl"],
    ["encoded dots, upper case", "%2E%2E/outside/secret.jsonl"],
    ["one encoded dot", ".%2e/outside/secret.jsonl"],
    ["encoded slash", "..%2foutside%2fsecret.jsonl"],
    ["encoded slash, upper case", "..%2Foutside%2Fsecret.jsonl"],
    ["encoded backslash", "..%5coutside%5csecret.jsonl"],
    ["encoded NUL", "top.jsonl%00.txt"],
    ["fully encoded", "%2e%2e%2f%2e%2e%2fetc%2fpasswd.jsonl"],
    ["double-encoded dots", "%252e%252e/outside/secret.jsonl"],
    ["double-encoded slash", "..%252foutside%252fsecret.jsonl"],
    ["triple-encoded", "%25252e%25252e/outside/secret.jsonl"],
    ["overlong UTF-8 dot", "%c0%ae%c0%ae/outside/secret.jsonl"],
    ["UTF-16 style", "%u002e%u002e/outside/secret.jsonl"],
    ["encoded extension", "notes%2etxt"],
    ["not .jsonl", "notes.txt"],
    ["no extension", "top"],
    [".jsonl as a folder", "top.jsonl/x"],
    ["extension only in the folder", "--x.jsonl--/notes.txt"],
    ["case of the extension", "top.JSONL"],
    ["too deep", "a/b/c.jsonl"],
    ["too deep with ..", "a/../../outside/secret.jsonl"],
    ["too long", `${"a".repeat(2000)}.jsonl`],
    ["empty", ""],
    ["a number", 42],
    ["null", null],
    ["an array", ["top.jsonl"]],
    ["an object", { toString: () => "top.jsonl" }],
  ])("refuses %s with 400", async (_what, rel) => {
    const error = await refusal(rel);
    expect(error.code).toBe("invalid");
    expect(httpStatus(error)).toBe(400);
  });

  it.each([
    ["a symlinked file pointing outside", "link-out.jsonl"],
    ["a relative symlink pointing outside", "relative-link-out.jsonl"],
    ["a chain of symlinks ending outside", "chain-out.jsonl"],
    ["a symlinked folder pointing outside", "--linked-out--/secret.jsonl"],
    ["a .jsonl symlink to a key file outside", "key.jsonl"],
    ["a .jsonl symlink to a .txt file inside", "notes-in.jsonl"],
    ["a FIFO", "pipe.jsonl"],
    ["a symlink to /dev/null", "null.jsonl"],
    ["a symlink to /dev/zero", "zero.jsonl"],
    ["a symlink to /dev/urandom in a project folder", "--home-dev-app--/random.jsonl"],
    ["a symlink to /proc/self/environ", "environ.jsonl"],
    ["a hard link to a file outside", "hard.jsonl"],
  ])("refuses %s with 403", async (_what, rel) => {
    const error = await refusal(rel);
    expect(error.code).toBe("forbidden");
    expect(httpStatus(error)).toBe(403);
  });

  it.each([
    ["a missing file", "--home-dev-app--/missing.jsonl"],
    ["a directory", "folder.jsonl"],
    ["a dangling symlink", "dangling.jsonl"],
    ["a symlink loop", "loop-a.jsonl"],
  ])("answers 404 for %s", async (_what, rel) => {
    expect(httpStatus(await refusal(rel))).toBe(404);
  });

  it("answers 404 when the sessions directory is missing", async () => {
    expect(httpStatus(await refusal("top.jsonl", path.join(root, "nope")))).toBe(404);
  });
});

describe("openSessionFile", () => {
  it("opens the file that was checked", async () => {
    const handle = await openLocalSessionFile(await resolveSessionPath(dir, "top.jsonl"));
    try {
      expect(await handle.readFile("utf8")).toBe('{"type":"session","id":"t"}\n');
    } finally {
      await handle.close();
    }
  });

  it("refuses a file swapped for a symlink after the check", async () => {
    const swap = path.join(dir, "swap.jsonl");
    writeFileSync(swap, "{}\n");
    const resolved = await resolveSessionPath(dir, "swap.jsonl");
    rmSync(swap);
    symlinkSync(path.join(root, "outside", "secret.jsonl"), swap);
    const error = await openSessionFile(resolved).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionPathError);
    expect(httpStatus(error as SessionPathError)).toBe(403);
    refused++;
  });

  it("refuses a file replaced by another one after the check", async () => {
    const swap = path.join(dir, "replaced.jsonl");
    writeFileSync(swap, "{}\n");
    const resolved = await resolveSessionPath(dir, "replaced.jsonl");
    rmSync(swap);
    execFileSync("mkfifo", [swap]);
    const error = await openSessionFile(resolved).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionPathError);
    refused++;
  });
});
