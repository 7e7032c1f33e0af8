import { CUT_FIELDS, type LightChunk } from "./light-lines";
import { SessionParser } from "./parse";

/**
 * A session's light lines (light-lines.ts) as the server keeps them for a
 * file it has read once: frames of whole lines, each with where its changed
 * lines are in the file, and an end frame. Reading a file again from these
 * skips what costs most in the browser's reader (cutting and escaping every
 * line), and sends about half the bytes. The content is not in them: it is
 * read from the file by byte range when shown, as for any library file. The
 * bytes of a changed line are kept only where its light text is not valid JSON
 * (its error message is taken from the line as written).
 *
 * Frame: u8 kind; lines (1): u32 light bytes, u32 changed lines, u32 kept
 * bytes, f64 file bytes read so far, per changed line i32 line, f64 offset,
 * i32 length, u8 form, i32 start in the kept bytes or -1, then the kept bytes
 * and the light bytes; end (2): f64 complete, f64 total, u32 bytes of the
 * final line, and it; snapshot (3, only first): u32 bytes, and the snapshot of
 * the index built from the frames that follow (session-snapshot.ts). Little-endian.
 */

const LINES = 1;
const END = 2;
const SNAPSHOT = 3;
const LINES_HEAD = 1 + 4 + 4 + 4 + 8;
const CHANGED = 4 + 8 + 4 + 1 + 4;
const END_HEAD = 1 + 8 + 8 + 4;
const SNAPSHOT_HEAD = 1 + 4;
/** the longest head of a frame */
const MAX_HEAD = Math.max(LINES_HEAD, END_HEAD, SNAPSHOT_HEAD);

/**
 * A LightChunk as a frame. `keep(k)` says whether the k-th changed line's bytes
 * go with it (its light text does not parse).
 */
export function linesFrame(chunk: LightChunk, keep: (k: number) => boolean): Uint8Array {
  const { cut, offsets, raws, light } = chunk;
  const changed = cut.length / CUT_FIELDS;
  let keptBytes = 0;
  for (let k = 0; k < changed; k++) if (keep(k)) keptBytes += cut[k * CUT_FIELDS + 3]! - cut[k * CUT_FIELDS + 2]!;
  const out = new Uint8Array(LINES_HEAD + changed * CHANGED + keptBytes + light.byteLength);
  const view = new DataView(out.buffer);
  view.setUint8(0, LINES);
  view.setUint32(1, light.byteLength, true);
  view.setUint32(5, changed, true);
  view.setUint32(9, keptBytes, true);
  view.setFloat64(13, chunk.done, true);
  let at = LINES_HEAD;
  let kept = LINES_HEAD + changed * CHANGED;
  const keptStart = kept;
  for (let k = 0; k < changed; k++) {
    const i = k * CUT_FIELDS;
    const length = cut[i + 3]! - cut[i + 2]!;
    view.setInt32(at, cut[i]!, true);
    view.setFloat64(at + 4, offsets[k]!, true);
    view.setInt32(at + 12, length, true);
    view.setUint8(at + 16, cut[i + 4]!);
    if (keep(k)) {
      view.setInt32(at + 17, kept - keptStart, true);
      out.set(raws[cut[i + 1]!]!.subarray(cut[i + 2]!, cut[i + 3]!), kept);
      kept += length;
    } else view.setInt32(at + 17, -1, true);
    at += CHANGED;
  }
  out.set(light, kept);
  return out;
}

export function endFrame(last: Uint8Array, complete: number, total: number): Uint8Array {
  const out = new Uint8Array(END_HEAD + last.byteLength);
  const view = new DataView(out.buffer);
  view.setUint8(0, END);
  view.setFloat64(1, complete, true);
  view.setFloat64(9, total, true);
  view.setUint32(17, last.byteLength, true);
  out.set(last, END_HEAD);
  return out;
}

/** The head of the frame that goes first when the server has the snapshot of the index the other frames make: its `length` bytes follow. */
export function snapshotHead(length: number): Uint8Array {
  const out = new Uint8Array(SNAPSHOT_HEAD);
  const view = new DataView(out.buffer);
  view.setUint8(0, SNAPSHOT);
  view.setUint32(1, length, true);
  return out;
}

