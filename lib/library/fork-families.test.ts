import { describe, expect, it } from "vitest";
import { Rng } from "@/lib/session/testing/rng";
import { comparablePath, resolveFamilies, sessionIdOfFileName, type FamilyMember } from "./fork-families";

interface Made {
  members: FamilyMember[];
  /** the generator's truth: file → the file it was forked from (whether or not that file is still here) */
  truth: Map<string, string>;
}

const HOME = "/home/dev/.pi/agent/sessions";

/**
 * A library as pi grows one: sessions created one after another, each a new session or (half the time) a fork of
 * an earlier one, in one of three projects. A v4 fork names its source by id; the others by absolute path.
 */
function library(rng: Rng, count: number): Made {
  const members: FamilyMember[] = [];
  const truth = new Map<string, string>();
  for (let i = 0; i < count; i++) {
    const time = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
    const sessionId = `019c${i.toString(16).padStart(4, "0")}-0000-7000-8000-${rng.int(1e12).toString(16).padStart(12, "0")}`;
    const file = `--home-dev-p${rng.int(3)}--/${time.replace(/[:.]/g, "-")}_${sessionId}.jsonl`;
    const member: FamilyMember = { file, absolutePath: `${HOME}/${file}`, sessionId, time, source: null };
    if (members.length && rng.next() < 0.5) {
      const source = members[rng.int(members.length)]!;
      truth.set(file, source.file);
      member.source = rng.next() < 0.15 ? { path: null, sessionId: source.sessionId } : { path: source.absolutePath, sessionId: null };
    }
    members.push(member);
  }
  return { members, truth };
}

/** The generator's truth, seen through the files still present: a fork whose source is gone heads its family. */
function expectedSource(made: Made, present: Set<string>, file: string): string | null {
  const source = made.truth.get(file);
  return source !== undefined && present.has(source) ? source : null;
}

describe("resolveFamilies", () => {
  it("finds every fork's source, forks of forks included, on generated libraries", () => {
    for (let seed = 1; seed <= 60; seed++) {
      const rng = new Rng(seed);
      const made = library(rng, 5 + rng.int(60));
      const families = resolveFamilies(made.members);
      const present = new Set(made.members.map((m) => m.file));
      for (const member of made.members) {
        const expected = expectedSource(made, present, member.file);
        expect(families.sourceOf.get(member.file)?.file ?? null, `seed ${seed} ${member.file}`).toBe(expected);
        if (expected) expect(families.forksOf.get(expected)).toContain(member.file);
        let root = member.file;
        for (let s = made.truth.get(root); s !== undefined; s = made.truth.get(root)) root = s;
        expect(families.rootOf(member.file)).toBe(root);
      }
      expect(families.missingSource.size).toBe(0);
      expect(new Set(families.roots)).toEqual(new Set(made.members.filter((m) => !made.truth.has(m.file)).map((m) => m.file)));
    }
  });

  it("finds sources by the session id in the file name when the library was moved", () => {
    for (let seed = 1; seed <= 30; seed++) {
      const made = library(new Rng(seed), 40);
      // copied to another machine: the files are elsewhere, the headers still name the old paths
      const moved = made.members.map((m) => ({ ...m, absolutePath: m.absolutePath.replace(HOME, "/mnt/archive/alice/sessions") }));
      const families = resolveFamilies(moved);
      for (const member of moved) {
        const source = families.sourceOf.get(member.file);
        expect(source?.file ?? null).toBe(made.truth.get(member.file) ?? null);
        if (source) expect(source.by).toBe(member.source!.path === null ? "session-id" : "file-name");
      }
    }
  });

  it("reports a fork whose source is gone, and makes it the head of what was forked from it", () => {
    for (let seed = 1; seed <= 30; seed++) {
      const rng = new Rng(seed);
      const made = library(rng, 50);
      const kept = made.members.filter(() => rng.next() < 0.7);
      const present = new Set(kept.map((m) => m.file));
      const families = resolveFamilies(kept);
      for (const member of kept) {
        const expected = expectedSource(made, present, member.file);
        expect(families.sourceOf.get(member.file)?.file ?? null).toBe(expected);
        const forked = made.truth.has(member.file);
        expect(families.missingSource.has(member.file)).toBe(forked && expected === null);
        if (forked && expected === null) expect(families.missingSource.get(member.file)).toEqual(member.source);
        let root = member.file;
        for (let s = expectedSource(made, present, root); s !== null; s = expectedSource(made, present, root)) root = s;
        expect(families.rootOf(member.file)).toBe(root);
      }
    }
  });

  it("breaks a loop of links at its oldest file, and never makes a file its own source", () => {
    const at = (i: number) => `--p--/2026-01-0${i}T00-00-00-000Z_s${i}.jsonl`;
    const member = (i: number, source: number): FamilyMember => ({
      file: at(i),
      absolutePath: `/s/${at(i)}`,
      sessionId: `s${i}`,
      time: `2026-01-0${i}T00:00:00.000Z`,
      source: { path: `/s/${at(source)}`, sessionId: null },
    });
    const families = resolveFamilies([member(3, 1), member(1, 2), member(2, 3), member(4, 4)]);
    expect(families.cycles).toEqual(new Set([at(1)]));
    expect(families.sourceOf.has(at(1))).toBe(false);
    expect(families.sourceOf.get(at(2))?.file).toBe(at(3));
    expect(families.sourceOf.get(at(3))?.file).toBe(at(1));
    expect(families.rootOf(at(2))).toBe(at(1));
    expect(families.sourceOf.has(at(4))).toBe(false);
    expect(families.missingSource.get(at(4))).toEqual({ path: `/s/${at(4)}`, sessionId: null });
  });

  it("picks the oldest of several files with the source's session id, and lists forks by newest activity", () => {
    const m = (file: string, time: string, sessionId: string, source: string | null): FamilyMember => ({
      file,
      absolutePath: `/lib/${file}`,
      sessionId,
      time,
      source: source === null ? null : { path: `/gone/x_${source}.jsonl`, sessionId: null },
    });
    const families = resolveFamilies([
      m("b/copy.jsonl", "2026-03-01T00:00:00.000Z", "S", null),
      m("a/orig.jsonl", "2026-01-01T00:00:00.000Z", "S", null),
      m("a/f1.jsonl", "2026-02-01T00:00:00.000Z", "F1", "S"),
      m("a/f2.jsonl", "2026-02-02T00:00:00.000Z", "F2", "S"),
      m("a/f1-1.jsonl", "2026-04-01T00:00:00.000Z", "F11", "F1"),
    ]);
    expect(families.sourceOf.get("a/f1.jsonl")).toEqual({ file: "a/orig.jsonl", by: "file-name" });
    expect(families.forksOf.get("a/orig.jsonl")).toEqual(["a/f1.jsonl", "a/f2.jsonl"]);
    expect(families.roots).toEqual(["a/orig.jsonl", "b/copy.jsonl"]);
  });
});

