import { grown } from "../tree/columns";

/**
 * Where each lines frame of a kept light index is (light-frames.ts): its bytes
 * in the index and the lines it holds. A page that restored a session's index
 * from its snapshot shows it before the frames have all come, and reads a frame
 * that has not come yet by byte range of the index (EarlyLightText).
 */
export class LightFrameTable {
  private starts = new Float64Array(64);
  private ends = new Float64Array(64);
  /** the first line (1-based) of each frame */
  private firsts = new Int32Array(64);
  private count = 0;
  /** the lines of all the frames */
  private lines = 0;

  /** The next frame: `bytes` bytes at `at` in the index, holding the next `lines` whole lines. */
  add(at: number, bytes: number, lines: number): void {
    const n = this.count++;
    this.starts = grown(this.starts, this.count);
    this.ends = grown(this.ends, this.count);
    this.firsts = grown(this.firsts, this.count);
    this.starts[n] = at;
    this.ends[n] = at + bytes;
    this.firsts[n] = this.lines + 1;
    this.lines += lines;
  }

  get size(): number {
    return this.count;
  }

  /** the whole lines the frames hold */
  get lineCount(): number {
    return this.lines;
  }

  /** The frame that holds `line`, or -1 (a line past the frames: the final line without newline). */
  frameOf(line: number): number {
    if (line < 1 || line > this.lines) return -1;
    let low = 0;
    let high = this.count - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.firsts[mid]! <= line) low = mid;
      else high = mid - 1;
    }
    return low;
  }

  /** frame `k`'s bytes in the index: [start, end) */
  bytesOf(k: number): { start: number; end: number } {
    return { start: this.starts[k]!, end: this.ends[k]! };
  }

  /** frame `k`'s lines: [first, first + count) */
  linesOf(k: number): { first: number; count: number } {
    const first = this.firsts[k]!;
    return { first, count: (k + 1 < this.count ? this.firsts[k + 1]! : this.lines + 1) - first };
  }
}
