// The generators' randomness: sfc32, small, fast and the same everywhere, so a seed makes the same session or
// library on every machine.

const HEX = "0123456789abcdef";

export class Rng {
  private a = 0x9e3779b9;
  private b = 0x243f6a88;
  private c = 0xb7e15162;
  private d: number;

  constructor(seed: number) {
    this.d = seed >>> 0;
    for (let i = 0; i < 15; i++) this.next();
  }

  /** uniform in [0, 1) */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** log-normal with the given median, clipped to [min, max] */
  logNormal(median: number, sigma: number, min: number, max: number): number {
    const u = 1 - this.next();
    const v = this.next();
    const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    return Math.max(min, Math.min(max, Math.round(median * Math.exp(sigma * z))));
  }

  /** geometric-ish count with the given mean, at least 1 */
  count(mean: number, max: number): number {
    return Math.min(max, 1 + Math.floor(-Math.log(1 - this.next()) * (mean - 1)));
  }

  hex(n: number): string {
    let s = "";
    for (let i = 0; i < n; i++) s += HEX[Math.floor(this.next() * 16)];
    return s;
  }
}
