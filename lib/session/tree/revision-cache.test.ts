import { describe, expect, it } from "vitest";
import { RevisionCache } from "./revision-cache";

describe("RevisionCache", () => {
  it("answers again from memory until the revision changes", () => {
    const memo = new RevisionCache<number[]>(2);
    let made = 0;
    const make = () => [++made];
    expect(memo.get(1, "a", make)).toEqual([1]);
    expect(memo.get(1, "a", make)).toEqual([1]);
    expect(memo.get(2, "a", make)).toEqual([2]);
  });

  it("forgets the least recently used answer beyond its capacity", () => {
    const memo = new RevisionCache<string>(2);
    const made: string[] = [];
    const make = (key: string) => () => (made.push(key), key);
    memo.get(1, "a", make("a"));
    memo.get(1, "b", make("b"));
    memo.get(1, "a", make("a")); // a is now the latest used: b goes first
    memo.get(1, "c", make("c"));
    memo.get(1, "a", make("a"));
    memo.get(1, "b", make("b"));
    expect(made).toEqual(["a", "b", "c", "b"]);
  });

  it("does not keep an answer that threw", () => {
    const memo = new RevisionCache<string>(2);
    let calls = 0;
    const failing = () => {
      calls++;
      throw new Error("cycle");
    };
    expect(() => memo.get(1, "a", failing)).toThrow("cycle");
    expect(() => memo.get(1, "a", failing)).toThrow("cycle");
    expect(calls).toBe(2);
  });
});
