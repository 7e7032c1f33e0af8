/**
 * Seals a share's bytes into the text a share file embeds, and opens it again. Runs in Node (the CLI) and in
 * the page that opens the file (from file://, in a worker or not), so it uses WebCrypto and lib/share/base64
 * only — no Node modules, no Buffer.
 *
 * Text format (version 1): `pishare1.<header>.<body>`
 * - `pishare1` names the format and its version in one token, so the opener can tell "not a share" from "a
 *   share from a newer viewer" before it parses anything.
 * - `<header>` is base64url of a JSON object. JSON so a later version can add fields; base64url so it holds
 *   anything yet never a character HTML would act on, and so the whole text is one token to copy.
 *     {"lock":"none","sha256":B}
 *     {"lock":"key","iv":B}
 *     {"lock":"password","iv":B,"kdf":{"name":"PBKDF2","hash":"SHA-256","iterations":N,"salt":B}}
 *   (B: base64url bytes.) It holds what opening needs besides the secret, never the secret. The iteration
 *   count travels with the file so the default can rise later and older files still open.
 * - `<body>` is padded standard base64 (the alphabet every decoder defaults to) of the AES-256-GCM ciphertext
 *   with its tag, or of the bytes themselves for "none".
 * - The additional authenticated data is the ASCII text `pishare1.<header>` as written: editing the header
 *   (a lower iteration count, another IV, a different lock) fails authentication instead of being believed.
 * - "none" carries a SHA-256 of the bytes so a damaged unlocked share is refused like a damaged locked one,
 *   rather than handing garbage to the decompressor.
 * Base64 decoding is canonical (see base64.ts), so every change to the text changes what is authenticated.
 */
import { Base64Error, decodeBase64, encodeBase64 } from "./base64";
import { isObject } from "@/lib/session/json";

export type Protection = { kind: "none" } | { kind: "password"; password: string } | { kind: "key" };
export type Lock = "none" | "password" | "key";
export type Secret = { password: string } | { key: string };

export interface Sealed {
  /** the payload text to embed: ASCII letters, digits and `+/=._-` only */
  text: string;
  /** for kind "key": the random key as base64url (43 characters), for a link fragment `#k=…`; else null */
  key: string | null;
}

export interface SealOptions {
  /** PBKDF2 iterations for a password; lower only in tests, where the default would make the suite slow */
  iterations?: number;
}

/** Not a share payload, a damaged one, or one from a newer format version. */
export class ShareFormatError extends Error {
  override name = "ShareFormatError";
}

/** The password or key is wrong (or the share was altered, which AES-GCM cannot tell apart), or none was given. */
export class WrongSecretError extends Error {
  override name = "WrongSecretError";
}

/** OWASP's recommendation for PBKDF2-HMAC-SHA256 (Password Storage Cheat Sheet, 2023). */
export const DEFAULT_ITERATIONS = 600_000;
/** A file sets its own count; this bound keeps a crafted one from stalling the opener for minutes. */
const MAX_ITERATIONS = 10_000_000;

const MAGIC = "pishare";
const VERSION = 1;
const IV_BYTES = 12;
const SALT_BYTES = 16;
const KEY_BYTES = 32;
const SHA256_BYTES = 32;

type Bytes = Uint8Array<ArrayBuffer>;
type Kdf = { salt: Bytes; iterations: number };
type LockedHeader = { lock: "key"; iv: Bytes } | ({ lock: "password"; iv: Bytes } & Kdf);
type Header = { lock: "none"; sha256: Bytes } | LockedHeader;

const NEEDED: Record<LockedHeader["lock"], string> = {
  key: "This share is locked with a key: open it with the whole link, including its #k=… part.",
  password: "This share is locked with a password: a password is needed to open it.",
};
const WRONG: Record<LockedHeader["lock"], string> = {
  key: "The key does not open this share (wrong key, or the share was altered).",
  password: "Wrong password (or the share was altered).",
};

const UTF8 = new TextEncoder();
const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });

export async function seal(bytes: Uint8Array, protection: Protection, options: SealOptions = {}): Promise<Sealed> {
  const plain = ownBuffer(bytes);
  switch (protection.kind) {
    case "none":
      return { text: assemble(headerText({ lock: "none", sha256: await sha256(plain) }), plain), key: null };
    case "key":
      return sealWithKey(plain);
    case "password":
      return sealWithPassword(plain, protection.password, options.iterations ?? DEFAULT_ITERATIONS);
  }
}

async function sealWithKey(plain: Bytes): Promise<Sealed> {
  const raw = randomBytes(KEY_BYTES);
  const text = await encrypted({ lock: "key", iv: randomBytes(IV_BYTES) }, await aesKey(raw, "encrypt"), plain);
  return { text, key: encodeBase64(raw, "base64url") };
}

