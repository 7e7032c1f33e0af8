import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpStatus, resolveSessionPath, SessionPathError } from "./safe-path";

let root: string;
let dir: string;
const SECRET = '{"type":"session","id":"secret"}\n';

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
  symlinkSync(path.join(root, "outside", "secret.jsonl"), path.join(dir, "link-out.jsonl"));
  symlinkSync(path.join(root, "outside"), path.join(dir, "--linked-out--"));
  symlinkSync(path.join(dir, "top.jsonl"), path.join(dir, "link-in.jsonl"));
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

async function refusal(rel: unknown): Promise<SessionPathError> {
  const error = await resolveSessionPath(dir, rel).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SessionPathError);
  const refused = error as SessionPathError;
  expect(refused.message).not.toContain(root);
  expect(refused.message).not.toContain("secret");
  return refused;
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
  });

  it.each([
    ["../outside/secret.jsonl"],
    ["--home-dev-app--/../../outside/secret.jsonl"],
    ["./top.jsonl"],
    ["--home-dev-app--//a.jsonl"],
  ])("refuses the traversal %s with 400", async (rel) => {
    const error = await refusal(rel);
    expect(error.code).toBe("invalid");
    expect(httpStatus(error)).toBe(400);
  });

  it.each([
    ["absolute path", "/etc/passwd.jsonl"],
    ["absolute path into the dir", path.join(os.tmpdir(), "x", "top.jsonl")],
    ["drive letter", "C:/Users/x.jsonl"],
    ["backslash", "..\\outside\\secret.jsonl"],
    ["backslash inside a name", "--home-dev-app--\\a.jsonl"],
    ["NUL", "top.jsonl\u0000.txt"],
    ["encoded dots", "%2e%2e/outside/secret.jsonl"],
    ["encoded slash", "..%2foutside%2fsecret.jsonl"],
    ["double-encoded", "%252e%252e/outside/secret.jsonl"],
    ["not .jsonl", "notes.txt"],
    ["too deep", "a/b/c.jsonl"],
    ["empty", ""],
    ["not a string", 42],
  ])("refuses %s with 400", async (_what, rel) => {
    const error = await refusal(rel);
    expect(httpStatus(error)).toBe(400);
  });

  it("refuses a symlinked file that points outside with 403", async () => {
    const error = await refusal("link-out.jsonl");
    expect(error.code).toBe("forbidden");
    expect(httpStatus(error)).toBe(403);
  });

  it("refuses a file in a symlinked folder that points outside with 403", async () => {
    const error = await refusal("--linked-out--/secret.jsonl");
    expect(httpStatus(error)).toBe(403);
  });

  it("answers 404 for a missing file, a directory, and a missing sessions dir", async () => {
    expect(httpStatus(await refusal("--home-dev-app--/missing.jsonl"))).toBe(404);
    expect(httpStatus(await refusal("folder.jsonl"))).toBe(404);
    const missingDir = await resolveSessionPath(path.join(root, "nope"), "top.jsonl").catch((e: SessionPathError) => e);
    expect(missingDir).toBeInstanceOf(SessionPathError);
    expect(httpStatus(missingDir as SessionPathError)).toBe(404);
  });
});