export type LightFrame =
  /** the snapshot of the index the frames that follow make (restore it instead of reading them: restoreFrom) */
  | { type: "snapshot"; snapshot: Uint8Array; ownsBuffer: boolean }
  /**
   * a LightChunk: a changed line whose bytes did not come has -1 for its raw (read it from the file); `at`: where
   * the frame starts among the bytes read, `bytes`: its size (a kept index is read again by frame: LightFrameTable)
   */
  | { type: "lines"; chunk: LightChunk; at: number; bytes: number }
  /** the final line without newline, as bytes; the bytes up to the last newline; the file's bytes */
  | { type: "end"; last: Uint8Array; complete: number; total: number };

/**
 * A buffer for a frame of `kind` and `size`: a snapshot's begins 3 bytes in, so that its payload (after a 5-byte
 * head) is 8-aligned and its typed arrays can be views of it, not a copy (snapshotParts).
 */
function frameBuffer(kind: number, size: number): Uint8Array {
  const pad = kind === SNAPSHOT ? 8 - SNAPSHOT_HEAD : 0;
  return new Uint8Array(new ArrayBuffer(pad + size), pad, size);
}

/**
 * Reads frames from bytes in pieces of any size. A frame that lies within one piece is a view of it (copying every
 * byte again was most of a reopen's worker time on a machine where fresh memory is slow to write); one that spans
 * pieces is copied, once, into a buffer of its own size as its pieces come. Nothing of a piece is kept past the
 * push that brought it but its frames, so the caller may transfer a piece's buffer with them.
 */
export class LightFrameReader {
  /** the start of a frame whose head is not whole yet (a copy) */
  private head: Uint8Array | null = null;
  /** a frame that spans pieces, being filled */
  private filling: { frame: Uint8Array; filled: number } | null = null;
  private ended = false;
  private frames = 0;
  /** the bytes of the frames read so far */
  private consumed = 0;

  /** The frames completed by `bytes`. Throws on bytes that are not frames. */
  push(bytes: Uint8Array): LightFrame[] {
    const out: LightFrame[] = [];
    let at = 0;
    if (this.head) {
      // the head's bytes and enough of this piece to finish it (a head is a few bytes)
      const joined = new Uint8Array(this.head.byteLength + Math.min(bytes.byteLength, MAX_HEAD));
      joined.set(this.head);
      joined.set(bytes.subarray(0, joined.byteLength - this.head.byteLength), this.head.byteLength);
      const size = this.sizeAt(joined);
      if (size === null) {
        this.head = joined;
        return out;
      }
      this.filling = { frame: frameBuffer(this.head[0]!, size), filled: 0 };
      this.filling.frame.set(this.head.subarray(0, Math.min(this.head.byteLength, size)));
      this.filling.filled = Math.min(this.head.byteLength, size);
      this.head = null;
    }
    while (at < bytes.byteLength) {
      const filling = this.filling;
      if (filling) {
        const n = Math.min(filling.frame.byteLength - filling.filled, bytes.byteLength - at);
        filling.frame.set(bytes.subarray(at, at + n), filling.filled);
        filling.filled += n;
        at += n;
        if (filling.filled < filling.frame.byteLength) break;
        this.filling = null;
        out.push(this.decode(filling.frame, true));
        continue;
      }
      const rest = bytes.subarray(at);
      const size = this.sizeAt(rest);
      if (size === null) {
        this.head = rest.slice();
        break;
      }
      if (size <= rest.byteLength) {
        out.push(this.decode(rest.subarray(0, size)));
        at += size;
      } else this.filling = { frame: frameBuffer(rest[0]!, size), filled: 0 };
    }
    return out;
  }

  /** True once the end frame was read. */
  get complete(): boolean {
    return this.ended;
  }

  /** The size of the frame `bytes` begins with, or null while its head has not all come. */
  private sizeAt(bytes: Uint8Array): number | null {
    if (bytes.byteLength === 0) return null;
    const kind = bytes[0];
    const headSize = kind === LINES ? LINES_HEAD : kind === END ? END_HEAD : kind === SNAPSHOT && this.frames === 0 ? SNAPSHOT_HEAD : -1;
    if (headSize === -1 || this.ended) throw new Error("the server's light index is damaged: a frame of unknown kind");
    if (bytes.byteLength < headSize) return null;
    const view = new DataView(bytes.buffer, bytes.byteOffset, headSize);
    if (kind === END) return END_HEAD + view.getUint32(17, true);
    if (kind === SNAPSHOT) return SNAPSHOT_HEAD + view.getUint32(1, true);
    return LINES_HEAD + view.getUint32(5, true) * CHANGED + view.getUint32(9, true) + view.getUint32(1, true);
  }

