import { grown } from "../tree/columns";
import type { LineAccount, LineKind } from "../types";

const KINDS: readonly LineKind[] = ["header", "entry", "blank", "unreadable", "extra-header"];

/**
 * The LineKind of each physical line of a file, a byte each, with how many of each there are. A big session
 * has a line per entry: as an array of strings they were half a million values to keep, to write into a
 * snapshot, to make again when it is restored, and to count each time the top bar asked for the entry count.
 */
export class LineKinds {
  private codes = new Uint8Array(1 << 10);
  private count = 0;
  private readonly tally = new Int32Array(KINDS.length);

  get length(): number {
    return this.count;
  }

  push(kind: LineKind): void {
    const code = KINDS.indexOf(kind);
    this.codes = grown(this.codes, this.count + 1);
    this.codes[this.count++] = code;
    this.tally[code]!++;
  }

  /** Forgets the last line's kind (a reopened end: SessionParser.reopen). */
  pop(): LineKind | undefined {
    if (this.count === 0) return undefined;
    const code = this.codes[--this.count]!;
    this.tally[code]!--;
    return KINDS[code];
  }

  /** The kind of line `i + 1`. */
  at(i: number): LineKind | undefined {
    return i >= 0 && i < this.count ? KINDS[this.codes[i]!] : undefined;
  }

  forEach(visit: (kind: LineKind, i: number) => void): void {
    for (let i = 0; i < this.count; i++) visit(KINDS[this.codes[i]!]!, i);
  }

  /** Every line's kind, in order. */
  list(): LineKind[] {
    return Array.from(this.codes.subarray(0, this.count), (code) => KINDS[code]!);
  }

  /** How many lines there are of each kind. */
  account(): LineAccount {
    const out: LineAccount = { total: this.count, header: 0, entry: 0, blank: 0, unreadable: 0, "extra-header": 0 };
    KINDS.forEach((kind, code) => (out[kind] = this.tally[code]!));
    return out;
  }
}
