/**
 * Light lines: a session's JSONL with every long string value cut short, made
 * from the file's bytes before they are decoded. In a browser, decoding UTF-8
 * that is not pure ASCII runs at about 40 MB/s, so decoding and parsing a
 * 100 MB session whole takes seconds; nearly all of its bytes sit in a few long
 * strings (tool output, file contents, base64 images) that the tree index never
 * reads. The index is built from the light lines, and a line's full text is
 * decoded from its bytes only when its content is shown or exported (see
 * ElidedLines and SessionTree.full).
 *
 * A light line parses to the same JSON as its full line except that each cut
 * string is a prefix of the original followed by "…": same keys, same types,
 * same nesting, same line count. Its strings' other characters are written as
 * \uXXXX escapes, so light text is ASCII: Chromium decodes ASCII about five
 * times as fast, and posts and parses it faster too (one byte per character).
 * A line is left as written when rewriting could change how it parses: a byte
 * outside ASCII outside a string, a string with a control character or a bad
 * escape (then the line is not valid JSON and must fail as itself). Values of
 * keys the index reads (ids, types, roles, labels, names, models) are never cut.
 */
import { grown } from "../tree/columns";

/**
 * a string value longer than this many bytes (as written, escapes included) is cut. Low, because the page's
 * time goes to every byte it decodes, parses and keeps: at 2048/1024 the 100k bench session's light text was
 * 91 MiB and its index 172 MB; at 512/256, 67 MiB and 143 MB, and it is shown ~0.4 s sooner. Content is read
 * in full for what is shown (a context is a few hundred entries), so more cut lines cost little.
 */
export const CUT_OVER = 512;
/** bytes of a cut string that are kept (less, to end on a whole character or escape): a card's 120 characters, unless most are not ASCII */
export const CUT_KEEP = 256;

/** keys whose string values the index, the rules or the schema check read in full */
const NEVER_CUT_KEYS = [
  "id",
  "parentId",
  "targetId",
  "type",
  "role",
  "firstKeptEntryId",
  "fromId",
  "label",
  "name",
  "customType",
  "toolName",
  "toolCallId",
  "provider",
  "model",
  "modelId",
  "api",
  "thinkingLevel",
  "stopReason",
  "timestamp",
  "cwd",
  "version",
  "parentSession",
  "kind",
  "mimeType",
  "activeToolNames",
];

/** ASCII keys as bytes, by length: a key (as written) is looked up without making a string of it, for every long value. */
class ByteKeys {
  private readonly byLength: Uint8Array[][] = [];

  constructor(keys: readonly string[]) {
    for (const key of keys) (this.byLength[key.length] ??= []).push(Uint8Array.from(key, (c) => c.charCodeAt(0)));
  }

  has(b: Uint8Array, start: number, end: number): boolean {
    const candidates = this.byLength[end - start];
    if (!candidates) return false;
    next: for (const key of candidates) {
      for (let i = 0; i < key.length; i++) if (b[start + i] !== key[i]) continue next;
      return true;
    }
    return false;
  }
}

const NEVER_CUT = new ByteKeys(NEVER_CUT_KEYS);

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;
/** "…" as a JSON escape: \u2026 */
const ELLIPSIS = [BACKSLASH, 0x75, 0x32, 0x30, 0x32, 0x36];
const HEX = Array.from("0123456789abcdef", (c) => c.charCodeAt(0));

function isHex(b: number): boolean {
  return (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66);
}

/** Bytes that end a run of plain string content: control characters (the newline too), quote, backslash, and any byte outside ASCII. */
const STOP = new Uint8Array(256);
for (let c = 0; c < 0x20; c++) STOP[c] = 1;
STOP[QUOTE] = 1;
STOP[BACKSLASH] = 1;
STOP.fill(1, 0x80);

/** Whether the last string stringEnd closed had a byte outside ASCII: its second answer, kept here so the hot loop allocates nothing. */
let stringHadNonAscii = false;

/**
 * Index of the closing quote of the string whose content starts at `from`, or -1 when the string is not valid JSON.
 * Runs of plain content are skipped with one table look-up per byte: this loop reads nearly every byte of the file.
 */