  /** `own`: the frame was filled into a buffer of its own (frameBuffer), not a view of a piece */
  private decode(frame: Uint8Array, own = false): LightFrame {
    const at = this.consumed;
    this.consumed += frame.byteLength;
    this.frames++;
    const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
    if (frame[0] === SNAPSHOT) return { type: "snapshot", snapshot: frame.subarray(SNAPSHOT_HEAD), ownsBuffer: own };
    if (frame[0] === END) {
      this.ended = true;
      return { type: "end", complete: view.getFloat64(1, true), total: view.getFloat64(9, true), last: frame.subarray(END_HEAD) };
    }
    const lightBytes = view.getUint32(1, true);
    const changed = view.getUint32(5, true);
    const keptBytes = view.getUint32(9, true);
    const done = view.getFloat64(13, true);
    const keptStart = LINES_HEAD + changed * CHANGED;
    const cut = new Int32Array(changed * CUT_FIELDS);
    const offsets = new Float64Array(changed);
    for (let k = 0, at = LINES_HEAD; k < changed; k++, at += CHANGED) {
      const length = view.getInt32(at + 12, true);
      const kept = view.getInt32(at + 17, true);
      const i = k * CUT_FIELDS;
      cut[i] = view.getInt32(at, true);
      cut[i + 1] = kept === -1 ? -1 : 0;
      cut[i + 2] = kept === -1 ? 0 : kept;
      cut[i + 3] = (kept === -1 ? 0 : kept) + length;
      cut[i + 4] = view.getUint8(at + 16);
      offsets[k] = view.getFloat64(at + 4, true);
    }
    const raws = keptBytes ? [frame.slice(keptStart, keptStart + keptBytes)] : [];
    // (the frame is a buffer of its own already: its light text goes on in it, not copied again)
    const light = frame.subarray(keptStart + keptBytes, keptStart + keptBytes + lightBytes);
    return { type: "lines", chunk: { light, raws, cut, offsets, done }, at, bytes: frame.byteLength };
  }
}

/**
 * Frames a file's LightChunks in order, keeping the bytes of each changed line
 * whose light text is not valid JSON (the page takes a broken line's error
 * message from the line as written).
 */
export class LightFrameWriter {
  private readonly decoder = new TextDecoder("utf-8", { ignoreBOM: true });

  /** `lines`: the whole lines before the first chunk (0 for a file read from its start) */
  constructor(private lines = 0) {}

  /** Whole lines framed so far. */
  get lineCount(): number {
    return this.lines;
  }

  frame(chunk: LightChunk): Uint8Array {
    const { light, cut } = chunk;
    const changed = cut.length / CUT_FIELDS;
    const broken = new Set<number>();
    let line = this.lines;
    let k = 0;
    for (let start = 0; start < light.length;) {
      const end = light.indexOf(0x0a, start);
      line++;
      if (k < changed && cut[k * CUT_FIELDS] === line) {
        try {
          JSON.parse(this.decoder.decode(light.subarray(start, end)));
        } catch {
          broken.add(k);
        }
        k++;
      }
      start = end + 1;
    }
    this.lines = line;
    return linesFrame(chunk, (n) => broken.has(n));
  }
}

/** Whether the page can build the file's index from its light lines alone: decided by the first line that parses. */
export class LightFormatCheck {
  private readonly parser = new SessionParser();
  private readonly decoder = new TextDecoder("utf-8", { ignoreBOM: true });

  /** true / false once known, null while no line has parsed yet. */
  check(chunk: LightChunk): boolean | null {
    const text = this.decoder.decode(chunk.light);
    for (let start = 0; start < text.length && !this.parser.formatKnown;) {
      const end = text.indexOf("\n", start) + 1 || text.length;
      this.parser.push(text.slice(start, end));
      start = end;
    }
    if (!this.parser.formatKnown) return null;
    return this.parser.readsAsLight;
  }
}
