import { appendFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveSessionPath, SessionPathError } from "./safe-path";
import { parseOffset, sessionTailResponse, tailSession } from "./serve-tail";
import type { TailChunk, TailReset } from "./tail-file";

let root: string;
let file: string;
const saved = process.env.PI_SESSIONS_DIR;
const HEADER = '{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}\n';
const bytes = (s: string) => Buffer.byteLength(s);

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "serve-tail-"));
  mkdirSync(path.join(root, "sessions", "--w--"), { recursive: true });
  writeFileSync(path.join(root, "secret.jsonl"), "SECRET\n");
  symlinkSync(path.join(root, "secret.jsonl"), path.join(root, "sessions", "out.jsonl"));
  process.env.PI_SESSIONS_DIR = path.join(root, "sessions");
});

afterAll(() => {
  process.env.PI_SESSIONS_DIR = saved;
  rmSync(root, { recursive: true, force: true });
});

interface Event {
  event: string;
  id: string | null;
  data: string;
}

/** Reads server-sent events off a response body as they come. */
function events(response: Response) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  return {
    async next(): Promise<Event | null> {
      for (;;) {
        const end = buffer.indexOf("\n\n");
        if (end !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const fields = block.split("\n").filter((l) => !l.startsWith(":") && l.includes(":"));
          if (fields.every((l) => l.startsWith("retry:"))) continue;
          const get = (name: string) =>
            fields
              .find((l) => l.startsWith(`${name}:`))
              ?.slice(name.length + 1)
              .trimStart() ?? null;
          return { event: get("event") ?? "message", id: get("id"), data: get("data") ?? "" };
        }
        const { done, value } = await reader.read();
        if (done) return null;
        buffer += decoder.decode(value, { stream: true });
      }
    },
  };
}

function request(rel: unknown, offset: string | null, lastEventId: string | null = null) {
  const abort = new AbortController();
  return { abort, request: { path: rel, offset, lastEventId, signal: abort.signal } };
}

