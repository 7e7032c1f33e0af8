import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, nestsDeeperThan } from "./json-depth";

const nested = (depth: number, leaf: unknown = 1): unknown => {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = i % 2 ? { a: value } : [value];
  return value;
};

describe("nestsDeeperThan", () => {
  it("counts objects and arrays as levels, a scalar as none", () => {
    expect(nestsDeeperThan("text", 0)).toBe(false);
    expect(nestsDeeperThan([], 0)).toBe(true);
    expect(nestsDeeperThan([], 1)).toBe(false);
    expect(nestsDeeperThan({ a: [1, { b: null }] }, 3)).toBe(false);
    expect(nestsDeeperThan({ a: [1, { b: {} }] }, 3)).toBe(true);
  });

  it("finds the deep branch among wide shallow ones", () => {
    const wide = { items: Array.from({ length: 10_000 }, (_, i) => ({ i })), deep: nested(MAX_JSON_DEPTH) };
    expect(nestsDeeperThan(wide)).toBe(true);
    expect(nestsDeeperThan({ items: wide.items, deep: nested(MAX_JSON_DEPTH - 2) })).toBe(false);
  });

  it("measures a value JSON.stringify cannot write (300,000 levels) without overflowing the stack", () => {
    const value = JSON.parse("[".repeat(300_000) + "]".repeat(300_000)) as unknown;
    expect(() => JSON.stringify(value)).toThrow(RangeError);
    expect(nestsDeeperThan(value)).toBe(true);
  });
});
