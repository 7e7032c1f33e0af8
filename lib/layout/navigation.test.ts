import { describe, expect, it } from "vitest";
import { buildDisplayTree } from "./display-tree";
import { branchSegmentStart, firstChildKey, isFoldable, newestLeafBelow, parentKey, rootKey, siblingKey } from "./navigation";
import { buildSession, chainSpecs, type EntrySpec } from "./testing/builders";
import { fixtureSession } from "./testing/fixtures";

/** r → a → b, b branches into c (older) and d (newer, written first in the file) */
function branched() {
  const specs: EntrySpec[] = [
    { id: "r", parentId: null, at: 0 },
    { id: "a", parentId: "r", role: "assistant", at: 1 },
    { id: "b", parentId: "a", at: 2 },
    { id: "d", parentId: "b", role: "assistant", at: 9 },
    { id: "d1", parentId: "d", at: 10 },
    { id: "c", parentId: "b", role: "assistant", at: 3 },
    { id: "c1", parentId: "c", at: 4 },
    { id: "c2", parentId: "c1", role: "assistant", at: 5 },
  ];
  return buildSession(specs);
}

describe("newestLeafBelow", () => {
  it("follows the last child in pi's timestamp order", () => {
    const session = branched();
    const children = session.tree.children("b");
    const newest = children[children.length - 1]!;
    expect(newestLeafBelow(session.tree, "b")).toBe(newestLeafBelow(session.tree, newest));
    expect(session.tree.children(newestLeafBelow(session.tree, "r"))).toEqual([]);
  });

  it("agrees with a walk of pi's tree on every entry of a random session", () => {
    const session = fixtureSession("ca-medium-a");
    for (const id of session.tree.ids()) {
      let current = id;
      for (let c = session.tree.children(current); c.length; c = session.tree.children(current)) current = c[c.length - 1]!;
      expect(newestLeafBelow(session.tree, id)).toBe(current);
    }
  });

  it("stops on a parent cycle", () => {
    const session = fixtureSession("edge-cycle");
    for (const root of session.shape().cycleRoots) expect(typeof newestLeafBelow(session.tree, root)).toBe("string");
  });

  it("handles a 20,000-entry chain", () => {
    const session = buildSession(chainSpecs(20_000));
    expect(newestLeafBelow(session.tree, "e0")).toBe("e19999");
  });
});

describe("display navigation", () => {
  const session = branched();
  const display = buildDisplayTree(session);
  const onPath = (key: string) => ["r", "a", "b", "d", "d1"].includes(key);

  it("moves to the parent and to the child toward the active leaf first", () => {
    expect(parentKey(display, "b")).toBe("a");
    expect(parentKey(display, "r")).toBeNull();
    expect(firstChildKey(display, "b", onPath)).toBe("d");
    expect(firstChildKey(display, "b", () => false)).toBe(session.tree.children("b")[0]);
  });

  it("moves between siblings in pi's order", () => {
    const [first, second] = session.tree.children("b");
    expect(siblingKey(display, first!, 1)).toBe(second);
    expect(siblingKey(display, second!, -1)).toBe(first);
    expect(siblingKey(display, second!, 1)).toBeNull();
  });

  it("jumps between branch segments like pi's /tree", () => {
    expect(branchSegmentStart(display, "r", "down", onPath)).toBe("d");
    expect(branchSegmentStart(display, "d", "down", onPath)).toBe("d1");
    expect(branchSegmentStart(display, "c2", "up", onPath)).toBe("c");
    expect(branchSegmentStart(display, "c", "up", onPath)).toBe("r");
    expect(rootKey(display, "c2")).toBe("r");
  });

  it("folds only roots and segment starts, as pi does", () => {
    expect(isFoldable(display, "r")).toBe(true);
    expect(isFoldable(display, "c")).toBe(true);
    expect(isFoldable(display, "a")).toBe(false);
    expect(isFoldable(display, "c2")).toBe(false);
  });
});
