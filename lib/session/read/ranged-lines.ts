import { ElidedLines } from "./elided-lines";
import type { LightChunk } from "./light-lines";
import { OffsetLineTexts } from "./line-offsets";
import { ContentNotReadError, type LineTexts } from "./line-texts";

/** Reads bytes [start, end) of the session's file: a Blob's slice, an HTTP Range request. */
export type ByteSource = (start: number, end: number) => Promise<Uint8Array>;

export interface RangedLinesOptions {
  /** what the file is called in errors */
  name?: string;
  /** characters of line text kept after a load (the lines of the last few loads are kept whatever this says) */
  budget?: number;
}

/** lines read in one request when they are this close (bytes between them are read and dropped) */
const GAP = 256 * 1024;
/** bytes read in one request at most (a longer line is still read whole) */
const MAX_RANGE = 8 * 1024 * 1024;
const BUDGET = 32 * 1024 * 1024;
/** loads whose lines are kept whatever the budget: a render reads what it loaded, even while another panel loads */
const PINNED_LOADS = 4;

/**
 * Line texts read from the file again, by byte range, when something asks for
 * them (load), and kept in a small cache: a session is indexed from its light
 * lines while none of its content stays in memory, which is what lets a page open
 * a file larger than it could hold. What a render needs is found by
 * SessionTree.readLightly and loaded before it is drawn with full content.
 *
 * The bytes of the slice being indexed are kept until the next slice comes (a
 * line that fails to parse takes its error message from its full text), and all
 * of them once retainAll() is called: a file in an older format is read again
 * whole at its end.
 */
export class RangedLines extends OffsetLineTexts implements LineTexts {
  private slice = new ElidedLines();
  private keepAll = false;
  /** line → text, least recently used first */
  private readonly cache = new Map<number, string>();
  private cached = 0;
  private readonly reading = new Map<number, Promise<void>>();
  private readonly pinned: (readonly number[])[] = [];
  private readonly decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  private readonly name: string;
  private readonly budget: number;
  readonly onDemand = true;

  constructor(
    private readonly source: ByteSource,
    options: RangedLinesOptions = {},
  ) {
    super();
    this.name = options.name ?? "the session file";
    this.budget = options.budget ?? BUDGET;
  }

  add(chunk: Pick<LightChunk, "raws" | "cut" | "offsets">): void {
    if (!this.adopted) this.index.add(chunk);
    if (!this.keepAll) this.slice = new ElidedLines();
    this.slice.add(chunk);
  }

  /** Keeps the bytes of every slice from the one being read on (see the class comment). */
  retainAll(): void {
    this.keepAll = true;
  }

  /** Drops the bytes kept of the last slice: the index is built. */
  settle(): void {
    if (!this.keepAll) this.slice = new ElidedLines();
  }

  ready(line: number): boolean {
    return this.cache.has(line) || this.slice.has(line) || !this.index.has(line);
  }

  text(line: number): string {
    if (this.slice.has(line)) return this.slice.text(line);
    const text = this.cache.get(line);
    if (text !== undefined) {
      this.cache.delete(line);
      this.cache.set(line, text);
      return text;
    }
    if (!this.index.has(line)) throw new Error(`line ${line} was written as it is`);
    throw new ContentNotReadError(line);
  }

  async load(lines: readonly number[], check?: (line: number, text: string) => string | null): Promise<void> {
    const slots: number[] = [];
    const waits: Promise<void>[] = [];
    for (const line of lines) {
      if (this.ready(line)) continue;
      const reading = this.reading.get(line);
      if (reading) waits.push(reading);
      else {
        this.reading.set(line, Promise.resolve()); // taken: a line asked for twice is read once
        slots.push(this.index.find(line));
      }
    }
    // slots follow the file's order, as lines were added in it
    slots.sort((a, b) => a - b);
    const reads: Promise<void>[] = [];
    for (let i = 0; i < slots.length;) {
      const first = i;
      const start = this.index.offset(slots[i]!);
      let end = start + this.index.length(slots[i]!);
      for (i++; i < slots.length; i++) {
        const at = this.index.offset(slots[i]!);
        const to = at + this.index.length(slots[i]!);
        if (at - end > GAP || to - start > MAX_RANGE) break;
        end = to;
      }
      const group = slots.slice(first, i);
      const read = this.readRange(start, end, group, check);
      for (const slot of group) this.reading.set(this.index.line(slot), read);
      reads.push(read);
    }
    try {
      await Promise.all([...reads, ...waits]);
    } finally {
      for (const slot of slots) this.reading.delete(this.index.line(slot));
    }
    this.pinned.push(lines);
    if (this.pinned.length > PINNED_LOADS) this.pinned.shift();
    this.evict();
  }

  private async readRange(start: number, end: number, slots: readonly number[], check?: (line: number, text: string) => string | null): Promise<void> {
    const bytes = await this.source(start, end);
    if (bytes.byteLength !== end - start)
      throw new Error(`${this.name} is not what was read: bytes ${start}–${end} came back as ${bytes.byteLength} bytes (the file was cut or replaced)`);
    for (const slot of slots) {
      const at = this.index.offset(slot) - start;
      const text = this.decoder.decode(bytes.subarray(at, at + this.index.length(slot)));
      const line = this.index.line(slot);
      const wrong = check?.(line, text);
      if (wrong) throw new Error(`${this.name}: ${wrong}`);
      if (!this.cache.has(line)) this.cached += text.length;
      this.cache.set(line, text);
    }
  }

  /** Drops the least recently used texts over the budget, but none that a recent load asked for. */
  private evict(): void {
    if (this.cached <= this.budget) return;
    const keep = new Set(this.pinned.flat());
    for (const [line, text] of this.cache) {
      if (this.cached <= this.budget) break;
      if (keep.has(line)) continue;
      this.cache.delete(line);
      this.cached -= text.length;
    }
  }
}
