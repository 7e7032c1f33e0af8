/**
 * Base64 for share payloads of tens of MB, in Node (the CLI) and in browsers alike.
 *
 * The engine's own `Uint8Array.fromBase64`/`toBase64` are used where they exist; elsewhere (Node 20, older
 * browsers) a table-driven codec writes into typed arrays, because `String.fromCharCode(...bytes)` overflows
 * the stack and building a string a byte at a time is quadratic in some engines.
 *
 * Decoding accepts the canonical form only — padded for "base64", unpadded for "base64url", no whitespace,
 * zero unused bits — so that every text decodes to one byte string and no two texts decode to the same one.
 * A change to a sealed payload's text then always changes the bytes (which the seal's authentication
 * catches) or fails here; it can never pass through unnoticed.
 */

export type Alphabet = "base64" | "base64url";

export class Base64Error extends Error {
  override name = "Base64Error";
}

const CHARS: Record<Alphabet, string> = {
  base64: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
  base64url: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_",
};

/** Marks a character outside the alphabet; above every 6-bit value so one OR over a block finds it. */
const INVALID = 0x80;

const ENCODE = { base64: encodeTable("base64"), base64url: encodeTable("base64url") };
const DECODE = { base64: decodeTable("base64"), base64url: decodeTable("base64url") };

function encodeTable(alphabet: Alphabet): Uint8Array {
  return Uint8Array.from(CHARS[alphabet], (c) => c.charCodeAt(0));
}

function decodeTable(alphabet: Alphabet): Uint8Array {
  const table = new Uint8Array(128).fill(INVALID);
  for (let value = 0; value < 64; value++) table[CHARS[alphabet].charCodeAt(value)] = value;
  return table;
}

const ASCII = new TextDecoder();

/** Checked when called, not at load, so a page polyfilled after this module loads still gets the fast path. */
function hasNative(): boolean {
  return typeof Uint8Array.fromBase64 === "function" && typeof Uint8Array.prototype.toBase64 === "function";
}

/** "base64" is padded with "=", "base64url" is not (it goes into link fragments and headers, where "=" is noise). */
export function encodeBase64(bytes: Uint8Array, alphabet: Alphabet = "base64"): string {
  if (hasNative()) return bytes.toBase64({ alphabet, omitPadding: alphabet === "base64url" });
  return encodeWithTable(bytes, alphabet);
}

function encodeWithTable(bytes: Uint8Array, alphabet: Alphabet): string {
  const table = ENCODE[alphabet];
  const whole = bytes.length - (bytes.length % 3);
  const out = new Uint8Array(encodedLength(bytes.length, alphabet));
  let o = 0;
  for (let i = 0; i < whole; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out[o++] = table[n >>> 18]!;
    out[o++] = table[(n >>> 12) & 63]!;
    out[o++] = table[(n >>> 6) & 63]!;
    out[o++] = table[n & 63]!;
  }
  if (whole < bytes.length) {
    const two = whole + 1 < bytes.length;
    const n = (bytes[whole]! << 16) | (two ? bytes[whole + 1]! << 8 : 0);
    out[o++] = table[n >>> 18]!;
    out[o++] = table[(n >>> 12) & 63]!;
    if (two) out[o++] = table[(n >>> 6) & 63]!;
    out.fill(0x3d, o); // "=" padding, when the alphabet has it
  }
  return ASCII.decode(out);
}

function encodedLength(byteLength: number, alphabet: Alphabet): number {
  return alphabet === "base64" ? Math.ceil(byteLength / 3) * 4 : Math.ceil((byteLength * 4) / 3);
}

/** Throws a Base64Error naming the first problem (and its position) when `text` is not canonical base64. */
export function decodeBase64(text: string, alphabet: Alphabet = "base64"): Uint8Array<ArrayBuffer> {
  const dataChars = checkedDataLength(text, alphabet);
  const bytes = hasNative() ? decodeNative(text, dataChars, alphabet) : decodeWithTable(text, dataChars, alphabet);
  if (!bytes) throw invalidCharacter(text, dataChars, alphabet);
  return bytes;
}

