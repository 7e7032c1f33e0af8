import { describe, expect, it } from "vitest";
import { byCount, formatDuration } from "./stats-format";

describe("formatDuration", () => {
  it("picks the unit by size", () => {
    expect(formatDuration(null)).toBe("—");
    expect(formatDuration(1234)).toBe("1.2s");
    expect(formatDuration(42_000)).toBe("42s");
    expect(formatDuration(187_000)).toBe("3m 07s");
    expect(formatDuration(2 * 3600_000 + 5 * 60_000)).toBe("2h 05m");
    expect(formatDuration(50 * 3600_000)).toBe("2d 2h");
  });
});

describe("byCount", () => {
  it("sorts largest first, then by name", () => {
    expect(byCount({ b: 1, a: 1, c: 3 })).toEqual([
      ["c", 3],
      ["a", 1],
      ["b", 1],
    ]);
  });
});
