import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LibraryIndexBusyError } from "./library-index/library-index-busy-error";
import { errorResponse, INDEX_BUSY_RETRY_SECONDS, sessionFileResponse } from "./serve-session";

let root: string;
const saved = process.env.PI_SESSIONS_DIR;
const TEXT = '{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}\n';
const SECRET = "TOP-SECRET-CONTENT";

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "serve-session-"));
  mkdirSync(path.join(root, "sessions", "--w--"), { recursive: true });
  writeFileSync(path.join(root, "sessions", "--w--", "s.jsonl"), TEXT);
  writeFileSync(path.join(root, "secret.jsonl"), SECRET);
  symlinkSync(path.join(root, "secret.jsonl"), path.join(root, "sessions", "out.jsonl"));
  process.env.PI_SESSIONS_DIR = path.join(root, "sessions");
});

afterAll(() => {
  process.env.PI_SESSIONS_DIR = saved;
  rmSync(root, { recursive: true, force: true });
});

describe("sessionFileResponse", () => {
  it("streams the file as NDJSON", async () => {
    const response = await sessionFileResponse("--w--/s.jsonl");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/x-ndjson");
    expect(response.headers.get("content-length")).toBe(String(TEXT.length));
    expect(await response.text()).toBe(TEXT);
  });

  it.each([
    ["../secret.jsonl", 400],
    ["%2e%2e/secret.jsonl", 400],
    ["/tmp/secret.jsonl", 400],
    ["out.jsonl", 403],
    ["--w--/missing.jsonl", 404],
    [null, 400],
  ])("refuses %s with %i and a JSON error without content or paths", async (rel, status) => {
    const response = await sessionFileResponse(rel);
    expect(response.status).toBe(status);
    const body = await response.text();
    expect(JSON.parse(body)).toMatchObject({ error: expect.any(String) });
    expect(body).not.toContain(SECRET);
    expect(body).not.toContain(root);
  });

  it("answers an index another process holds with 503 and when to ask again, without its path", async () => {
    const response = errorResponse(new LibraryIndexBusyError(`the search index ${root}/search/1.sqlite is locked by another process`));
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe(String(INDEX_BUSY_RETRY_SECONDS));
    const body = await response.text();
    expect(JSON.parse(body)).toEqual({ error: expect.stringMatching(/try again/), code: "busy" });
    expect(body).not.toContain(root);
  });

  it("hides unexpected errors behind a 500 without details", async () => {
    const response = errorResponse(new Error(`EACCES: ${root}/x.jsonl`));
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain(root);
  });
});
