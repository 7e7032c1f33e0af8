import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Session } from "../session";
import { listFixtures } from "../testing/golden";
import { deepChain } from "../testing/big-sessions";
import { Rng } from "../testing/rng";
import type { RuleSetId } from "../types";

const READERS: RuleSetId[] = ["ca", "hx"];

/** The path's ids as a plain set: what a PathIndex must answer like. */
function sameAsSet(session: Session, id: string, reader: RuleSetId): void {
  let path;
  try {
    path = session.sharedBranch(id, reader).entries();
  } catch {
    return; // pi cannot walk it: nothing to index
  }
  const index = session.pathIndex(id, reader);
  const ids = path.map((e) => e.id);
  expect([...index]).toEqual(ids);
  expect(index.size).toBe(ids.length);
  const first = new Map<string, number>();
  ids.forEach((other, i) => first.has(other) || first.set(other, i));
  for (const other of session.tree.ids()) expect(index.indexOf(other), `${reader} ${id}: ${other}`).toBe(first.get(other) ?? -1);
  expect(index.has("not-an-id")).toBe(false);
}

describe("PathIndex", () => {
  it("answers like a set of the path's ids, for entries all over every fixture, by both readers", () => {
    for (const fixture of listFixtures()) {
      const session = Session.fromText(readFileSync(fixture.file, "utf8"));
      // every entry of the small files, a spread of a big one's (each check looks at every entry)
      const ids = [...session.tree.ids()];
      const step = Math.max(1, Math.floor(ids.length / 60));
      for (const reader of READERS) for (let i = 0; i < ids.length; i += step) sameAsSet(session, ids[i]!, reader);
    }
  });

  it("answers the same in a tree a late parent and a repeated id reshaped (looked up in a table then)", () => {
    const header = JSON.stringify({ type: "session", version: 3, id: "s", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" });
    const entry = (id: string, parentId: string | null) =>
      JSON.stringify({ type: "message", id, parentId, timestamp: "2026-01-01T00:00:01.000Z", message: { role: "user", content: id, timestamp: 1 } });
    const text =
      [header, entry("a", null), entry("c", "b"), entry("d", "c"), entry("b", "a"), entry("e", "d"), entry("c", "b"), entry("f", "c")].join("\n") + "\n";
    const session = Session.fromText(text);
    expect(session.tree.structureRevision).toBeGreaterThan(0);
    for (const reader of READERS) for (const id of session.tree.ids()) sameAsSet(session, id, reader);
  });

  it("answers a path of 20,000 entries by depth", () => {
    const session = Session.fromText(deepChain(20_000));
    const leaf = session.leafId!;
    const index = session.pathIndex(leaf);
    const path = session.branch(leaf);
    expect(index.size).toBe(20_000);
    for (let i = 0; i < path.length; i += 997) expect(index.indexOf(path[i]!.id)).toBe(i);
    const middle = path[10_000]!.id;
    expect(session.pathIndex(middle).indexOf(leaf)).toBe(-1);
    expect(session.pathIndex(middle).indexOf(path[9_999]!.id)).toBe(9_999);
  });

  it("says a run is all cut exactly when each of its entries is, for runs along every path and cuts of every fixture", () => {
    const rng = new Rng(5);
    let allCut = 0;
    let someCut = 0;
    for (const fixture of listFixtures()) {
      const session = Session.fromText(readFileSync(fixture.file, "utf8"));
      const ids = [...session.tree.ids()];
      const step = Math.max(1, Math.floor(ids.length / 20));
      for (let k = 0; k < ids.length; k += step) {
        let cut;
        let chain;
        try {
          cut = session.cutFromContext(ids[k]!);
          chain = session.branch(ids[(k * 7) % ids.length]!, "ca").map((e) => e.id);
        } catch {
          continue;
        }
        for (let n = 0; n < 12 && chain.length; n++) {
          const a = rng.int(chain.length);
          const b = a + rng.int(chain.length - a);
          // a run under a filter skips entries: a subsequence of the chain
          const run = chain.slice(a, b + 1).filter((_, i, all) => i === 0 || i === all.length - 1 || rng.next() < 0.7);
          const expected = run.every((id) => cut.has(id));
          expect(cut.hasRun(run), `${fixture.name} ${ids[k]} ${a}-${b}`).toBe(expected);
          if (expected) allCut++;
          else if (run.some((id) => cut.has(id))) someCut++;
        }
      }
    }
    expect(allCut).toBeGreaterThan(0);
    expect(someCut).toBeGreaterThan(0);
  });
});
