import { describe, expect, it } from "vitest";
import { drawCards, union } from "./minimap-paths";

const card = (key: string, x: number, y: number) => ({ key, x, y, width: 200, height: 50 });
const kinds: Record<string, string> = { a: "user", b: "assistant", c: "user" };

describe("minimap paths", () => {
  it("draw one path per fill, every card a closed rectangle, and box them all", () => {
    const nodes = [card("a", 0, 0), card("b", 0, 100), card("c", -300, 200)];
    const { paths, bounds } = drawCards(nodes, (key) => kinds[key]!);
    expect(paths).toEqual([
      ["user", "M0,0h200v50h-200zM-300,200h200v50h-200z"],
      ["assistant", "M0,100h200v50h-200z"],
    ]);
    expect(bounds).toEqual({ x: -300, y: 0, width: 500, height: 250 });
  });

  it("have no box for no cards, and take the viewport into the box", () => {
    expect(drawCards([], () => "x")).toEqual({ paths: [], bounds: null });
    expect(union(null, { x: 1, y: 2, width: 3, height: 4 })).toEqual({ x: 1, y: 2, width: 3, height: 4 });
    expect(union({ x: 0, y: 0, width: 10, height: 10 }, { x: 5, y: -5, width: 10, height: 10 })).toEqual({ x: 0, y: -5, width: 15, height: 15 });
  });
});
