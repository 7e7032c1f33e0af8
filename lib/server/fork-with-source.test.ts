// GET /api/sessions/with-source on pi's own fork family: the fork and its source as one session, made from the
// bytes read of each; a file that changes after the library looked at it (rewritten in place, appended to) gives
// an answer that holds together: its lines are lines of the files as read, and every entry of the fork is in it.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync, appendFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import { open } from "node:fs/promises";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { GET } from "@/app/api/sessions/with-source/route";
import { entryFingerprint } from "@/lib/library/inherited-entries";
import { forkWithSource, forkWithSourceResponse } from "./fork-with-source";
import { forkWithSourceLines, libraryFamilies } from "./library-families";
import { findSessionFiles } from "./list-sessions";

/** Runs once the library has looked at the files (listed them, read their headers): a write landing right then. */
let afterLook: (() => void) | null = null;

vi.mock("./library-families", async (original) => {
  const real = await original<typeof import("./library-families")>();
  return {
    ...real,
    libraryFamilies: async (...args: Parameters<typeof real.libraryFamilies>) => {
      const looked = await real.libraryFamilies(...args);
      afterLook?.();
      afterLook = null;
      return looked;
    },
  };
});

// the fork family pi 1.6.0 wrote (lib/session/testing/write-fork-fixtures.ts)
const E2E = path.resolve(__dirname, "../../e2e/fixtures/sessions");
const PROJECT = "--home-dev-projects-forks--";

let dir: string;
let source: string;
let fork: string;
const saved = process.env.PI_SESSIONS_DIR;
const originals = new Map<string, string>();

const file = (rel: string) => path.join(dir, ...rel.split("/"));
const text = (rel: string) => readFileSync(file(rel), "utf8");
const lines = (t: string) => t.split("\n").filter(Boolean);
const get = (rel: string) => GET(new NextRequest(`http://127.0.0.1/api/sessions/with-source?path=${encodeURIComponent(rel)}`));

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "with-source-"));
  cpSync(path.join(E2E, PROJECT), path.join(dir, PROJECT), { recursive: true });
  process.env.PI_SESSIONS_DIR = dir;
  const all = (await findSessionFiles(dir)).map((f) => f.rel).sort();
  const header = (rel: string) => JSON.parse(lines(text(rel))[0]!) as { parentSession?: string };
  source = all.find((rel) => !header(rel).parentSession)!;
  fork = all.find((rel) => header(rel).parentSession?.endsWith(path.basename(source)))!;
  for (const rel of all) originals.set(rel, text(rel));
});

beforeEach(() => {
  for (const [rel, original] of originals) writeFileSync(file(rel), original);
});

afterAll(() => {
  process.env.PI_SESSIONS_DIR = saved;
  rmSync(dir, { recursive: true, force: true });
});

/** `id hash` of an entry line, or null. */
function fingerprintOf(line: string): string | null {
  const found = entryFingerprint(JSON.parse(line));
  return found && `${found.id} ${found.hash}`;
}

/** Every line of `answer` is a line of the source or of the fork as they were read, and every entry of the fork is in it. */
function holdsTogether(answer: string, sourceText: string, forkText: string): void {
  const known = new Set([...lines(sourceText), ...lines(forkText)]);
  for (const line of lines(answer)) expect(known.has(line), line.slice(0, 80)).toBe(true);
  const held = new Set(lines(answer).map(fingerprintOf));
  for (const line of lines(forkText).slice(1)) {
    const entry = fingerprintOf(line);
    if (entry) expect(held.has(entry), entry).toBe(true);
  }
}