function stringEnd(b: Uint8Array, from: number, end: number): number {
  let nonAscii = false;
  let j = from;
  for (;;) {
    // stops at the line's newline, and past the buffer (undefined is not 0)
    while (STOP[b[j]!] === 0) j++;
    if (j >= end) return -1;
    const c = b[j]!;
    if (c === QUOTE) {
      stringHadNonAscii = nonAscii;
      return j;
    }
    if (c === BACKSLASH) {
      const n = b[j + 1];
      if (n === 0x75) {
        if (j + 6 > end || !isHex(b[j + 2]!) || !isHex(b[j + 3]!) || !isHex(b[j + 4]!) || !isHex(b[j + 5]!)) return -1;
        j += 6;
      } else if (n === QUOTE || n === BACKSLASH || n === 0x2f || n === 0x62 || n === 0x66 || n === 0x6e || n === 0x72 || n === 0x74) {
        j += 2;
      } else return -1;
    } else if (c < 0x20) return -1;
    else {
      nonAscii = true;
      j++;
    }
  }
}

/** The last position ≤ `limit` that ends a whole character or escape of the (valid) string content starting at `from`. */
function cutPoint(b: Uint8Array, from: number, limit: number): number {
  let i = from;
  for (;;) {
    const c = b[i]!;
    const len = c === BACKSLASH ? (b[i + 1] === 0x75 ? 6 : 2) : c < 0x80 ? 1 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
    if (i + len > limit) return i;
    i += len;
  }
}

/**
 * Length of the well-formed UTF-8 sequence of 2 to 4 bytes at b[i] (Unicode's table 3-7, what
 * TextDecoder accepts), or 0 when there is none: TextDecoder turns such bytes into U+FFFD.
 */
function sequenceAt(b: Uint8Array, i: number, end: number): number {
  const c = b[i]!;
  const cont = (k: number, lo = 0x80, hi = 0xbf) => i + k < end && b[i + k]! >= lo && b[i + k]! <= hi;
  if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0;
  if (c >= 0xe0 && c <= 0xef) return cont(1, c === 0xe0 ? 0xa0 : 0x80, c === 0xed ? 0x9f : 0xbf) && cont(2) ? 3 : 0;
  if (c >= 0xf0 && c <= 0xf4) return cont(1, c === 0xf0 ? 0x90 : 0x80, c === 0xf4 ? 0x8f : 0xbf) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

function isAscii(b: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (b[i]! >= 0x80) return false;
  return true;
}

/**
 * Copies the string content b[start, end) with each character outside ASCII written as a \uXXXX
 * escape (two for one outside the BMP). A byte that starts no well-formed sequence is copied as it
 * is: it is followed by a byte that is not a continuation byte in both texts, so TextDecoder
 * replaces the same runs with the same U+FFFDs.
 */
function writeEscaped(b: Uint8Array, start: number, end: number, out: ByteSink): void {
  let run = start;
  let i = start;
  while (i < end) {
    if (b[i]! < 0x80) {
      i++;
      continue;
    }
    const n = sequenceAt(b, i, end);
    if (n === 0) {
      i++;
      continue;
    }
    out.copy(b, run, i);
    const c = b[i]!;
    let cp = n === 2 ? c & 0x1f : n === 3 ? c & 0x0f : c & 0x07;
    for (let k = 1; k < n; k++) cp = (cp << 6) | (b[i + k]! & 0x3f);
    if (cp >= 0x10000) {
      out.escape(0xd800 + ((cp - 0x10000) >> 10));
      out.escape(0xdc00 + ((cp - 0x10000) & 0x3ff));
    } else out.escape(cp);
    i += n;
    run = i;
  }
  out.copy(b, run, end);
}

/**
 * keys whose string values nothing reads from light entries (no card, title or rule): opaque signatures and an
 * edit's texts and diff. In a line that is scanned anyway (one over CUT_OVER bytes, or not ASCII), such a value
 * over BULK_OVER bytes keeps only BULK_KEEP: a page's index holds less.
 */
const BULK = new ByteKeys(["thinkingSignature", "signature", "diff", "oldText", "newText"]);
const BULK_OVER = 64;
const BULK_KEEP = 16;

function isBulk(b: Uint8Array, keyStart: number, keyEnd: number): boolean {
  return BULK.has(b, keyStart, keyEnd);
}

function neverCut(b: Uint8Array, keyStart: number, keyEnd: number): boolean {
  return NEVER_CUT.has(b, keyStart, keyEnd);
}

function isSpace(c: number | undefined): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d || c === NEWLINE;
}

/** A growing byte buffer. */
export class ByteSink {
  private buf: Uint8Array;
  length = 0;

  constructor(capacity = 1 << 16) {
    this.buf = new Uint8Array(capacity);
  }

  private reserve(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }

  copy(from: Uint8Array, start: number, end: number): void {
    this.reserve(end - start);
    this.buf.set(from.subarray(start, end), this.length);
    this.length += end - start;
  }

