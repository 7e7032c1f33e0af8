// The lines of a session file as the library reads them: a chunk at a time, each line with where it starts, a line
// longer than the limit (line-limit.ts) passed over as its bytes go by rather than gathered, so a file with a line
// of gigabytes costs a chunk of memory, not the line.
import { maxLineBytes } from "./line-limit";

export const CHUNK = 1024 * 1024;

export interface FileLine {
  /** the line's bytes without its newline; null when it is longer than the limit (they were not kept) */
  bytes: Buffer | null;
  /** where it starts in the file */
  offset: number;
  /** its length in bytes, without the newline */
  length: number;
  /** false for a last line without its newline: it may still be being written */
  complete: boolean;
}

/** What fileLines reads from: an open file (a FileHandle), or anything that reads bytes by position. */
export interface PositionalReader {
  read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
}

/** The lines of `handle` from byte `from`. A line is joined once from its pieces, not copied again with every chunk. */
export async function* fileLines(handle: PositionalReader, from = 0, maxLine: number = maxLineBytes()): AsyncGenerator<FileLine> {
  let pieces: Buffer[] = [];
  let held = 0;
  // the line under way passed the limit: its pieces are let go and the rest of it only counted
  let over = false;
  let lineStart = from;
  let position = from;
  for (;;) {
    const buffer = Buffer.allocUnsafe(CHUNK);
    const { bytesRead } = await handle.read(buffer, 0, CHUNK, position);
    if (bytesRead === 0) break;
    const bytes = buffer.subarray(0, bytesRead);
    let start = 0;
    for (let nl = bytes.indexOf(0x0a); nl !== -1; nl = bytes.indexOf(0x0a, start)) {
      const length = position + nl - lineStart;
      const tail = bytes.subarray(start, nl);
      const whole = over || length > maxLine ? null : pieces.length ? Buffer.concat([...pieces, tail]) : tail;
      yield { bytes: whole, offset: lineStart, length, complete: true };
      pieces = [];
      held = 0;
      over = false;
      start = nl + 1;
      lineStart = position + start;
    }
    if (start < bytes.length && !over) {
      held += bytes.length - start;
      if (held > maxLine) {
        over = true;
        pieces = [];
      } else pieces.push(Buffer.from(bytes.subarray(start)));
    }
    position += bytesRead;
  }
  const length = position - lineStart;
  if (length > 0) yield { bytes: over || length > maxLine ? null : Buffer.concat(pieces), offset: lineStart, length, complete: false };
}