describe("sessionTailResponse", () => {
  it("streams appended lines as events whose id is the offset to resume from", async () => {
    file = path.join(root, "sessions", "--w--", "a.jsonl");
    writeFileSync(file, HEADER);
    const { abort, request: req } = request("--w--/a.jsonl", String(bytes(HEADER)));
    const response = await sessionTailResponse(req, { pollMs: 20 });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const stream = events(response);
    const line = '{"type":"message","id":"a","parentId":null,"text":"é\\nline"}\n';
    appendFileSync(file, line);
    const first = await stream.next();
    expect(first).toEqual({ event: "append", id: String(bytes(HEADER + line)), data: JSON.stringify({ offset: bytes(HEADER), text: line }) });
    abort.abort();
    expect(await stream.next()).toBeNull(); // the stream ends when the client goes away
  });

  it("resumes from Last-Event-ID rather than the first offset", async () => {
    file = path.join(root, "sessions", "--w--", "b.jsonl");
    const one = '{"n":1}\n';
    const two = '{"n":2}\n';
    writeFileSync(file, HEADER + one + two);
    const { abort, request: req } = request("--w--/b.jsonl", String(bytes(HEADER)), String(bytes(HEADER + one)));
    const stream = events(await sessionTailResponse(req, { pollMs: 20 }));
    expect(await stream.next()).toEqual({
      event: "append",
      id: String(bytes(HEADER + one + two)),
      data: JSON.stringify({ offset: bytes(HEADER + one), text: two }),
    });
    abort.abort();
  });

  it("sends a reset and ends when the file is cut", async () => {
    file = path.join(root, "sessions", "--w--", "c.jsonl");
    writeFileSync(file, HEADER + '{"n":1}\n');
    const { request: req } = request("--w--/c.jsonl", String(bytes(HEADER + '{"n":1}\n')));
    const stream = events(await sessionTailResponse(req, { pollMs: 20 }));
    truncateSync(file, 10);
    expect(await stream.next()).toEqual({ event: "reset", id: null, data: JSON.stringify({ reason: "truncated" }) });
    expect(await stream.next()).toBeNull();
  });

  it("stops with the limit's words when the file grows past PI_VIEWER_MAX_FILE_MB", async () => {
    file = path.join(root, "sessions", "--w--", "big.jsonl");
    writeFileSync(file, HEADER);
    const saved = process.env.PI_VIEWER_MAX_FILE_MB;
    process.env.PI_VIEWER_MAX_FILE_MB = String(2000 / (1024 * 1024));
    try {
      const { request: req } = request("--w--/big.jsonl", String(bytes(HEADER)));
      const stream = events(await sessionTailResponse(req, { pollMs: 20 }));
      const line = `{"n":"${"x".repeat(1000)}"}\n`;
      appendFileSync(file, line);
      expect((await stream.next())?.event).toBe("append");
      appendFileSync(file, line);
      const reset = await stream.next();
      expect(reset?.event).toBe("reset");
      const data = JSON.parse(reset!.data) as { reason: string; error: string };
      expect(data.reason).toBe("too-large");
      expect(data.error).toMatch(/over the limit of 1 MB \(set PI_VIEWER_MAX_FILE_MB to raise it\); it is no longer followed/);
      expect(await stream.next()).toBeNull();
    } finally {
      if (saved === undefined) delete process.env.PI_VIEWER_MAX_FILE_MB;
      else process.env.PI_VIEWER_MAX_FILE_MB = saved;
    }
  });

  it.each([
    ["../secret.jsonl", "0", 400],
    ["out.jsonl", "0", 403],
    ["--w--/missing.jsonl", "0", 404],
    ["--w--/a.jsonl", "-1", 400],
    ["--w--/a.jsonl", "12abc", 400],
    ["--w--/a.jsonl", null, 400],
  ])("refuses path %s at offset %s with %i, like the raw endpoint", async (rel, offset, status) => {
    const response = await sessionTailResponse(request(rel, offset).request);
    expect(response.status).toBe(status);
    const body = await response.text();
    expect(body).not.toContain("SECRET");
    expect(body).not.toContain(root);
  });
});

describe("tailSession", () => {
  /** a session file checked by resolveSessionPath, then replaced at its path by a link to a file outside */
  async function swapped(name: string) {
    file = path.join(root, "sessions", "--w--", name);
    writeFileSync(file, HEADER);
    const resolved = await resolveSessionPath(process.env.PI_SESSIONS_DIR!, `--w--/${name}`);
    const link = `${file}.link`;
    symlinkSync(path.join(root, "secret.jsonl"), link);
    return { resolved, swap: () => renameSync(link, file) };
  }

  it("refuses to start on a link put at the path after the check", async () => {
    const { resolved, swap } = await swapped("swap-start.jsonl");
    swap();
    const sent: TailChunk[] = [];
    await expect(tailSession(resolved, 0, { append: (c) => sent.push(c), reset: () => {} })).rejects.toBeInstanceOf(SessionPathError);
    expect(sent).toEqual([]);
  });

  it("stops, sending nothing of it, when a link is put at the path while it follows the file", async () => {
    const { resolved, swap } = await swapped("swap-later.jsonl");
    const sent: TailChunk[] = [];
    const resets: TailReset[] = [];
    const tail = await tailSession(resolved, bytes(HEADER), { append: (c) => sent.push(c), reset: (r) => resets.push(r) }, { pollMs: 60_000 });
    await tail.check();
    swap();
    await tail.check();
    expect(resets).toEqual(["replaced"]);
    expect(sent.map((c) => c.text).join("")).not.toContain("SECRET");
    tail.close();
  });
});

describe("parseOffset", () => {
  it("reads plain non-negative integers only", () => {
    expect(parseOffset("0")).toBe(0);
    expect(parseOffset("1234")).toBe(1234);
    for (const bad of ["", "1.5", "1e3", "0x10", "-4", null]) expect(() => parseOffset(bad)).toThrow();
  });
});