  byte(value: number): void {
    this.reserve(1);
    this.buf[this.length++] = value;
  }

  bytes(values: readonly number[]): void {
    this.reserve(values.length);
    for (const v of values) this.buf[this.length++] = v;
  }

  /** \uXXXX for a UTF-16 code unit */
  escape(unit: number): void {
    this.reserve(6);
    const buf = this.buf;
    buf[this.length++] = BACKSLASH;
    buf[this.length++] = 0x75;
    for (let shift = 12; shift >= 0; shift -= 4) buf[this.length++] = HEX[(unit >> shift) & 0xf]!;
  }

  view(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }
}

/** What lightLine did with a line: written as it is, written with escapes (parses to the same JSON), or cut. */
export const LineForm = { Same: 0, Escaped: 1, Cut: 2 } as const;
export type LineForm = (typeof LineForm)[keyof typeof LineForm];

/** Writes the light form of the line b[start, end) (no newline) to `out`. */
export function lightLine(b: Uint8Array, start: number, end: number, out: ByteSink): LineForm {
  if (end - start <= CUT_OVER && isAscii(b, start, end)) {
    out.copy(b, start, end);
    return LineForm.Same;
  }
  const mark = out.length;
  const asWritten = (): LineForm => {
    // not valid JSON: JSON.parse must see it, and fail on it, as written
    out.length = mark;
    out.copy(b, start, end);
    return LineForm.Same;
  };
  let form: LineForm = LineForm.Same;
  let copied = start;
  // the last key's content, read only when a long value might be cut (decoding every key costs more than the scan)
  let keyStart = 0;
  let keyEnd = 0;
  let i = start;
  for (;;) {
    let open = b.indexOf(QUOTE, i);
    if (open === -1 || open > end) open = end;
    if (!isAscii(b, i, open)) return asWritten();
    if (open === end) break;
    const close = stringEnd(b, open + 1, end);
    if (close === -1) return asWritten();
    let k = close + 1;
    while (k < end && isSpace(b[k])) k++;
    const length = close - open - 1;
    const isKey = b[k] === 0x3a;
    if (isKey) {
      keyStart = open + 1;
      keyEnd = close;
    }
    const bulk = !isKey && length > BULK_OVER && isBulk(b, keyStart, keyEnd);
    if (!isKey && (length > CUT_OVER || bulk) && !neverCut(b, keyStart, keyEnd)) {
      out.copy(b, copied, open + 1);
      writeEscaped(b, open + 1, cutPoint(b, open + 1, open + 1 + (bulk ? BULK_KEEP : CUT_KEEP)), out);
      out.bytes(ELLIPSIS);
      copied = close;
      form = LineForm.Cut;
    } else if (stringHadNonAscii) {
      out.copy(b, copied, open + 1);
      writeEscaped(b, open + 1, close, out);
      copied = close;
      if (form === LineForm.Same) form = LineForm.Escaped;
    }
    i = close + 1;
  }
  out.copy(b, copied, end);
  return form;
}

/** One slice of light lines: whole lines only, and where the changed ones sit in the raw bytes. */
export interface LightChunk {
  /** the light lines, each ended by "\n", as UTF-8 (ASCII but for lines left as written) */
  light: Uint8Array;
  /** the byte buffers the changed lines are in: the input chunks themselves, and a joined copy of a line that spanned chunks */
  raws: Uint8Array[];
  /**
   * per line whose light text differs: [line number (1-based, in the file), index in `raws`, start, end) in that
   * raw, the newline excluded, LineForm]
   */
  cut: Int32Array;
  /** per line in `cut`: where the line starts in the file (a byte offset: past 2 GiB, so not in `cut`) */
  offsets: Float64Array;
  /** bytes of the file consumed so far */
  done: number;
  /**
   * where each "\n" of `light` is, when the worker has found them (newlinesOf): the page keeps the light text
   * and need not scan a gigabyte of it on its own thread
   */
  newlines?: Int32Array;
}

/** Where each "\n" in `light` is (one pass over it: a chunk is a megabyte, a session a gigabyte). */
export function newlinesOf(light: Uint8Array): Int32Array {
  let out = new Int32Array(1024);
  let count = 0;
  for (let at = light.indexOf(NEWLINE_BYTE); at !== -1; at = light.indexOf(NEWLINE_BYTE, at + 1)) {
    if (count === out.length) out = grown(out, count * 2);
    out[count++] = at;
  }
  return out.slice(0, count);
}

const NEWLINE_BYTE = 0x0a;

/** Numbers per line in LightChunk.cut. */
export const CUT_FIELDS = 5;