describe("resolveFamilies on a chain of forks as long as a library", () => {
  it("resolves every link and orders the families without overflowing the call stack", () => {
    const count = 100_000;
    const member = (i: number): FamilyMember => ({
      file: `--p--/${i}.jsonl`,
      absolutePath: `${HOME}/--p--/${i}.jsonl`,
      sessionId: `s${i}`,
      time: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
      source: i === 0 ? null : { path: `${HOME}/--p--/${i - 1}.jsonl`, sessionId: null },
    });
    // beside the chain: a fork of its first file and another family, newer than the chain's first file but older
    // than its last, so that ordering them asks how new each chain is
    const side = { ...member(count), file: "--p--/side.jsonl", time: member(1).time, source: { path: `${HOME}/--p--/0.jsonl`, sessionId: null } };
    const other = { ...member(count), file: "--p--/other.jsonl", time: member(2).time, source: null };
    const families = resolveFamilies([...Array.from({ length: count }, (_, i) => member(i)), side, other]);
    expect(families.roots).toEqual(["--p--/0.jsonl", "--p--/other.jsonl"]);
    expect(families.forksOf.get("--p--/0.jsonl")).toEqual(["--p--/1.jsonl", "--p--/side.jsonl"]);
    expect(families.rootOf(`--p--/${count - 1}.jsonl`)).toBe("--p--/0.jsonl");
  });
});

describe("paths", () => {
  it("compares paths as text with separators, dots and trailing slashes normalised", () => {
    expect(comparablePath("/home/dev//.pi/./agent/sessions/../sessions/x.jsonl")).toBe("/home/dev/.pi/agent/sessions/x.jsonl");
    expect(comparablePath("C:\\Users\\sam\\.pi\\x.jsonl")).toBe("C:/Users/sam/.pi/x.jsonl");
    expect(comparablePath("/a/b/")).toBe("/a/b");
  });

  it("reads the session id from pi's file name", () => {
    expect(sessionIdOfFileName("/h/--p--/2026-01-05T09-00-00-001Z_019b8d62-7a80-7773-b636-ea27c384325e.jsonl")).toBe("019b8d62-7a80-7773-b636-ea27c384325e");
    expect(sessionIdOfFileName("C:\\s\\2026-01-05T09-00-00-001Z_abc.jsonl")).toBe("abc");
    expect(sessionIdOfFileName("/h/notes.jsonl")).toBeNull();
  });
});
