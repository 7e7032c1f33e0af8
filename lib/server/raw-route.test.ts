// The raw route handler, called directly with requests as the browser sends them (the query still encoded).
import { execFileSync } from "node:child_process";
import { linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/api/sessions/raw/route";

let root: string;
const saved = { dir: process.env.PI_SESSIONS_DIR, max: process.env.PI_VIEWER_MAX_FILE_MB };
const TEXT = '{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}\n';
const SECRET = "TOP-SECRET-CONTENT";
let refused = 0;

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "raw-route-"));
  const dir = path.join(root, "sessions");
  mkdirSync(path.join(dir, "--w--"), { recursive: true });
  writeFileSync(path.join(dir, "--w--", "s.jsonl"), TEXT);
  writeFileSync(path.join(root, "secret.jsonl"), SECRET);
  symlinkSync(path.join(root, "secret.jsonl"), path.join(dir, "out.jsonl"));
  symlinkSync(root, path.join(dir, "--up--"));
  symlinkSync("/dev/zero", path.join(dir, "zero.jsonl"));
  execFileSync("mkfifo", [path.join(dir, "fifo.jsonl")]);
  linkSync(path.join(root, "secret.jsonl"), path.join(dir, "hard.jsonl"));
  writeFileSync(path.join(dir, "big.jsonl"), TEXT.repeat(30_000)); // ~2.6 MB
  process.env.PI_SESSIONS_DIR = dir;
});

afterAll(() => {
  process.env.PI_SESSIONS_DIR = saved.dir;
  process.env.PI_VIEWER_MAX_FILE_MB = saved.max;
  rmSync(root, { recursive: true, force: true });
  console.log(`raw route: ${refused} requests refused`);
});

function get(query: string): Promise<Response> {
  return GET(new NextRequest(`http://127.0.0.1/api/sessions/raw?${query}`));
}

describe("GET /api/sessions/raw", () => {
  it("streams a session file", async () => {
    const response = await get("path=--w--%2Fs.jsonl");
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(TEXT);
  });

  it.each([
    ["path=..%2Fsecret.jsonl", 400],
    ["path=../secret.jsonl", 400],
    ["path=%2e%2e%2fsecret.jsonl", 400],
    ["path=%252e%252e%252fsecret.jsonl", 400],
    ["path=%25252e%25252e/secret.jsonl", 400],
    ["path=..%5Csecret.jsonl", 400],
    ["path=%2Ftmp%2Fsecret.jsonl", 400],
    ["path=%2F%2Fsecret.jsonl", 400],
    ["path=s.jsonl%00.txt", 400],
    ["path=--w--%2F..%2F..%2Fsecret.jsonl", 400],
    ["path=--w--%2F%2e%2e%2F..%2Fsecret.jsonl", 400],
    ["path=", 400],
    ["", 400],
    ["path=notes.txt", 400],
    ["path=out.jsonl", 403],
    ["path=--up--%2Fsecret.jsonl", 403],
    ["path=zero.jsonl", 403],
    ["path=fifo.jsonl", 403],
    ["path=hard.jsonl", 403],
    ["path=--w--%2Fmissing.jsonl", 404],
  ])("%s → %i, a JSON error without content or paths", async (query, status) => {
    const response = await get(query);
    expect(response.status).toBe(status);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const body = await response.text();
    expect(JSON.parse(body)).toMatchObject({ error: expect.any(String) });
    expect(body).not.toContain(SECRET);
    expect(body).not.toContain(root);
    refused++;
  });

  it("refuses a file over PI_VIEWER_MAX_FILE_MB with 413 and says how to raise the limit", async () => {
    process.env.PI_VIEWER_MAX_FILE_MB = "1";
    try {
      const response = await get("path=big.jsonl");
      expect(response.status).toBe(413);
      const { error } = (await response.json()) as { error: string };
      expect(error).toContain("over the limit of 1 MB");
      expect(error).toContain("PI_VIEWER_MAX_FILE_MB");
      refused++;
      process.env.PI_VIEWER_MAX_FILE_MB = "3";
      expect((await get("path=big.jsonl")).status).toBe(200);
    } finally {
      process.env.PI_VIEWER_MAX_FILE_MB = saved.max;
    }
  });
});

function getRange(query: string, range: string): Promise<Response> {
  return GET(new NextRequest(`http://127.0.0.1/api/sessions/raw?${query}`, { headers: { range } }));
}

describe("GET /api/sessions/raw with a Range header: one range of bytes (RFC 9110), where a big session's content is", () => {
  const size = Buffer.byteLength(TEXT);

  it.each([
    ["bytes=0-9", 0, 9],
    ["bytes=10-", 10, size - 1],
    ["bytes=-5", size - 5, size - 1],
    ["bytes=5-100000", 5, size - 1],
    [`bytes=${size - 1}-${size - 1}`, size - 1, size - 1],
  ])("%s: 206 with those bytes", async (range, start, end) => {
    const response = await getRange("path=--w--%2Fs.jsonl", range);
    expect(response.status).toBe(206);
    expect(response.headers.get("content-range")).toBe(`bytes ${start}-${end}/${size}`);
    expect(response.headers.get("content-length")).toBe(String(end - start + 1));
    expect(await response.text()).toBe(TEXT.slice(start, end + 1));
  });

  it.each([`bytes=${size}-`, "bytes=-0"])("%s: 416 naming the file's size", async (range) => {
    const response = await getRange("path=--w--%2Fs.jsonl", range);
    expect(response.status).toBe(416);
    expect(response.headers.get("content-range")).toBe(`bytes */${size}`);
    expect(((await response.json()) as { code: string }).code).toBe("range");
  });

  it.each(["bytes=0-1,5-6", "items=0-1", "bytes=9-2", "bytes=-"])("%s: the whole file (a header this does not serve as a range)", async (range) => {
    const response = await getRange("path=--w--%2Fs.jsonl", range);
    expect(response.status).toBe(200);
    expect(response.headers.get("accept-ranges")).toBe("bytes");
    expect(await response.text()).toBe(TEXT);
  });

  it("checks the path as without a range", async () => {
    for (const query of ["path=..%2Fsecret.jsonl", "path=out.jsonl", "path=hard.jsonl"]) {
      const response = await getRange(query, "bytes=0-5");
      expect(response.status, query).toBeGreaterThanOrEqual(400);
      expect(await response.text(), query).not.toContain(SECRET.slice(0, 6));
    }
  });

  it("serves a range of a file over PI_VIEWER_MAX_FILE_MB, but no range over it", async () => {
    process.env.PI_VIEWER_MAX_FILE_MB = "1";
    try {
      expect((await get("path=big.jsonl")).status).toBe(413);
      const part = await getRange("path=big.jsonl", `bytes=${size}-${2 * size - 1}`);
      expect(part.status).toBe(206);
      expect(await part.text()).toBe(TEXT);
      expect((await getRange("path=big.jsonl", "bytes=0-")).status).toBe(413);
    } finally {
      process.env.PI_VIEWER_MAX_FILE_MB = saved.max;
    }
  });
});
