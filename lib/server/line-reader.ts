// Lines of the library's files by where they are, as a search reads them (to check a query's words, to cut
// snippets) and as an index update reads a line again (to hash an entry a second row holds): each file opened once, lines close together read in one go (the newest entries of a session
// lie one after the other). Opened and read synchronously: a search reads a thousand lines over hundreds of files,
// and a thread pool round trip each cost more than the call (the pages are mostly cached); SQLite's calls hold the
// thread as long anyway.
//
// What a search reads is bounded in bytes, not only in lines: a line may be as long as the line limit (64 MB), and a
// file of a hundred such lines would otherwise have every search read gigabytes. Past its allowance the reader reads
// nothing more and says so (`spent`): a plan that checks lines then leaves the query to FTS5, and a snippet is left
// empty.
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { resolveSessionPath, type ResolvedSessionFile } from "./safe-path";

/** Lines read together when this close (bytes between them) and within this span. */
const READ_GAP = 64 * 1024;
const READ_SPAN = 4 * 1024 * 1024;

export class LineReader {
  /** by path: a descriptor, or null for a file that cannot be opened */
  private readonly fds = new Map<string, number | null>();
  private left: number;

  constructor(
    /** the sessions directory a file not in `files` is resolved in; null: such a file is not read */
    private readonly dir: string | null,
    private readonly files: ReadonlyMap<string, ResolvedSessionFile> | undefined,
    /** the bytes it reads until allowed more */
    allowance: number,
  ) {
    this.left = allowance;
  }

  /** Whether it read all it was allowed: lines asked for since were not read. */
  get spent(): boolean {
    return this.left <= 0;
  }

  /** Allows `bytes` more (what is left is forgotten). */
  allow(bytes: number): void {
    this.left = bytes;
  }

  /** The lines at `at` (path, byte offset, length), in their order; null for one that cannot be read, or past the allowance. */
  async read(at: readonly { path?: unknown; off?: unknown; len?: unknown }[]): Promise<(string | null)[]> {
    const out: (string | null)[] = at.map(() => null);
    await this.each(at, (i, buffer, start, end) => (out[i] = buffer.toString("utf8", start, end)));
    return out;
  }

  /** As `read`, the lines' bytes (valid until the next read). */
  async readBytes(at: readonly { path?: unknown; off?: unknown; len?: unknown }[]): Promise<(Buffer | null)[]> {
    const out: (Buffer | null)[] = at.map(() => null);
    await this.each(at, (i, buffer, start, end) => (out[i] = buffer.subarray(start, end)));
    return out;
  }

  /** Reads the lines at `at`, a file at a time, handing each one read whole to `line` (its index in `at`, where it lies in `buffer`). */
  private async each(
    at: readonly { path?: unknown; off?: unknown; len?: unknown }[],
    line: (i: number, buffer: Buffer, start: number, end: number) => void,
  ): Promise<void> {
    const byFile = new Map<string, number[]>();
    for (const [i, place] of at.entries()) {
      const indexes = byFile.get(place.path as string);
      if (indexes) indexes.push(i);
      else byFile.set(place.path as string, [i]);
    }
    for (const [rel, indexes] of byFile) {
      if (this.spent) break;
      const fd = this.fds.has(rel) ? this.fds.get(rel)! : await this.open(rel);
      if (fd === null) continue;
      const off = (i: number) => at[i]!.off as number;
      const end = (i: number) => off(i) + (at[i]!.len as number);
      indexes.sort((a, b) => off(a) - off(b));
      try {
        for (let i = 0; i < indexes.length && !this.spent;) {
          let j = i;
          let to = end(indexes[i]!);
          while (j + 1 < indexes.length && off(indexes[j + 1]!) - to <= READ_GAP && end(indexes[j + 1]!) - off(indexes[i]!) <= READ_SPAN)
            to = Math.max(to, end(indexes[++j]!));
          const from = off(indexes[i]!);
          const buffer = Buffer.allocUnsafe(to - from);
          const bytesRead = readSync(fd, buffer, 0, buffer.length, from);
          this.left -= bytesRead;
          for (let k = i; k <= j; k++) if (end(indexes[k]!) <= from + bytesRead) line(indexes[k]!, buffer, off(indexes[k]!) - from, end(indexes[k]!) - from);
          i = j + 1;
        }
      } catch {
        // the file cannot be read since it was indexed: its lines stay unread
      }
    }
  }

  /**
   * Opens a file as openSessionFile does (no link followed, no FIFO waited for, the very file that was listed,
   * regular and singly linked); null when it is gone or is no longer that file.
   */
  private async open(rel: string): Promise<number | null> {
    let fd: number | null = null;
    try {
      const resolved = this.files?.get(rel) ?? (this.dir === null ? null : await resolveSessionPath(this.dir, rel));
      if (!resolved) throw new Error("not in the library");
      fd = openSync(resolved.file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
      const stats = fstatSync(fd);
      if (stats.dev !== resolved.dev || stats.ino !== resolved.ino || !stats.isFile() || stats.nlink > 1) throw new Error("changed");
    } catch {
      if (fd !== null) closeSync(fd);
      fd = null;
    }
    this.fds.set(rel, fd);
    return fd;
  }

  close(): void {
    for (const fd of this.fds.values()) if (fd !== null) closeSync(fd);
    this.fds.clear();
  }
}