/** The number of characters before the padding, once length, padding and unused bits are known to be right. */
function checkedDataLength(text: string, alphabet: Alphabet): number {
  let end = text.length;
  if (alphabet === "base64") {
    if (end % 4 !== 0) throw new Base64Error(`Invalid base64: length ${end} is not a multiple of 4.`);
    while (end > 0 && end > text.length - 2 && text.charCodeAt(end - 1) === 0x3d) end--;
  }
  if (end % 4 === 1) throw new Base64Error(`Invalid ${alphabet}: ${end} characters cannot encode whole bytes.`);
  checkUnusedBits(text, end, alphabet);
  return end;
}

/** A final partial group's low bits fall outside the data; non-zero there would give a second text for the same bytes. */
function checkUnusedBits(text: string, end: number, alphabet: Alphabet): void {
  const unusedMask = [0, 0, 0x0f, 0x03][end % 4]!;
  if (unusedMask === 0) return;
  const value = DECODE[alphabet][text.charCodeAt(end - 1)] ?? INVALID;
  if (value !== INVALID && (value & unusedMask) !== 0) {
    throw new Base64Error(`Invalid ${alphabet}: the last character ${describe(text, end - 1)} has bits set beyond the data (not canonical).`);
  }
}

/** Null when a character is outside the alphabet; the caller explains which. */
function decodeNative(text: string, dataChars: number, alphabet: Alphabet): Uint8Array<ArrayBuffer> | null {
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = Uint8Array.fromBase64(text, { alphabet, lastChunkHandling: "loose" });
  } catch {
    return null;
  }
  // The native decoder skips ASCII whitespace; the table decoder does not. Each skipped character shortens
  // the output, so a length check keeps both decoders to one grammar without scanning the text again.
  return bytes.length === decodedLength(dataChars) ? bytes : null;
}

function decodeWithTable(text: string, dataChars: number, alphabet: Alphabet): Uint8Array<ArrayBuffer> | null {
  const table = DECODE[alphabet];
  const out = new Uint8Array(decodedLength(dataChars));
  const whole = dataChars - (dataChars % 4);
  // Codes above 127 read as undefined (0 in the arithmetic) but set high bits here, as INVALID values do.
  let seen = 0;
  let o = 0;
  for (let i = 0; i < whole; i += 4) {
    const a = text.charCodeAt(i);
    const b = text.charCodeAt(i + 1);
    const c = text.charCodeAt(i + 2);
    const d = text.charCodeAt(i + 3);
    const va = table[a]!;
    const vb = table[b]!;
    const vc = table[c]!;
    const vd = table[d]!;
    seen |= a | b | c | d | va | vb | vc | vd;
    const n = (va << 18) | (vb << 12) | (vc << 6) | vd;
    out[o++] = n >>> 16;
    out[o++] = n >>> 8;
    out[o++] = n;
  }
  for (let i = whole, bits = 0, n = 0; i < dataChars; i++) {
    const code = text.charCodeAt(i);
    seen |= code | table[code]!;
    n = (n << 6) | table[code]!;
    bits += 6;
    if (bits >= 8) out[o++] = n >>> (bits -= 8);
  }
  return seen & ~0x7f ? null : out;
}

function decodedLength(dataChars: number): number {
  return Math.floor((dataChars * 3) / 4);
}

function invalidCharacter(text: string, dataChars: number, alphabet: Alphabet): Base64Error {
  const table = DECODE[alphabet];
  for (let i = 0; i < dataChars; i++) {
    if ((table[text.charCodeAt(i)] ?? INVALID) === INVALID) {
      return new Base64Error(`Invalid ${alphabet}: ${describe(text, i)} is not in the alphabet.`);
    }
  }
  return new Base64Error(`Invalid ${alphabet}.`);
}

function describe(text: string, at: number): string {
  const char = String.fromCodePoint(text.codePointAt(at)!);
  return `${JSON.stringify(char)} (U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}) at position ${at}`;
}
