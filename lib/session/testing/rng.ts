// The randomness of every test and bench: one seeded generator (mulberry32: small, fast, the same everywhere), so
// a seed replays the same session, file or library on every machine. Methods are bound: `rng.next` may be passed on.

const HEX = "0123456789abcdef";

export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** uniform in [0, 1) */
  readonly next = (): number => {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };

  /** integer in [0, n) */
  readonly int = (n: number): number => Math.floor(this.next() * n);

  /** integer in [lo, hi] */
  readonly range = (lo: number, hi: number): number => lo + Math.floor(this.next() * (hi - lo + 1));

  readonly chance = (p: number): boolean => this.next() < p;

  readonly pick = <T>(items: readonly T[]): T => items[Math.floor(this.next() * items.length)]!;

  /** one of `choices`, chosen with probability proportional to its weight */
  readonly weighted = <T>(choices: readonly (readonly [number, T])[]): T => {
    const total = choices.reduce((sum, [w]) => sum + w, 0);
    let r = this.next() * total;
    for (const [w, value] of choices) {
      if ((r -= w) < 0) return value;
    }
    return choices[choices.length - 1]![1];
  };

  /** log-normal with the given median, clipped to [min, max] */
  readonly logNormal = (median: number, sigma: number, min: number, max: number): number => {
    const u = 1 - this.next();
    const v = this.next();
    const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    return Math.max(min, Math.min(max, Math.round(median * Math.exp(sigma * z))));
  };

  /** geometric-ish count with the given mean, at least 1 */
  readonly count = (mean: number, max: number): number => Math.min(max, 1 + Math.floor(-Math.log(1 - this.next()) * (mean - 1)));

  /** `n` hexadecimal digits */
  readonly hex = (n: number): string => {
    let s = "";
    for (let i = 0; i < n; i++) s += HEX[Math.floor(this.next() * 16)];
    return s;
  };
}
