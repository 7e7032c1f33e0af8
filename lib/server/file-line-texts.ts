import { closeSync, openSync, readSync } from "node:fs";
import { CUT_FIELDS, LineForm, type LightChunk } from "@/lib/session/read/light-lines";
import type { LineTexts } from "@/lib/session/read/elided-lines";

/**
 * The changed lines' text read again from the file, by byte range, when it is
 * needed: a session larger than memory is indexed from its light lines while
 * none of its bytes are kept. Per changed line it holds its number, offset,
 * length and whether it was cut, in typed arrays; a line is
 * found by binary search, as lines arrive in order.
 *
 * The file must not change under it: a session file only grows (pi appends),
 * and what was indexed stays where it was.
 */
export class FileLineTexts implements LineTexts {
  private fd: number | null;
  private lines = new Int32Array(1 << 12);
  private offsets = new Float64Array(1 << 12);
  private lengths = new Int32Array(1 << 12);
  private cut = new Uint8Array(1 << 12);
  private count = 0;
  private cutLines = 0;
  private readonly decoder = new TextDecoder("utf-8", { ignoreBOM: true });

  constructor(private readonly file: string) {
    this.fd = openSync(file, "r");
  }

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

  private grow(): void {
    const size = this.lines.length * 2;
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
  private find(line: number): number {
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

  get size(): number {
    return this.count;
  }

  get cutCount(): number {
    return this.cutLines;
  }

  text(line: number): string {
    const slot = this.find(line);
    if (slot === -1) throw new Error(`line ${line} was written as it is`);
    if (this.fd === null) throw new Error(`${this.file} is closed: line ${line} cannot be read again`);
    const length = this.lengths[slot]!;
    const bytes = Buffer.allocUnsafe(length);
    let read = 0;
    while (read < length) {
      const n = readSync(this.fd, bytes, read, length - read, this.offsets[slot]! + read);
      if (n === 0) throw new Error(`${this.file} is shorter than when it was read: line ${line} is gone`);
      read += n;
    }
    return this.decoder.decode(bytes);
  }

  /** Lets the file go: content can no longer be read. */
  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
