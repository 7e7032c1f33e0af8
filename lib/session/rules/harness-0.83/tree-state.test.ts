import { describe, expect, it } from "vitest";
import type { SessionEntry } from "../../types";
import { HarnessTreeState } from "./tree-state";

describe("HarnessTreeState", () => {
  const feed = (entries: SessionEntry[]) => {
    const state = new HarnessTreeState();
    entries.forEach((entry, slot) => state.added(entry, slot, slot + 2, typeof entry.id === "string" && entry.id ? entry.id : undefined));
    return state;
  };

  it("moves the cursor to a leaf entry's target, else to the last entry with an id", () => {
    const moved = feed([{ type: "message", id: "a" }, { type: "message", id: "b" }, { type: "leaf", id: "c", targetId: "a" }, { type: "custom" }]);
    expect([moved.leaf, moved.hasLeafEntries]).toEqual(["a", true]);
    expect(
      feed([
        { type: "message", id: "a" },
        { type: "leaf", id: "c", targetId: 7 },
      ]).leaf,
    ).toBeNull();
    const plain = feed([
      { type: "message", id: "a" },
      { type: "leaf", targetId: "a" },
      { type: "message", id: "b" },
    ]);
    expect([plain.leaf, plain.hasLeafEntries]).toEqual(["b", false]);
  });

  it("keeps labels trimmed; one of whitespace alone clears", () => {
    const state = feed([
      { type: "label", id: "l1", targetId: "x", label: " spaced ", timestamp: "t1" },
      { type: "label", id: "l2", targetId: "y", label: "why", timestamp: "t2" },
      { type: "label", id: "l3", targetId: "y", label: "  ", timestamp: "t3" },
    ]);
    expect([...state.labels]).toEqual([["x", { label: "spaced", timestamp: "t1", entryId: "l1", line: 2 }]]);
  });
});
