/**
 * Test support: a clock that stands still until moved, installed as the global Date, so fixture writers that
 * drive pi's own code get stable timestamps (pi reads `new Date()` and `Date.now()`).
 */
export interface FixedClock {
  /** moves the clock on by `ms` (the clock's step by default) and returns the new time */
  tick(ms?: number): number;
  /** makes the global Date this clock's */
  install(): void;
  /** gives the global Date back */
  restore(): void;
}

export function fixedClock(start: number, step: number): FixedClock {
  let now = start;
  const RealDate = Date;
  class FixedDate extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(now);
      else super(...(args as [string]));
    }
    static now() {
      return now;
    }
  }
  return {
    tick: (ms = step) => (now += ms),
    install: () => {
      globalThis.Date = FixedDate as DateConstructor;
    },
    restore: () => {
      globalThis.Date = RealDate;
    },
  };
}