async function sealWithPassword(plain: Bytes, password: string, iterations: number): Promise<Sealed> {
  if (password === "") throw new RangeError("A share password must not be empty.");
  if (!validIterations(iterations)) throw new RangeError(`PBKDF2 iterations must be an integer from 1 to ${MAX_ITERATIONS}.`);
  const header = { lock: "password", iv: randomBytes(IV_BYTES), salt: randomBytes(SALT_BYTES), iterations } as const;
  return { text: await encrypted(header, await passwordKey(password, header, "encrypt"), plain), key: null };
}

/** What the opener must ask for before it can unseal `text`; cheap, as the body is not decoded. */
export function lockOf(text: string): Lock {
  return parse(text).header.lock;
}

export async function unseal(text: string, secret?: Secret): Promise<Bytes> {
  const { header, aad, body } = parse(text);
  if (header.lock === "none") return checked(decodeBody(body), header.sha256);
  const key = await openingKey(header, secret);
  return decrypt(key, header.iv, aad, decodeBody(body), WRONG[header.lock]);
}

/**
 * An unlocked share's bytes as a stream, decoded a piece at a time so the reader starts on the first piece
 * instead of after the whole body. The checksum is not checked on this path: what the viewer streams is gzip,
 * whose own CRC-32 and length the decompressor checks, failing the stream on damage.
 */
export function unsealedStream(text: string, pieceChars = 1 << 22): ReadableStream<Uint8Array> {
  const { header, body } = parse(text);
  if (header.lock !== "none") throw new WrongSecretError(NEEDED[header.lock]);
  const step = pieceChars - (pieceChars % 4) || 4; // whole base64 groups, so each piece decodes alone
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= body.length) return controller.close();
      const end = Math.min(body.length, at + step);
      controller.enqueue(decodeBody(body.slice(at, end)));
      at = end;
    },
  });
}

async function checked(data: Bytes, digest: Bytes): Promise<Bytes> {
  if (!equal(await sha256(data), digest)) throw new ShareFormatError("The share is damaged: its data does not match its checksum.");
  return data;
}

/** Asked before the body is decoded, so a missing secret is reported at once even for a big share. */
async function openingKey(header: LockedHeader, secret: Secret | undefined): Promise<CryptoKey> {
  if (header.lock === "key") {
    if (!secret || !("key" in secret)) throw new WrongSecretError(NEEDED.key);
    return aesKey(rawKey(secret.key), "decrypt");
  }
  if (!secret || !("password" in secret) || secret.password === "") throw new WrongSecretError(NEEDED.password);
  return passwordKey(secret.password, header, "decrypt");
}

// --- text ---

function assemble(head: string, body: Uint8Array): string {
  return `${head}.${encodeBase64(body)}`;
}

function headerText(header: Header): string {
  return `${MAGIC}${VERSION}.${encodeBase64(UTF8.encode(JSON.stringify(headerJson(header))), "base64url")}`;
}

function headerJson(header: Header): Record<string, unknown> {
  const b64 = (bytes: Uint8Array) => encodeBase64(bytes, "base64url");
  switch (header.lock) {
    case "none":
      return { lock: "none", sha256: b64(header.sha256) };
    case "key":
      return { lock: "key", iv: b64(header.iv) };
    case "password": {
      const kdf = { name: "PBKDF2", hash: "SHA-256", iterations: header.iterations, salt: b64(header.salt) };
      return { lock: "password", iv: b64(header.iv), kdf };
    }
  }
}

/** `aad` is the text up to the body, as the seal authenticated it. */
function parse(text: string): { header: Header; aad: Bytes; body: string } {
  // The HTML around the payload may put it on a line of its own.
  const trimmed = text.trim();
  const headerStart = trimmed.indexOf(".") + 1;
  checkVersion(headerStart > 0 ? trimmed.slice(0, headerStart - 1) : trimmed);
  const bodyStart = trimmed.indexOf(".", headerStart) + 1;
  if (bodyStart === 0) throw new ShareFormatError("The share is damaged: it ends inside its header.");
  return {
    header: readHeader(trimmed.slice(headerStart, bodyStart - 1)),
    aad: UTF8.encode(trimmed.slice(0, bodyStart - 1)),
    body: trimmed.slice(bodyStart),
  };
}

function checkVersion(magic: string): void {
  if (magic === `${MAGIC}${VERSION}`) return;
  const version = /^pishare([1-9]\d{0,5})$/.exec(magic)?.[1];
  if (version === undefined) throw new ShareFormatError(`This is not a pi share payload (it does not start with "${MAGIC}${VERSION}.").`);
  throw new ShareFormatError(`This share has format version ${version}; this viewer reads version ${VERSION} only. Open it with a newer viewer.`);
}

