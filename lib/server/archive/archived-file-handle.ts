// An archived session file opened as the server opens a local one: the same four calls (read by position, stat,
// a read stream, close), so summaries, digests, the light index, raw ranges, shares and the tail read it unchanged.
import { Readable } from "node:stream";
import type pg from "pg";
import { SessionPathError, type SessionFileHandle, type SessionFileStats } from "../safe-path";
import { ArchivedFileReader, findArchivedFileById, type ArchivedFile } from "./archive-files";

/** The most bytes one read of a stream asks the database for: fewer, larger questions for a whole file. */
const STREAM_PIECE = 4 << 20;
/** What a read by position asks for at least: an entry's line, or the start of a run of reads. */
const FIRST_AHEAD = 64 << 10;

/** The stats of an archived file: its generation stands for the inode, so a replaced file is another file. */
export function archivedStats(file: ArchivedFile): SessionFileStats {
  return { size: file.size, mtimeMs: file.mtimeMs, dev: 0, ino: file.generation };
}

/**
 * Opens the archived file `fileId` as it is now; refused, as a local file swapped after its check is, when it is no
 * longer `generation` (replaced in the archive since it was resolved).
 */
export async function openArchivedFile(pool: pg.Pool, fileId: number, generation: number): Promise<SessionFileHandle> {
  const now = await findArchivedFileById(pool, fileId);
  if (!now) throw new SessionPathError("not-found", "no such session file");
  if (now.generation !== generation) throw new SessionPathError("forbidden", "the session file changed while it was being opened");
  return new ArchivedFileHandle(new ArchivedFileReader(pool, now));
}

class ArchivedFileHandle implements SessionFileHandle {
  private closed = false;
  /** the bytes last asked of the database, from `start`: a reader going on where it stopped is answered from them */
  private window: { start: number; bytes: Buffer } | null = null;
  private ahead = FIRST_AHEAD;

  constructor(private readonly reader: ArchivedFileReader) {}

  /**
   * A file's readers read small pieces one after another (a summary, a digest, a tail): each read of the database
   * costs a round trip and a transaction, so a read asks for more than it needs, more each time the reads follow on.
   */
  async read<T extends Uint8Array>(buffer: T, offset: number, length: number, position: number): Promise<{ bytesRead: number; buffer: T }> {
    this.open();
    const size = this.reader.file.size;
    const end = Math.min(position + length, size);
    if (position >= end) return { bytesRead: 0, buffer };
    let window = this.window;
    if (!window || position < window.start || end > window.start + window.bytes.length) {
      const followsOn = window !== null && position === window.start + window.bytes.length;
      this.ahead = followsOn ? Math.min(this.ahead * 2, STREAM_PIECE) : FIRST_AHEAD;
      window = { start: position, bytes: await this.reader.bytes(position, Math.min(size, Math.max(end, position + this.ahead))) };
      this.window = window;
    }
    buffer.set(window.bytes.subarray(position - window.start, end - window.start), offset);
    return { bytesRead: end - position, buffer };
  }

  stat(): Promise<SessionFileStats> {
    this.open();
    return Promise.resolve(archivedStats(this.reader.file));
  }

  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }

  createReadStream(options: { start?: number; end?: number; highWaterMark?: number; autoClose?: boolean } = {}): Readable {
    this.open();
    const reader = this.reader;
    const start = options.start ?? 0;
    // `end` is inclusive, as fs's
    const end = Math.min(options.end === undefined ? Infinity : options.end + 1, reader.file.size);
    const size = options.highWaterMark ?? 64 * 1024;
    const step = Math.max(size, STREAM_PIECE);
    async function* pieces(): AsyncGenerator<Buffer> {
      // the next piece is asked for while this one is read: the database's time and the reader's overlap
      let next: Promise<Buffer> | null = start < end ? reader.bytes(start, Math.min(end, start + step)) : null;
      for (let at = start; next !== null;) {
        const piece = await next;
        at += piece.length;
        next = at < end && piece.length > 0 ? reader.bytes(at, Math.min(end, at + step)) : null;
        // a piece not taken (the stream destroyed) must not fail unheard
        next?.catch(() => undefined);
        for (let i = 0; i < piece.length; i += size) yield piece.subarray(i, i + size);
      }
    }
    return Readable.from(pieces(), { objectMode: false, highWaterMark: size });
  }

  private open(): void {
    if (this.closed) throw new Error(`${this.reader.file.rel}: read after close`);
  }
}
