import { describe, expect, it } from "vitest";
import { Rng } from "./testing/rng";
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

describe("addUsage and addUsageInto", () => {
  it("make the same sums, to the last bit, over random usage", () => {
    const rng = new Rng(43);
    const random = (): Usage => ({
      input: rng.int(100_000),
      output: rng.int(10_000),
      cacheRead: rng.int(1_000_000),
      cacheWrite: rng.int(50_000),
      totalTokens: rng.int(2_000_000),
      cost: rng.next() / 7,
    });
    let pure = ZERO_USAGE;
    const inPlace = { ...ZERO_USAGE };
    for (let i = 0; i < 1000; i++) {
      const usage = random();
      pure = addUsage(pure, usage);
      addUsageInto(inPlace, usage);
    }
    expect(inPlace).toEqual(pure);
    expect(pure.cost).toBeGreaterThan(0);
  });
});