describe("GET /api/sessions/with-source", () => {
  it("gives every line of the source, then the fork's own entries, as the library's digests say for files that hold still", async () => {
    const response = await get(fork);
    expect(response.status).toBe(200);
    const answer = await response.text();
    const merged = (await forkWithSourceLines(await libraryFamilies(dir, await findSessionFiles(dir)), fork))!;
    const chunks: Buffer[] = [];
    for await (const chunk of merged.chunks()) chunks.push(Buffer.from(chunk));
    expect(answer).toBe(Buffer.concat(chunks).toString("utf8"));
    expect(answer.startsWith(text(source))).toBe(true);
    expect(lines(answer).length).toBeGreaterThan(lines(text(source)).length);
    holdsTogether(answer, text(source), text(fork));
  });

  it("judges the fork's lines by the source's bytes it sends, when the source was rewritten after the library looked", async () => {
    const before = await (await get(fork)).text();
    // an entry the fork copied says something else now (the same length: the size the library saw still holds)
    const rewritten = text(source).replace("a Lua script", "a LUA script");
    expect(rewritten).not.toBe(text(source));
    afterLook = () => writeFileSync(file(source), rewritten);
    const answer = await (await get(fork)).text();
    holdsTogether(answer, rewritten, text(fork));
    expect(answer).not.toBe(before);
    expect(answer).toBe(await (await get(fork)).text());
  });

  it("sends the fork's own lines as they are in the file read, when the fork was rewritten after the library looked", async () => {
    // asked before: the library knows where the fork's lines were (its digests, kept by size and mtime)
    await (await get(fork)).text();
    // every line of the fork a byte further on: lines read where the library saw them would be cut
    const moved = text(fork).replace('{"type":"session",', '{"type": "session",');
    afterLook = () => writeFileSync(file(fork), moved);
    const answer = await (await get(fork)).text();
    holdsTogether(answer, text(source), moved);
    expect(answer).toBe(await (await get(fork)).text());
  });

  it("reads each file up to the size it had when opened, whatever happens to it before it is read", async () => {
    const before = await (await get(fork)).text();
    const opened = async (rel: string) => {
      const handle = await open(file(rel), "r");
      return { handle, size: (await handle.stat()).size };
    };
    const read = async (from: Awaited<ReturnType<typeof opened>>, into: Awaited<ReturnType<typeof opened>>) => {
      const chunks: Buffer[] = [];
      for await (const chunk of forkWithSource(from, into, Infinity)) chunks.push(Buffer.from(chunk));
      return Buffer.concat(chunks).toString("utf8");
    };
    // appended to: the answer is the one before
    let [from, into] = [await opened(source), await opened(fork)];
    appendFileSync(
      file(source),
      `${JSON.stringify({ type: "label", id: "zz000001", parentId: null, timestamp: "2026-03-01T00:00:00.000Z", targetId: "x", label: "late" })}\n`,
    );
    expect(await read(from, into)).toBe(before);
    // rewritten in place, the source's copy of an entry changed and the fork's lines moved: lines of the files as
    // read, every entry of the fork in the answer
    writeFileSync(file(source), originals.get(source)!);
    [from, into] = [await opened(source), await opened(fork)];
    const rewritten = text(source).replace("a Lua script", "a LUA script");
    const moved = text(fork).replace('{"type":"session",', '{"type": "session",');
    writeFileSync(file(source), rewritten);
    writeFileSync(file(fork), moved);
    const answer = await read(from, into);
    holdsTogether(answer, rewritten, moved);
    expect(answer.startsWith(rewritten)).toBe(true);
  });

  it("refuses a source over the limit (413), ends the answer with an error rather than pass it, and says 404 for a file that is no fork", async () => {
    const size = Buffer.byteLength(text(source));
    const refused = await forkWithSourceResponse(fork, size - 1);
    expect(refused.status).toBe(413);
    expect((await refused.json()).error).toMatch(/PI_VIEWER_MAX_FILE_MB/);
    const cut = await forkWithSourceResponse(fork, size + 10);
    expect(cut.status).toBe(200);
    await expect(cut.text()).rejects.toThrow();
    expect((await get(source)).status).toBe(404);
  });
});
