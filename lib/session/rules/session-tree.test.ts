import { describe, expect, it } from "vitest";
import { SessionTree } from "./session-tree";

describe("SessionTree", () => {
  it("answers from the observers the rule sets registered", () => {
    const tree = new SessionTree();
    tree.add({ type: "message", id: "a", parentId: null, timestamp: "2026-01-01T00:00:00Z", message: { role: "user", content: "q" } }, 2);
    tree.add({ type: "label", id: "l", parentId: "a", targetId: "a", label: " mark " }, 3);
    tree.add({ type: "context_edit", id: "e", parentId: "l", targetId: "a" }, 4);
    tree.add({ type: "session_info", id: "i", parentId: "e", name: " named " }, 5);
    tree.add({ type: "leaf", id: "f", parentId: "i", targetId: "a" }, 6);
    expect([tree.leaf("ca"), tree.leaf("hx"), tree.hasLeafEntries, tree.leafIsIdless]).toEqual(["f", "a", true, false]);
    expect(tree.labels("ca").get("a")?.label).toBe(" mark ");
    expect(tree.labels("hx").get("a")?.label).toBe("mark");
    expect(tree.editsOf("a").map((edit) => edit.id)).toEqual(["e"]);
    expect(tree.name).toBe("named");
    expect(tree.evidence.strongest?.what).toBe("context_edit");
    expect(tree.tally.totals()).toMatchObject({ entries: 5, types: { message: 1, label: 1, context_edit: 1, session_info: 1, leaf: 1 } });
    tree.add({ type: "custom", parentId: "f" }, 7);
    expect([tree.leaf("ca"), tree.leafIsIdless, tree.leaf("hx")]).toEqual([null, true, "a"]);
  });
});
