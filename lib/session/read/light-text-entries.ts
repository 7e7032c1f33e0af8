import type { EntrySource } from "../tree/entry-source";
import type { SessionEntry } from "../types";
import { grown } from "../tree/columns";
import type { EarlyLightText } from "./early-light-text";

const NEWLINE = 0x0a;

/**
 * A session's entries read again from the light text the index was built
 * from, kept as bytes: byte arrays live outside the JS heap and the collector
 * never walks them, while an entry object per line (its strings, its arrays)
 * was most of a page's heap. A tree that reads its entries from here
 * (SessionTree.readEntriesFrom) keeps only the last few thousand objects; the
 * page cannot read its file synchronously, and the light text is the one copy
 * of every line it already has.
 *
 * Lines are counted as the parser counts them: line n starts after the
 * (n − 1)th newline. The text pushed to the parser must be added here in the
 * same order, and the bytes given are kept as they are (not copied).
 */
export class LightTextEntries implements EntrySource {
  private readonly chunks: Uint8Array[] = [];
  /** where each chunk starts among all the bytes added */
  private chunkStarts = new Float64Array(16);
  /** where each line starts: starts[n] is the offset of line n + 1 */
  private starts = new Float64Array(1 << 12);
  private count = 1;
  private size = 0;
  /** the text of the final line, when the input ended without a newline */
  private last = "";
  /** the chunk the previous read found its line in: reads go mostly forward */
  private hint = 0;
  private readonly decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  private readonly encoder = new TextEncoder();

  /**
   * Keeps the next bytes of the text (UTF-8), as they are: they must not change afterwards. `newlines`: where its
   * newlines are, if known (found off the page's thread: scanning the text here took a third of a second per
   * 300 MB).
   */
  add(bytes: Uint8Array, newlines?: Int32Array): void {
    if (bytes.length === 0) return;
    this.last = "";
    this.chunkStarts = grown(this.chunkStarts, this.chunks.length + 1);
    this.chunkStarts[this.chunks.length] = this.size;
    this.chunks.push(bytes);
    if (newlines) for (const at of newlines) this.lineStartsAt(at);
    else for (let at = bytes.indexOf(NEWLINE); at !== -1; at = bytes.indexOf(NEWLINE, at + 1)) this.lineStartsAt(at);
    this.size += bytes.length;
    this.early?.passed(this.count - 1);
  }

  /** where lines that have not been added yet are read meanwhile (readEarly), until end() */
  private early: EarlyLightText | null = null;

  /**
   * The index was restored before its light text came (a session shown as soon as its snapshot came): until
   * end(), a line not added yet is read from `early`.
   */
  readEarly(early: EarlyLightText): void {
    this.early = early;
    this.came = new Promise((done) => (this.arrived = done));
  }

  private came: Promise<void> | null = null;
  private arrived: (() => void) | null = null;

  /**
   * The rest of the text will not come (its stream failed): entries go on being read early, as many at once as
   * asked, and what waits for the text is told to go on.
   */
  textStopped(): void {
    this.early?.endLimits();
    this.arrived?.();
  }

  /** Resolves once all the text has come, or will not (at once when it was never read early). */
  textCame(): Promise<void> {
    return this.came ?? Promise.resolve();
  }

  /** `read` allowed at most `frames` frames read early at once (EarlyLightText.readingAtMost). */
  readingAtMost<T>(frames: number, read: () => T): { value: T; exceeded: boolean } {
    return this.early ? this.early.readingAtMost(frames, read) : { value: read(), exceeded: false };
  }

  /** True when a read was refused since readRefused (EarlyLightText.wasRefused). */
  get textRefused(): boolean {
    return this.early?.wasRefused ?? false;
  }

  /** Reads the frames reads were refused (EarlyLightText.readRefused); at once when none is read early. */
  readRefused(): Promise<void> {
    return this.early?.readRefused() ?? Promise.resolve();
  }

  /** True while lines that have not come are read one frame at a time (readEarly): what reads many entries should wait for end(). */
  get textComing(): boolean {
    return this.early !== null;
  }

  /** A line starts after the newline at `at` in the bytes being added. */
  private lineStartsAt(at: number): void {
    if (this.count === this.starts.length) this.starts = grown(this.starts, this.count * 2);
    this.starts[this.count++] = this.size + at + 1;
  }

  /** The bytes added, as they were given. */
  get chunkList(): readonly Uint8Array[] {
    return this.chunks;
  }

  /** Keeps text given as a string (a live tail's lines). */
  appendText(text: string): void {
    this.add(this.encoder.encode(text));
  }

  /** The input ended: `last` is its final line when it had no newline ("" if it had). Text added later replaces it. */
  end(last: string): void {
    this.last = last;
    this.early = null;
    this.arrived?.();
  }

  entry(_slot: number, line: number): SessionEntry {
    // (the last line counted is cut short until the text's end: its newline has not come)
    if (this.early && line >= this.count) return JSON.parse(this.early.text(line)) as SessionEntry;
    if (line < 1 || line > this.count) throw new Error(`the light text has no line ${line} (it holds ${this.count})`);
    const start = this.starts[line - 1]!;
    const end = line < this.count ? this.starts[line]! - 1 : this.size;
    const text = this.text(start, end) + (line === this.count ? this.last : "");
    return JSON.parse(text) as SessionEntry;
  }

  /** Decodes the bytes [start, end) of everything added, across chunks if they span some. */
  private text(start: number, end: number): string {
    const first = this.chunkAt(start);
    const chunk = this.chunks[first];
    if (chunk === undefined) return "";
    const from = start - this.chunkStarts[first]!;
    if (end - this.chunkStarts[first]! <= chunk.length) return this.decoder.decode(chunk.subarray(from, from + (end - start)));
    const joined = new Uint8Array(end - start);
    let written = 0;
    for (let k = first; written < joined.length; k++) {
      const piece = this.chunks[k]!;
      const offset = k === first ? from : 0;
      const take = Math.min(piece.length - offset, joined.length - written);
      joined.set(piece.subarray(offset, offset + take), written);
      written += take;
    }
    return this.decoder.decode(joined);
  }

  /** The chunk that holds the byte at `offset` (the last chunk for the end of the text). */
  private chunkAt(offset: number): number {
    const starts = this.chunkStarts;
    const n = this.chunks.length;
    let k = this.hint;
    if (k < n && starts[k]! <= offset && (k + 1 === n || starts[k + 1]! > offset)) return k;
    let low = 0;
    let high = n - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    this.hint = k = low;
    return k;
  }
}
