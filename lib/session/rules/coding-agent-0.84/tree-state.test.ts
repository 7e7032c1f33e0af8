import { describe, expect, it } from "vitest";
import type { SessionEntry } from "../../types";
import { CodingAgentTreeState } from "./tree-state";

describe("CodingAgentTreeState", () => {
  const feed = (entries: SessionEntry[]) => {
    const state = new CodingAgentTreeState();
    entries.forEach((entry, slot) => state.added(entry, slot, slot + 2, typeof entry.id === "string" && entry.id ? entry.id : undefined));
    return state;
  };

  it("follows the last entry line, and knows when it has no id", () => {
    const state = feed([
      { type: "message", id: "a" },
      { type: "leaf", id: "b", targetId: "a" },
    ]);
    expect([state.leaf, state.leafIsIdless]).toEqual(["b", false]);
    const idless = feed([{ type: "message", id: "a" }, { type: "custom" }]);
    expect([idless.leaf, idless.leafIsIdless]).toEqual([null, true]);
    expect(feed([]).leaf).toBeNull();
  });

  it("keeps labels as written, in the order set; an empty one clears", () => {
    const state = feed([
      { type: "label", id: "l1", targetId: "x", label: " spaced ", timestamp: "t1" },
      { type: "label", id: "l2", targetId: "y", label: "why", timestamp: "t2" },
      { type: "label", id: "l3", targetId: "x", label: "", timestamp: "t3" },
      { type: "label", id: "l4", targetId: "x", label: "again", timestamp: "t4" },
      { type: "label", targetId: "y", label: "no id" },
    ]);
    expect([...state.labels]).toEqual([
      ["y", { label: "why", timestamp: "t2", entryId: "l2", line: 3 }],
      ["x", { label: "again", timestamp: "t4", entryId: "l4", line: 5 }],
    ]);
  });

  it("names the session by its last session_info entry with an id, trimmed", () => {
    expect(feed([{ type: "session_info", id: "i", name: "  first " }]).name).toBe("first");
    expect(
      feed([
        { type: "session_info", id: "i", name: "first" },
        { type: "session_info", id: "j", name: "   " },
      ]).name,
    ).toBeNull();
    expect(
      feed([
        { type: "session_info", id: "i", name: "first" },
        { type: "session_info", name: "idless" },
      ]).name,
    ).toBe("first");
    expect(feed([{ type: "session_info", id: "i", name: 3 }]).name).toBeNull();
  });
});
