import { describe, expect, it } from "vitest";
import type { TreeIndex } from "../../tree/tree";
import type { SessionEntry, TreeEntry } from "../../types";
import { ContextEditTargets } from "./context-edit-targets";

describe("ContextEditTargets", () => {
  it("finds every context_edit entry naming an id, id-less ones too, in file order", () => {
    const entries: SessionEntry[] = [
      { type: "message", id: "a" },
      { type: "context_edit", id: "e1", targetId: "a" },
      { type: "context_edit", targetId: "a" },
      { type: "context_edit", id: "e3", targetId: "b" },
      { type: "label", id: "l", targetId: "a" },
    ];
    const edits = new ContextEditTargets();
    entries.forEach((entry, slot) => edits.added(entry, slot));
    const tree = { entryAt: (slot: number) => entries[slot] as TreeEntry } as TreeIndex;
    expect(edits.editsOf(tree, "a")).toEqual([entries[1], entries[2]]);
    expect(edits.editsOf(tree, "b")).toEqual([entries[3]]);
    expect(edits.editsOf(tree, "l")).toEqual([]);
  });
});