function readHeader(encoded: string): Header {
  const json = headerObject(encoded);
  switch (json.lock) {
    case "none":
      return { lock: "none", sha256: bytesField(json, "sha256", SHA256_BYTES) };
    case "key":
      return { lock: "key", iv: bytesField(json, "iv", IV_BYTES) };
    case "password":
      return { lock: "password", iv: bytesField(json, "iv", IV_BYTES), ...readKdf(json.kdf) };
    default:
      throw new ShareFormatError("The share's header names no lock this viewer knows.");
  }
}

function headerObject(encoded: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(STRICT_UTF8.decode(decodeBase64(encoded, "base64url")));
  } catch {
    throw new ShareFormatError("The share is damaged: its header does not decode.");
  }
  if (!isObject(value)) throw new ShareFormatError("The share is damaged: its header is not an object.");
  return value;
}

function readKdf(kdf: unknown): Kdf {
  if (!isObject(kdf) || kdf.name !== "PBKDF2" || kdf.hash !== "SHA-256") {
    throw new ShareFormatError("The share's header names a key derivation this viewer does not know (expected PBKDF2 with SHA-256).");
  }
  if (!validIterations(kdf.iterations)) throw new ShareFormatError(`The share's header asks for an invalid PBKDF2 iteration count (1 to ${MAX_ITERATIONS}).`);
  return { salt: bytesField(kdf, "salt", SALT_BYTES), iterations: kdf.iterations };
}

function bytesField(object: Record<string, unknown>, name: string, length: number): Bytes {
  const value = object[name];
  const bytes = typeof value === "string" ? fromBase64url(value) : null;
  if (bytes?.length !== length) throw new ShareFormatError(`The share is damaged: its header's "${name}" is not ${length} base64url bytes.`);
  return bytes;
}

function decodeBody(body: string): Bytes {
  try {
    return decodeBase64(body);
  } catch (error) {
    if (error instanceof Base64Error) throw new ShareFormatError(`The share is damaged: its data is not valid base64 (${error.message})`);
    throw error;
  }
}

function fromBase64url(text: string): Bytes | null {
  try {
    return decodeBase64(text, "base64url");
  } catch {
    return null;
  }
}

function validIterations(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= MAX_ITERATIONS;
}

// --- crypto ---

function subtle(): SubtleCrypto {
  const subtle = globalThis.crypto?.subtle;
  // Browsers hide WebCrypto outside secure contexts (e.g. a page served over plain http from another host).
  if (!subtle) throw new Error("WebCrypto is not available here, so the share cannot be sealed or opened.");
  return subtle;
}

function randomBytes(length: number): Bytes {
  return globalThis.crypto.getRandomValues(new Uint8Array(length));
}

async function sha256(bytes: Bytes): Promise<Bytes> {
  return new Uint8Array(await subtle().digest("SHA-256", bytes));
}

async function encrypted(header: LockedHeader, key: CryptoKey, plain: Bytes): Promise<string> {
  const head = headerText(header);
  const sealed = await subtle().encrypt({ name: "AES-GCM", iv: header.iv, additionalData: UTF8.encode(head) }, key, plain);
  return assemble(head, new Uint8Array(sealed));
}

async function decrypt(key: CryptoKey, iv: Bytes, aad: Bytes, data: Bytes, wrong: string): Promise<Bytes> {
  try {
    return new Uint8Array(await subtle().decrypt({ name: "AES-GCM", iv, additionalData: aad }, key, data));
  } catch (error) {
    // OperationError is how WebCrypto reports a failed GCM tag check; anything else is not about the secret.
    if (error instanceof Error && error.name === "OperationError") throw new WrongSecretError(wrong);
    throw error;
  }
}

function aesKey(raw: Bytes, usage: KeyUsage): Promise<CryptoKey> {
  return subtle().importKey("raw", raw, "AES-GCM", false, [usage]);
}

function rawKey(key: string): Bytes {
  const raw = fromBase64url(key);
  if (raw?.length !== KEY_BYTES) throw new WrongSecretError("The key is malformed (expected 43 base64url characters): check that the link was copied whole.");
  return raw;
}

async function passwordKey(password: string, kdf: Kdf, usage: KeyUsage): Promise<CryptoKey> {
  // NFC: the same typed password can reach us composed or decomposed depending on the OS and keyboard.
  const material = await subtle().importKey("raw", UTF8.encode(password.normalize("NFC")), "PBKDF2", false, ["deriveKey"]);
  const params = { name: "PBKDF2", hash: "SHA-256", salt: kdf.salt, iterations: kdf.iterations };
  return subtle().deriveKey(params, material, { name: "AES-GCM", length: 256 }, false, [usage]);
}

// --- bytes ---

/** WebCrypto refuses views of a SharedArrayBuffer; copy only then. */
function ownBuffer(bytes: Uint8Array): Bytes {
  return bytes.buffer instanceof ArrayBuffer ? (bytes as Bytes) : bytes.slice();
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
