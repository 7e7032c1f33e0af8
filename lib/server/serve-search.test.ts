import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findSessionFiles } from "./list-sessions";
import type { SearchStatus } from "@/lib/library/search-api";
import { libraryIndexStatus, searchLibrary } from "./library-search";
import { searchFacetsResponse, searchResponse, searchStatusResponse } from "./serve-search";

const saved = { dir: process.env.PI_SESSIONS_DIR, cache: process.env.PI_VIEWER_CACHE_DIR };
let root: string;
let dir: string;

const header = (id: string) => JSON.stringify({ type: "session", version: 3, id, timestamp: "2026-03-01T10:00:00.000Z", cwd: "/w" });
const message = (id: string, parentId: string | null, role: string, text: string, extra: object = {}) =>
  JSON.stringify({ type: "message", id, parentId, timestamp: "2026-03-01T10:00:01.000Z", message: { role, content: [{ type: "text", text }], ...extra } });

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "serve-search-"));
  dir = path.join(root, "sessions");
  mkdirSync(path.join(dir, "--w--"), { recursive: true });
  for (let i = 0; i < 3; i++) {
    const lines = [header(`s${i}`), message(`u${i}`, null, "user", `walrus number ${i}`)];
    lines.push(message(`a${i}`, `u${i}`, "assistant", `the walrus answer ${i}`, { provider: "p", model: "m1", usage: {} }));
    if (i === 1) lines.push("{not json");
    writeFileSync(path.join(dir, "--w--", `2026-03-01T10-00-0${i}-000Z_s${i}.jsonl`), lines.join("\n") + "\n");
  }
  process.env.PI_SESSIONS_DIR = dir;
  process.env.PI_VIEWER_CACHE_DIR = path.join(root, "cache");
});

afterAll(() => {
  for (const [key, value] of [
    ["PI_SESSIONS_DIR", saved.dir],
    ["PI_VIEWER_CACHE_DIR", saved.cache],
  ] as const)
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  rmSync(root, { recursive: true, force: true });
});

describe("the search routes", () => {
  it("give the hits as JSON and how many there are in all beside them", async () => {
    const response = await searchResponse(new URLSearchParams("q=walrus&limit=2"));
    expect(response.status).toBe(200);
    const hits = (await response.json()) as { entryId: string }[];
    expect(hits).toHaveLength(2);
    expect(response.headers.get("x-search-total")).toBe("6");
  });

  it("report the lines the last update could not read, by file and line, and no update under way", async () => {
    await searchResponse(new URLSearchParams("q=walrus"));
    const status = (await (await searchStatusResponse()).json()) as { progress: unknown; unreadable: { file: string; line: number }[] };
    expect(status.progress).toBeNull();
    expect(status.unreadable).toEqual([expect.objectContaining({ file: "--w--/2026-03-01T10-00-01-000Z_s1.jsonl", line: 4 })]);
  });

  it("offer the roles and models the entries hold as filters", async () => {
    expect(await (await searchFacetsResponse()).json()).toEqual({ models: ["p/m1"], tools: [], roles: ["assistant", "user"] });
  });

  it("tell a page how far an update has come while it runs, asked while it runs", async () => {
    const seen: Promise<SearchStatus>[] = [];
    const files = await findSessionFiles(dir);
    const cacheRoot = path.join(root, "cache-2");
    expect(await libraryIndexStatus(dir, { cacheRoot })).toEqual({ progress: null, unreadable: null });
    await searchLibrary(dir, files, "walrus", {}, { cacheRoot, onProgress: () => seen.push(libraryIndexStatus(dir, { cacheRoot })) });
    expect((await Promise.all(seen)).map((status) => status.progress)).toEqual([
      { done: 0, total: 3, file: files[0]!.rel },
      { done: 1, total: 3, file: files[1]!.rel },
      { done: 2, total: 3, file: files[2]!.rel },
      { done: 3, total: 3, file: "" },
    ]);
    expect(await libraryIndexStatus(dir, { cacheRoot })).toEqual({ progress: null, unreadable: [expect.objectContaining({ line: 4 })] });
  });
});
