import { describe, expect, it } from "vitest";
import { IdSlots } from "./id-slots";

describe("IdSlots", () => {
  const ids = ["a", undefined, "b", "a", "c"];

  it("made again from the ids, finds the last slot with each id, in the order ids were first met", () => {
    const index = IdSlots.restoredFrom(ids);
    expect([...index.slots]).toEqual([
      ["a", 3],
      ["b", 2],
      ["c", 4],
    ]);
  });

  it("makes the index in steps, and whatever reads it midway gets all of it", () => {
    const stepped = IdSlots.restoredFrom(ids);
    let steps = 0;
    for (const making = stepped.steps(2); !making.next().done;) steps++;
    expect(steps).toBe(2);
    expect(stepped.slots.get("c")).toBe(4);
    const midway = IdSlots.restoredFrom(ids);
    midway.steps(2).next();
    expect(midway.slots.get("c")).toBe(4);
    expect(midway.slots.get("a")).toBe(3);
  });

  it("a new index holds what is set in it", () => {
    const index = new IdSlots([]);
    index.slots.set("x", 0);
    expect([...index.steps(1)]).toEqual([]);
    expect(index.slots.get("x")).toBe(0);
  });
});
