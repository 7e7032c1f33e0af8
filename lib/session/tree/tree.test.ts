import { describe, expect, it } from "vitest";
import type { SessionEntry } from "../types";
import { TreeIndex } from "./tree";
import type { TreeObserver } from "./tree-observer";

class Seen implements TreeObserver {
  readonly calls: [string | undefined, number, number, string | undefined][] = [];
  added(entry: SessionEntry, slot: number, line: number, id: string | undefined): void {
    this.calls.push([entry.type as string, slot, line, id]);
  }
}

class ObservedTree extends TreeIndex {
  readonly first = this.observe(new Seen());
  readonly second = this.observe(new Seen());
  register(observer: TreeObserver): void {
    this.observe(observer);
  }
}

describe("TreeIndex observers", () => {
  it("tells each observer of every entry line in file order, with its id when it has one", () => {
    const tree = new ObservedTree();
    tree.add({ type: "message", id: "a", parentId: null }, 2);
    tree.add({ type: "custom", parentId: "a" }, 3);
    tree.add({ type: "label", id: "", parentId: "a" }, 5);
    tree.add({ type: "message", id: "a", parentId: null }, 6);
    const expected = [
      ["message", 0, 2, "a"],
      ["custom", 1, 3, undefined],
      ["label", 2, 5, undefined],
      ["message", 3, 6, "a"],
    ];
    expect(tree.first.calls).toEqual(expected);
    expect(tree.second.calls).toEqual(expected);
  });

  it("takes no observer once entries were added: it would miss them", () => {
    const tree = new ObservedTree();
    tree.add({ type: "message", id: "a", parentId: null }, 1);
    expect(() => tree.register(new Seen())).toThrow(/added already/);
  });
});
