import { closeSync, openSync, readSync } from "node:fs";
import { ByteSink, lightLine } from "@/lib/session/read/light-lines";
import type { EntrySource } from "@/lib/session/tree/entry-source";
import type { SessionEntry } from "@/lib/session/types";

const NEWLINE = 0x0a;
/** bytes read at once when an entry is read again: the entries after it come with it */
const WINDOW = 1 << 20;

/**
 * A session's entries read again from its file when asked for, in the light
 * form the index read them in (light-lines.ts): the tree keeps only a few
 * hundred entry objects and the index columns, so a command-line answer about a
 * file of a gigabyte or more needs a fraction of the file's size in memory.
 * Node reads a file synchronously, so an entry is there when it is asked for.
 *
 * The file must not change under it: a session file only grows (pi appends),
 * and what was indexed stays where it was.
 */
export class FileEntries implements EntrySource {
  /** where each line starts: starts[n] is the byte offset of line n + 1 */
  private starts = new Float64Array(1 << 16);
  private count = 1;
  /** bytes of the file taken note of */
  private size = 0;
  private fd: number | null;
  private readonly sink = new ByteSink(1 << 12);
  /** the bytes read last, from `windowStart` on: a pass over many entries reads the file a window at a time */
  private window = Buffer.alloc(0);
  private windowStart = 0;
  private readonly decoder = new TextDecoder("utf-8", { ignoreBOM: true });

  constructor(private readonly file: string) {
    this.fd = openSync(file, "r");
  }

  /** Takes note of where the lines in the file's next bytes start. */
  add(bytes: Uint8Array): void {
    for (let at = bytes.indexOf(NEWLINE); at !== -1; at = bytes.indexOf(NEWLINE, at + 1)) {
      if (this.count === this.starts.length) {
        const starts = new Float64Array(this.starts.length * 2);
        starts.set(this.starts);
        this.starts = starts;
      }
      this.starts[this.count++] = this.size + at + 1;
    }
    this.size += bytes.byteLength;
  }

  entry(_slot: number, line: number): SessionEntry {
    if (this.fd === null) throw new Error(`${this.file} is closed: line ${line} cannot be read again`);
    if (line < 1 || line > this.count) throw new Error(`${this.file} has no line ${line}`);
    const start = this.starts[line - 1]!;
    // up to its newline, or the end of what was read for the last line
    const end = line < this.count ? this.starts[line]! - 1 : this.size;
    if (start < this.windowStart || end > this.windowStart + this.window.length) this.readWindow(start, end, line);
    const from = start - this.windowStart;
    const sink = this.sink;
    sink.length = 0;
    lightLine(this.window, from, from + (end - start), sink);
    return JSON.parse(this.decoder.decode(sink.view())) as SessionEntry;
  }

  /** Reads the bytes from `start` on, at least to `end` and at most to what was indexed. */
  private readWindow(start: number, end: number, line: number): void {
    const length = Math.max(end, Math.min(this.size, start + WINDOW)) - start;
    const bytes = Buffer.allocUnsafe(length);
    this.window = bytes;
    this.windowStart = start;
    for (let read = 0; read < length;) {
      const n = readSync(this.fd!, bytes, read, length - read, start + read);
      if (n === 0) {
        this.window = Buffer.alloc(0);
        throw new Error(`${this.file} is shorter than when it was read: line ${line} is gone`);
      }
      read += n;
    }
  }

  /** Lets the file go: entries no longer kept can no longer be read. */
  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