/**
 * Turns a file's bytes, in chunks of any size, into LightChunks of whole
 * lines. Lines are split on "\n" as SessionParser splits them; a final line
 * without newline is returned whole by end().
 *
 * Lines are read where they are: only a line that spans input chunks is copied,
 * and the light text goes to one buffer per slice. Writing to freshly allocated
 * memory is what a big file's read costs most in a browser (each new page is
 * zeroed on first touch), so nothing is joined or copied that need not be.
 * A chunk that holds changed lines is kept as it is (LightChunk.raws): the
 * caller must not reuse the bytes it pushes.
 */
export class LightReader {
  /** the start of a line that continues in the next chunk */
  private carry: Uint8Array[] = [];
  private carryBytes = 0;
  private line = 0;
  private done = 0;
  /** bytes up to and including the last newline */
  complete = 0;
  private readonly decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  /** the slice being filled */
  private out: ByteSink | null = null;
  private raws: Uint8Array[] = [];
  private cut: number[] = [];
  private offsets: number[] = [];
  private sliceBytes = 0;

  /**
   * `minBytes`: hand out a slice once this much input has been read into it (fewer, larger slices). `from`: the
   * bytes given start a file after `line` whole lines, `offset` bytes in (a kept index goes on where it ended).
   */
  constructor(
    private readonly minBytes = 1 << 20,
    from?: { line: number; offset: number },
  ) {
    if (from) {
      this.line = from.line;
      this.complete = from.offset;
      this.done = from.offset;
    }
  }

  push(bytes: Uint8Array): LightChunk | null {
    this.done += bytes.byteLength;
    const first = bytes.indexOf(NEWLINE);
    if (first === -1) {
      if (bytes.byteLength) this.carry.push(bytes);
      this.carryBytes += bytes.byteLength;
      return null;
    }
    let from = 0;
    if (this.carryBytes > 0) {
      // the line that spans chunks, joined: the only bytes copied
      const line = this.takeCarry(bytes.subarray(0, first + 1));
      this.readLines(line, 0, line.byteLength);
      from = first + 1;
    }
    const last = bytes.lastIndexOf(NEWLINE);
    this.readLines(bytes, from, last + 1);
    if (last + 1 < bytes.byteLength) {
      // copied out: `bytes` may be handed on (transferred) with the slice
      this.carry.push(bytes.slice(last + 1));
      this.carryBytes = bytes.byteLength - last - 1;
    }
    return this.sliceBytes >= this.minBytes ? this.take() : null;
  }

  /** Whatever whole lines are held back, as a chunk (null if none). */
  flush(): LightChunk | null {
    return this.out ? this.take() : null;
  }

  /** The final line without newline, decoded whole ("" when the file ended with a newline). */
  end(): string {
    return this.decoder.decode(this.takeCarry());
  }

  /** The carried bytes and then `tail`, joined into one buffer; the carry is emptied. */
  private takeCarry(tail: Uint8Array = new Uint8Array(0)): Uint8Array {
    const joined = new Uint8Array(this.carryBytes + tail.byteLength);
    let at = 0;
    for (const part of this.carry) {
      joined.set(part, at);
      at += part.byteLength;
    }
    joined.set(tail, at);
    this.carry = [];
    this.carryBytes = 0;
    return joined;
  }

  /** Reads the whole lines in b[start, end) into the current slice. */
  private readLines(b: Uint8Array, start: number, end: number): void {
    if (start >= end) return;
    // where b[start] is in the file: whole lines only come here, so after the `complete` bytes before them
    const base = this.complete - start;
    this.complete += end - start;
    this.sliceBytes += end - start;
    // light text is never longer than its bytes but for escapes: room for the slice, grown if needed
    const out = (this.out ??= new ByteSink(this.minBytes + (end - start) + (1 << 12)));
    let raw = -1;
    let s = start;
    while (s < end) {
      const nl = b.indexOf(NEWLINE, s);
      this.line++;
      const form = lightLine(b, s, nl, out);
      if (form !== LineForm.Same) {
        if (raw === -1) raw = this.raws.push(b) - 1;
        this.cut.push(this.line, raw, s, nl, form);
        this.offsets.push(base + s);
      }
      out.byte(NEWLINE);
      s = nl + 1;
    }
  }

  private take(): LightChunk {
    const chunk = { light: this.out!.view(), raws: this.raws, cut: Int32Array.from(this.cut), offsets: Float64Array.from(this.offsets), done: this.done };
    this.out = null;
    this.raws = [];
    this.cut = [];
    this.offsets = [];
    this.sliceBytes = 0;
    return chunk;
  }
}
