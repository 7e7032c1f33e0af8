import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { isNonEmptyString } from "../json";
import { SessionParser } from "../read/parse";
import { Session } from "../session";
import { listFixtures } from "../testing/golden";
import type { TreeIndex } from "./tree";
import type { LeafStep } from "./leaf-steps";

/** The cursor after each entry line, read from the entry objects one by one (what the columns must say). */
function stepsFromEntries(tree: TreeIndex): LeafStep[] {
  const out: LeafStep[] = [];
  let leaf: string | null = null;
  for (let slot = 0; slot < tree.entryCount; slot++) {
    const entry = tree.entryAt(slot);
    const line = tree.lineAt(slot);
    const id = isNonEmptyString(entry.id) ? entry.id : null;
    let step: LeafStep;
    if (id === null) step = { line, entryId: null, leafId: leaf, previousLeafId: leaf, kind: "append" };
    else if (entry.type === "leaf")
      step = { line, entryId: id, leafId: typeof entry.targetId === "string" ? entry.targetId : null, previousLeafId: leaf, kind: "leaf-entry" };
    else {
      const named = typeof entry.parentId === "string" ? entry.parentId : null;
      step = { line, entryId: id, leafId: id, previousLeafId: leaf, kind: named === leaf ? "append" : "branch" };
    }
    out.push(step);
    leaf = step.leafId;
  }
  return out;
}

const line = (value: object) => `${JSON.stringify(value)}\n`;

describe("LeafSteps", () => {
  it("says for every line of every fixture what the entries say, read whole and as the file grows", () => {
    let steps = 0;
    for (const fixture of listFixtures()) {
      const text = readFileSync(fixture.file, "utf8");
      const tree = Session.fromText(text).tree;
      const expected = stepsFromEntries(tree);
      expect([...tree.leafHistory], fixture.name).toEqual(expected);
      steps += expected.length;
      // read while the file grows: the history taken in after each piece, then extended
      const parser = new SessionParser();
      const piece = Math.max(1, Math.floor(text.length / 7));
      for (let at = 0; at < text.length; at += piece) {
        parser.push(text.slice(at, at + piece));
        void parser.tree.leafHistory.length;
      }
      expect([...parser.end().tree.leafHistory], `${fixture.name} growing`).toEqual(expected);
    }
    expect(steps).toBeGreaterThan(1000);
  });

  it("carries the leaf over id-less lines and leaf entries that name nothing", () => {
    const text = [
      line({ type: "session", version: 3, id: "s", timestamp: "t", cwd: "/" }),
      line({ type: "message", id: "a", parentId: null, timestamp: "t", message: { role: "user", content: "x" } }),
      line({ type: "message", parentId: "a", timestamp: "t", message: { role: "user", content: "no id" } }),
      line({ type: "leaf", id: "l1", parentId: "a", timestamp: "t", targetId: 5 }),
      line({ type: "message", id: "b", parentId: null, timestamp: "t", message: { role: "user", content: "y" } }),
      line({ type: "leaf", id: "l2", parentId: "b", timestamp: "t", targetId: "gone" }),
      line({ type: "message", id: "c", parentId: "gone", timestamp: "t", message: { role: "user", content: "z" } }),
      line({ type: "message", id: "a", parentId: "c", timestamp: "t", message: { role: "user", content: "again" } }),
    ].join("");
    const tree = Session.fromText(text).tree;
    expect([...tree.leafHistory].map((s) => [s.kind, s.entryId, s.previousLeafId, s.leafId])).toEqual([
      ["append", "a", null, "a"],
      ["append", null, "a", "a"],
      ["leaf-entry", "l1", "a", null],
      ["append", "b", null, "b"],
      ["leaf-entry", "l2", "b", "gone"],
      ["append", "c", "gone", "c"],
      ["append", "a", "c", "a"],
    ]);
    expect([...tree.leafHistory]).toEqual(stepsFromEntries(tree));
    expect([tree.leafHistory.at(-1), tree.leafHistory.at(7)]).toEqual([undefined, undefined]);
  });
});
