import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findSessionFiles, listSessions } from "./list-sessions";
import { forkInfo, libraryFamilies } from "./library-families";

// the fork family pi 1.6.0 wrote (lib/session/testing/write-fork-fixtures.ts), copied with nothing else
const E2E = path.resolve(__dirname, "../../e2e/fixtures/sessions");
const PROJECT = "--home-dev-projects-forks--";
const ELSEWHERE = "--home-dev-projects-forks-next--";

let dir: string;
const files = () => findSessionFiles(dir);

interface Line {
  type: string;
  id?: string;
  parentSession?: string;
  message?: { role: string; content: { type: string; text?: string }[] };
}
const lines = (rel: string): Line[] =>
  readFileSync(path.join(dir, rel), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line);
const textOf = (line: Line) => line.message?.content.map((c) => c.text ?? "").join("") ?? "";
/** the entry of `rel` whose message starts with `start` (the script's words) */
const entryStarting = (rel: string, start: string) => lines(rel).find((l) => textOf(l).startsWith(start))!.id!;

let source: string, forkA: string, forkB: string, moved: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "families-"));
  cpSync(path.join(E2E, PROJECT), path.join(dir, PROJECT), { recursive: true });
  cpSync(path.join(E2E, ELSEWHERE), path.join(dir, ELSEWHERE), { recursive: true });
  const all = (await files()).map((f) => f.rel).sort();
  const header = (rel: string) => lines(rel)[0]!;
  source = all.find((rel) => !header(rel).parentSession)!;
  moved = all.find((rel) => rel.startsWith(ELSEWHERE))!;
  forkA = all.find((rel) => header(rel).parentSession?.endsWith(path.basename(source)) && rel !== moved)!;
  forkB = all.find((rel) => header(rel).parentSession?.endsWith(path.basename(forkA)))!;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("library families (pi's own forks)", () => {
  it("finds each fork's source by the session id in the path its header names (the library was moved)", async () => {
    const library = await libraryFamilies(dir, await files());
    expect(library.families.sourceOf.get(forkA)).toEqual({ file: source, by: "file-name" });
    expect(library.families.sourceOf.get(forkB)).toEqual({ file: forkA, by: "file-name" });
    expect(library.families.sourceOf.get(moved)).toEqual({ file: source, by: "file-name" });
    expect(library.families.rootOf(forkB)).toBe(source);
  });

  it("says where each fork left its source, and which of its entries are the source's", async () => {
    const library = await libraryFamilies(dir, await files());
    const a = (await forkInfo(library, forkA))!;
    // the script forked at the plan (createBranchedSession), the fork of the fork at the in-memory answer
    const plan = entryStarting(source, "Plan: a Lua script");
    expect(a.source?.fromEntryId).toBe(plan);
    expect(a.source?.fromEntry).toMatch(/^“Plan: a Lua script/);
    const b = (await forkInfo(library, forkB))!;
    expect(b.source?.fromEntryId).toBe(entryStarting(forkA, "An in-memory bucket"));
    // forkFrom copies every line: it left its source at the source's last entry
    const m = (await forkInfo(library, moved))!;
    expect(m.source?.fromEntryId).toBe(lines(source).at(-1)!.id);
    expect(m.inherited).toEqual(new Set(lines(source).flatMap((l) => (l.type === "session" ? [] : [l.id!]))));
    // the fork's own work is not inherited: what it wrote after the fork point
    const own = lines(forkA).filter((l) => l.type === "message" && textOf(l).startsWith("Try it without Redis"));
    expect(own).toHaveLength(1);
    expect(a.inherited.has(own[0]!.id!)).toBe(false);
    expect(a.inherited.has(plan)).toBe(true);
    expect(a.forks).toEqual([forkB]);
  });

  it("lists forks with their source's name and sources with their forks", async () => {
    const listed = new Map((await listSessions(dir)).map((s) => [s.path, s]));
    expect(listed.get(forkA)!.forkOf).toEqual({ path: source, name: listed.get(source)!.name });
    expect(listed.get(source)!.forks).toEqual([moved, forkA]);
    expect(listed.get(source)!.forkOf).toBeUndefined();
  });

  it("names a source the library does not hold", async () => {
    const lone = mkdtempSync(path.join(os.tmpdir(), "families-lone-"));
    try {
      cpSync(path.join(dir, forkA), path.join(lone, path.basename(forkA)));
      const [only] = await listSessions(lone);
      expect(only!.forkOf).toBeUndefined();
      expect(only!.forkOfMissing).toBe(lines(forkA)[0]!.parentSession);
      writeFileSync(
        path.join(lone, "v4.jsonl"),
        JSON.stringify({ kind: "header", version: 4, id: "V", createdAt: 1, cwd: "/x", parentSessionId: "gone" }) + "\n",
      );
      const v4 = (await listSessions(lone)).find((s) => s.path === "v4.jsonl")!;
      expect(v4.forkOfMissing).toBe("gone");
    } finally {
      rmSync(lone, { recursive: true, force: true });
    }
  });
});
