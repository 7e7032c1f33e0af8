import { CUT_FIELDS, LineForm, type LightChunk } from "./light-lines";

/**
 * Where each changed line of a file is (lines whose light text differs:
 * light-lines.ts): its number, byte offset, length and whether its strings were
 * cut, in typed arrays. Lines arrive in file order, so a line is found by binary
 * search. What reads a line again by byte range (from a file, a Blob or an HTTP
 * server) keeps this instead of the line's bytes.
 */
export class LineOffsets {
  private lines = new Int32Array(1 << 12);
  private offsets = new Float64Array(1 << 12);
  private lengths = new Int32Array(1 << 12);
  private cut = new Uint8Array(1 << 12);
  private count = 0;
  private cutLines = 0;

  add(chunk: Pick<LightChunk, "cut" | "offsets">): void {
    const { cut, offsets } = chunk;
    for (let i = 0, k = 0; i < cut.length; i += CUT_FIELDS, k++) {
      if (this.count === this.lines.length) this.grow();
      const n = this.count++;
      this.lines[n] = cut[i]!;
      this.offsets[n] = offsets[k]!;
      this.lengths[n] = cut[i + 3]! - cut[i + 2]!;
      const isCut = cut[i + 4] === LineForm.Cut;
      this.cut[n] = isCut ? 1 : 0;
      if (isCut) this.cutLines++;
    }
  }

  /** Lets go of the room kept for lines to come (an index kept in a snapshot is written as long as its arrays). */
  trim(): void {
    this.lines = this.lines.slice(0, this.count);
    this.offsets = this.offsets.slice(0, this.count);
    this.lengths = this.lengths.slice(0, this.count);
    this.cut = this.cut.slice(0, this.count);
  }

  private grow(): void {
    const size = Math.max(this.lines.length * 2, 1 << 12);
    const lines = new Int32Array(size);
    lines.set(this.lines);
    this.lines = lines;
    const offsets = new Float64Array(size);
    offsets.set(this.offsets);
    this.offsets = offsets;
    const lengths = new Int32Array(size);
    lengths.set(this.lengths);
    this.lengths = lengths;
    const cut = new Uint8Array(size);
    cut.set(this.cut);
    this.cut = cut;
  }

  /** the slot of `line`, or -1 */
  find(line: number): number {
    let lo = 0;
    let hi = this.count - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = this.lines[mid]!;
      if (at === line) return mid;
      if (at < line) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  has(line: number): boolean {
    return this.find(line) !== -1;
  }

  isCut(line: number): boolean {
    const slot = this.find(line);
    return slot !== -1 && this.cut[slot] === 1;
  }

  /** the line number in `slot` */
  line(slot: number): number {
    return this.lines[slot]!;
  }

  /** where the line in `slot` starts in the file */
  offset(slot: number): number {
    return this.offsets[slot]!;
  }

  /** the bytes of the line in `slot`, its newline excluded */
  length(slot: number): number {
    return this.lengths[slot]!;
  }

  /** changed lines */
  get size(): number {
    return this.count;
  }

  /** changed lines with cut strings */
  get cutCount(): number {
    return this.cutLines;
  }
}

/** What a LineTexts that reads its changed lines again by offset answers from the offsets alone. */
export abstract class OffsetLineTexts {
  protected index = new LineOffsets();
  /** the index was taken whole from a snapshot (adoptIndex): the lines that come add nothing to it */
  protected adopted = false;

  /** where the changed lines are, as added so far */
  get offsetIndex(): LineOffsets {
    return this.index;
  }

  /**
   * Takes where every changed line is from an index kept before (a session's snapshot), instead of being told as
   * the lines come: lines are then read by range before they have come.
   */
  adoptIndex(index: LineOffsets): void {
    this.index = index;
    this.adopted = true;
  }

  byteLength(line: number): number | null {
    const slot = this.index.find(line);
    return slot === -1 ? null : this.index.length(slot);
  }

  has(line: number): boolean {
    return this.index.has(line);
  }

  isCut(line: number): boolean {
    return this.index.isCut(line);
  }

  get size(): number {
    return this.index.size;
  }

  get cutCount(): number {
    return this.index.cutCount;
  }
}
