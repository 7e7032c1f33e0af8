import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Session } from "@/lib/session";
import { listFixtures } from "@/lib/session/testing/golden";
import { entryFingerprint, inheritance, type EntryFingerprint } from "./inherited-entries";

const fingerprints = (text: string): EntryFingerprint[] =>
  text
    .split("\n")
    .flatMap((line) => {
      try {
        return [entryFingerprint(JSON.parse(line))];
      } catch {
        return [];
      }
    })
    .filter((f): f is EntryFingerprint => f !== null);

interface ForkRecord {
  entries?: (string | { modified: unknown })[];
  error?: string;
  nonTerminating?: boolean;
}

describe("inheritance", () => {
  // pi's goldens list, for a fork at every entry, the entries createBranchedSession copied unchanged (by name) and
  // those it changed; what a fork inherited is exactly the unchanged ones, and it left its source at the last
  const cases = listFixtures().flatMap((fixture) => {
    const golden = JSON.parse(readFileSync(fixture.goldenFile, "utf8"));
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(readFileSync(fixture.file));
    const header = (() => {
      try {
        return JSON.parse(text.slice(0, text.indexOf("\n")));
      } catch {
        return null;
      }
    })();
    // a v1 or v2 file has its ids made up by pi's migration, not written in the file
    if (!golden.codingAgent?.load?.ok || header?.version !== 3 || !golden.codingAgent.forks) return [];
    return [{ name: fixture.name, text, forks: golden.codingAgent.forks as Record<string, ForkRecord> }];
  });

  it("is what pi's createBranchedSession copied unchanged, for a fork at every entry of every fixture", () => {
    let compared = 0;
    for (const { name, text, forks } of cases) {
      const session = Session.fromText(text);
      const source = fingerprints(text);
      for (const [id, record] of Object.entries(forks)) {
        if (record.error || record.nonTerminating || !record.entries) continue;
        const fork = session.fork(id, { sourcePath: "/s/source.jsonl" }, "ca");
        const got = inheritance(source, fingerprints(fork.text));
        const unchanged = record.entries.filter((e): e is string => typeof e === "string");
        expect(got.inherited, `${name} at ${id}`).toEqual(new Set(unchanged));
        expect(got.fromEntryId, `${name} at ${id}`).toBe(unchanged.at(-1) ?? null);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(300);
  });

  it("counts nothing inherited from an unrelated file, and an id whose content changed as the fork's own", () => {
    const a = fingerprints('{"type":"session","id":"A"}\n{"type":"message","id":"x","parentId":null,"message":{"role":"user","content":"hi"}}\n');
    const b = fingerprints('{"type":"session","id":"B"}\n{"type":"message","id":"x","parentId":null,"message":{"role":"user","content":"hello"}}\n');
    expect(inheritance(a, b)).toEqual({ inherited: new Set(), fromEntryId: null });
    const moved = fingerprints('{"type":"message","id":"x","parentId":"elsewhere","message":{"role":"user","content":"hi"}}\n');
    expect(inheritance(a, moved)).toEqual({ inherited: new Set(["x"]), fromEntryId: "x" });
  });

  it("reads a v4 log's entries without their place in the log, and skips its records", () => {
    const line = (seq: number, lane: string) => ({ kind: "entry", lane, seq, id: "e1", parentId: null, type: "message", message: { role: "user" } });
    expect(entryFingerprint(line(3, "main"))).toEqual(entryFingerprint(line(9, "side")));
    expect(entryFingerprint({ kind: "record", id: "r1" })).toBeNull();
    expect(entryFingerprint({ type: "session", id: "S" })).toBeNull();
  });
});
