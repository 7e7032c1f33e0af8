import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Alphabet, Base64Error, decodeBase64, encodeBase64 } from "./base64";

const ALPHABETS: Alphabet[] = ["base64", "base64url"];

function nodeBase64(bytes: Uint8Array, alphabet: Alphabet): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString(alphabet);
}

// Node 20 has no Uint8Array.fromBase64/toBase64, so the engine path is exercised against a stand-in that
// follows the proposal where this module relies on it: "loose" last chunks, ASCII whitespace skipped,
// SyntaxError outside the alphabet, padding omitted on request.
let nativeCalls = 0;

function fakeFromBase64(text: string, options: { alphabet?: Alphabet; lastChunkHandling?: string } = {}): Uint8Array<ArrayBuffer> {
  nativeCalls++;
  const alphabet = options.alphabet ?? "base64";
  if (options.lastChunkHandling !== "loose") throw new Error("the stand-in implements lastChunkHandling: loose only");
  const compact = text.replace(/[\t\n\f\r ]/g, "");
  const grammar = alphabet === "base64" ? /^[A-Za-z0-9+/]*={0,2}$/ : /^[A-Za-z0-9_-]*={0,2}$/;
  const data = compact.replace(/=+$/, "");
  if (!grammar.test(compact) || data.length % 4 === 1 || (data !== compact && compact.length % 4 !== 0)) throw new SyntaxError("invalid base64");
  return new Uint8Array(Buffer.from(data, alphabet));
}

function fakeToBase64(this: Uint8Array, options: { alphabet?: Alphabet; omitPadding?: boolean } = {}): string {
  nativeCalls++;
  const unpadded = nodeBase64(this, "base64url").replace(/=+$/, "");
  const text = options.alphabet === "base64url" ? unpadded : nodeBase64(this, "base64").replace(/=+$/, "");
  return options.omitPadding ? text : text.padEnd(Math.ceil(text.length / 4) * 4, "=");
}

const engineFrom = Object.getOwnPropertyDescriptor(Uint8Array, "fromBase64");
const engineTo = Object.getOwnPropertyDescriptor(Uint8Array.prototype, "toBase64");

function install(from: unknown, to: unknown): void {
  Object.defineProperty(Uint8Array, "fromBase64", { value: from, configurable: true, writable: true });
  Object.defineProperty(Uint8Array.prototype, "toBase64", { value: to, configurable: true, writable: true });
}

function restoreEngine(): void {
  if (engineFrom) Object.defineProperty(Uint8Array, "fromBase64", engineFrom);
  else Reflect.deleteProperty(Uint8Array, "fromBase64");
  if (engineTo) Object.defineProperty(Uint8Array.prototype, "toBase64", engineTo);
  else Reflect.deleteProperty(Uint8Array.prototype, "toBase64");
}

const CODECS = [
  { name: "table codec", from: undefined, to: undefined, native: false },
  { name: "native codec (stand-in)", from: fakeFromBase64, to: fakeToBase64, native: true },
];

describe.each(CODECS)("$name", ({ from, to, native }) => {
  beforeAll(() => {
    install(from, to);
    nativeCalls = 0;
  });
  afterAll(restoreEngine);

  it.each(ALPHABETS)("round-trips every length from 0 to 70 like Node's Buffer (%s)", (alphabet) => {
    for (let length = 0; length <= 70; length++) {
      const bytes = new Uint8Array(randomBytes(length));
      const text = encodeBase64(bytes, alphabet);
      expect(text).toBe(nodeBase64(bytes, alphabet));
      expect(decodeBase64(text, alphabet)).toEqual(bytes);
    }
    expect(nativeCalls > 0).toBe(native);
  });

  it("round-trips 30 MB", () => {
    const bytes = new Uint8Array(randomBytes(30 * 1024 * 1024));
    for (const alphabet of ALPHABETS) {
      const text = encodeBase64(bytes, alphabet);
      expect(text === nodeBase64(bytes, alphabet)).toBe(true);
      expect(Buffer.compare(decodeBase64(text, alphabet), bytes)).toBe(0);
    }
  });

  it("encodes a view at its offset, not its whole buffer", () => {
    const view = new Uint8Array([0, 1, 2, 3, 4, 5, 6]).subarray(2, 6);
    expect(encodeBase64(view)).toBe("AgMEBQ==");
  });

  it.each([
    ["QUJD$A==", "base64", /"\$" \(U\+0024\) at position 4 is not in the alphabet/],
    ["QUJDRé==", "base64", /"é" \(U\+00E9\) at position 5/],
    ["QUJD😀==", "base64", /"😀" \(U\+1F600\) at position 4/],
    ["QU D", "base64", /" " \(U\+0020\) at position 2/],
    ["QUJ\nRUZH", "base64", /"\\n" \(U\+000A\) at position 3/],
    ["QU-D", "base64", /"-" .* at position 2/],
    ["QU+D", "base64url", /"\+" .* at position 2/],
    ["QQ==", "base64url", /"=" .* at position 2/],
    ["====", "base64", /"=" .* at position 0/],
    ["QUJ", "base64", /length 3 is not a multiple of 4/],
    ["QUJDR", "base64url", /5 characters cannot encode whole bytes/],
    ["QR==", "base64", /last character "R" .* bits set beyond the data/],
    ["QUJ=", "base64", /last character "J" .* bits set beyond the data/],
    ["QR", "base64url", /last character "R" .* bits set beyond the data/],
  ] as const)("rejects %j as %s", (text, alphabet, message) => {
    expect(() => decodeBase64(text, alphabet)).toThrow(Base64Error);
    expect(() => decodeBase64(text, alphabet)).toThrow(message);
  });
});
