import { describe, expect, it } from "vitest";
import { addUsage, addUsageInto, ZERO_USAGE, type Usage, type UsageCounts } from "./usage";

const usage = (n: number): Usage => ({ input: n, output: 2 * n, cacheRead: 3 * n, cacheWrite: 4 * n, totalTokens: 10 * n, cost: n / 10 });

describe("addUsageInto", () => {
  it("adds every count in place, total tokens too when the sum keeps them", () => {
    const sum = usage(1);
    addUsageInto(sum, usage(2));
    expect(sum).toEqual({ input: 3, output: 6, cacheRead: 9, cacheWrite: 12, totalTokens: 30, cost: 0.1 + 0.2 });
  });

  it("leaves a sum without total tokens without them", () => {
    const sum: UsageCounts = { input: 1, output: 1, cacheRead: 1, cacheWrite: 1, cost: 1 };
    addUsageInto(sum, { input: 1, output: 2, cacheRead: 3, cacheWrite: 4, cost: 5 });
    expect(sum).toEqual({ input: 2, output: 3, cacheRead: 4, cacheWrite: 5, cost: 6 });
  });
});

describe("addUsage", () => {
  it("returns a new sum and leaves its operands as they were", () => {
    const a = usage(1);
    const sum = addUsage(a, usage(2));
    expect(sum).toEqual({ input: 3, output: 6, cacheRead: 9, cacheWrite: 12, totalTokens: 30, cost: 0.1 + 0.2 });
    expect(a).toEqual(usage(1));
    expect(addUsage(ZERO_USAGE, usage(1))).toEqual(usage(1));
    expect(addUsage(a, null)).toBe(a);
  });
});
