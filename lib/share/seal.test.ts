import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DEFAULT_ITERATIONS, lockOf, type Lock, type Protection, seal, type Sealed, type Secret, ShareFormatError, unseal, WrongSecretError } from "./seal";

// PBKDF2 at the default count takes about half a second; one test checks the default, the rest go fast.
const FAST = { iterations: 1000 };
const PASSWORD = "correct horse battery staple";
const LOCKS: Lock[] = ["none", "password", "key"];

function protection(lock: Lock): Protection {
  return lock === "password" ? { kind: "password", password: PASSWORD } : { kind: lock };
}

function secretOf(lock: Lock, sealed: Sealed): Secret | undefined {
  if (lock === "password") return { password: PASSWORD };
  return lock === "key" ? { key: sealed.key! } : undefined;
}

async function roundTrip(lock: Lock, bytes: Uint8Array): Promise<Uint8Array> {
  const sealed = await seal(bytes, protection(lock), FAST);
  return unseal(sealed.text, secretOf(lock, sealed));
}

// --- the text, taken apart with Node's own base64 so the tests do not trust the code under test ---

function parts(text: string): { head: string; header: string; body: string } {
  const [magic, header, body] = text.split(".");
  return { head: `${magic}.${header}`, header: header!, body: body! };
}

function headerOf(text: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(parts(text).header, "base64url").toString("utf8"));
}

function withHeader(text: string, header: unknown): string {
  return `pishare1.${Buffer.from(JSON.stringify(header)).toString("base64url")}.${parts(text).body}`;
}

function withBody(text: string, change: (body: Uint8Array) => void): string {
  const body = new Uint8Array(Buffer.from(parts(text).body, "base64"));
  change(body);
  return `${parts(text).head}.${Buffer.from(body).toString("base64")}`;
}

function flipByte(bytes: Uint8Array, at: number): void {
  bytes[at]! ^= 0x01;
}

/** The header with one byte of the base64url field at `path` (e.g. ["kdf", "salt"]) flipped. */
function flippedField(header: Record<string, unknown>, path: string[]): Record<string, unknown> {
  const copy = structuredClone(header);
  const owner = path.slice(0, -1).reduce<Record<string, unknown>>((object, key) => object[key] as Record<string, unknown>, copy);
  const field = path.at(-1)!;
  const bytes = new Uint8Array(Buffer.from(owner[field] as string, "base64url"));
  flipByte(bytes, 0);
  owner[field] = Buffer.from(bytes).toString("base64url");
  return copy;
}

async function expectRefused(text: string, secret: Secret | undefined): Promise<void> {
  const error = await unseal(text, secret).then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error instanceof ShareFormatError || error instanceof WrongSecretError, `accepted or failed oddly: ${String(error)}`).toBe(true);
}

describe("seal and unseal", () => {
  it.each(LOCKS)("round-trip the bytes (%s), empty ones included", async (lock) => {
    expect(await roundTrip(lock, new Uint8Array())).toEqual(new Uint8Array());
    const bytes = new Uint8Array(randomBytes(5 * 1024 * 1024));
    expect(Buffer.compare(await roundTrip(lock, bytes), bytes)).toBe(0);
  });

  it("seal the view it is given, also over a SharedArrayBuffer", async () => {
    const shared = new Uint8Array(new SharedArrayBuffer(16)).fill(7);
    expect(await roundTrip("key", shared)).toEqual(new Uint8Array(16).fill(7));
    expect(await roundTrip("password", new Uint8Array([1, 2, 3, 4, 5]).subarray(1, 3))).toEqual(new Uint8Array([2, 3]));
  });

  it("accept the payload on a line of its own, as HTML may put it", async () => {
    const sealed = await seal(new Uint8Array([1, 2, 3]), protection("key"));
    expect(await unseal(`\n    ${sealed.text}\n  `, secretOf("key", sealed))).toEqual(new Uint8Array([1, 2, 3]));
  });

  it("open a password typed in another Unicode normal form", async () => {
    const sealed = await seal(new Uint8Array([9]), { kind: "password", password: "caf\u00e9" }, FAST);
    expect(await unseal(sealed.text, { password: "cafe\u0301" })).toEqual(new Uint8Array([9]));
  });

  it("refuse an empty password or an iteration count out of range when sealing", async () => {
    await expect(seal(new Uint8Array(), { kind: "password", password: "" })).rejects.toThrow(/must not be empty/);
    await expect(seal(new Uint8Array(), protection("password"), { iterations: 0 })).rejects.toThrow(RangeError);
    await expect(seal(new Uint8Array(), protection("password"), { iterations: 1e9 })).rejects.toThrow(RangeError);
  });
});

describe("the payload text", () => {
  it.each(LOCKS)("is one token of letters, digits and +/=._- (%s)", async (lock) => {
    const { text } = await seal(new Uint8Array(randomBytes(1000)), protection(lock), FAST);
    expect(text).toMatch(/^pishare1\.[A-Za-z0-9_-]+\.[A-Za-z0-9+/]+={0,2}$/);
  });

  it("tells the opener which lock it has", async () => {
    for (const lock of LOCKS) expect(lockOf((await seal(new Uint8Array([1]), protection(lock), FAST)).text)).toBe(lock);
  });

  it("has a header with what opening needs and neither password nor key", async () => {
    const locked = await seal(new Uint8Array([1]), protection("password"), FAST);
    const header = headerOf(locked.text);
    expect(Object.keys(header).sort()).toEqual(["iv", "kdf", "lock"]);
    expect(header.kdf).toEqual({ name: "PBKDF2", hash: "SHA-256", iterations: 1000, salt: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/) });
    expect(JSON.stringify(header)).not.toContain(PASSWORD);

    const keyed = await seal(new Uint8Array([1]), protection("key"));
    expect(keyed.key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Object.keys(headerOf(keyed.text)).sort()).toEqual(["iv", "lock"]);
    expect(keyed.text).not.toContain(keyed.key);
  });

  it("uses the OWASP iteration count by default", async () => {
    const { text } = await seal(new Uint8Array([1]), protection("password"));
    expect(DEFAULT_ITERATIONS).toBe(600_000);
    expect((headerOf(text).kdf as { iterations: number }).iterations).toBe(600_000);
  });

  it("differs between two seals of the same bytes when locked (fresh IV, salt and key)", async () => {
    const bytes = new Uint8Array(64);
    const [a, b] = await Promise.all([seal(bytes, protection("password"), FAST), seal(bytes, protection("password"), FAST)]);
    expect(headerOf(a.text).iv).not.toBe(headerOf(b.text).iv);
    expect((headerOf(a.text).kdf as { salt: string }).salt).not.toBe((headerOf(b.text).kdf as { salt: string }).salt);
    expect(parts(a.text).body).not.toBe(parts(b.text).body);
    const [c, d] = await Promise.all([seal(bytes, protection("key")), seal(bytes, protection("key"))]);
    expect(c.key).not.toBe(d.key);
    expect(headerOf(c.text).iv).not.toBe(headerOf(d.text).iv);
  });
});

describe("unseal refuses", () => {
  it("a wrong password or key", async () => {
    const locked = await seal(new Uint8Array([1, 2]), protection("password"), FAST);
    await expect(unseal(locked.text, { password: `${PASSWORD}!` })).rejects.toThrow(WrongSecretError);
    await expect(unseal(locked.text, { password: `${PASSWORD}!` })).rejects.toThrow(/Wrong password/);
    const keyed = await seal(new Uint8Array([1, 2]), protection("key"));
    const other = await seal(new Uint8Array([1, 2]), protection("key"));
    await expect(unseal(keyed.text, { key: other.key! })).rejects.toThrow(/wrong key/);
    await expect(unseal(keyed.text, { key: keyed.key!.slice(0, 40) })).rejects.toThrow(WrongSecretError);
    await expect(unseal(keyed.text, { key: keyed.key!.slice(0, 40) })).rejects.toThrow(/malformed/);
  });

  it("a locked payload without its kind of secret, saying what is needed", async () => {
    const locked = await seal(new Uint8Array([1]), protection("password"), FAST);
    const keyed = await seal(new Uint8Array([1]), protection("key"));
    for (const secret of [undefined, { key: keyed.key! }, { password: "" }]) {
      await expect(unseal(locked.text, secret)).rejects.toThrow(WrongSecretError);
      await expect(unseal(locked.text, secret)).rejects.toThrow(/a password is needed/);
    }
    for (const secret of [undefined, { password: PASSWORD }]) {
      await expect(unseal(keyed.text, secret)).rejects.toThrow(WrongSecretError);
      await expect(unseal(keyed.text, secret)).rejects.toThrow(/locked with a key.*#k=/);
    }
  });

  it.each(LOCKS)("a body with a byte flipped (the tag's included) or cut short (%s)", async (lock) => {
    const sealed = await seal(new Uint8Array(randomBytes(100)), protection(lock), FAST);
    const bodyBytes = Buffer.from(parts(sealed.text).body, "base64").length;
    for (const at of [0, 50, 99, bodyBytes - 1]) {
      await expectRefused(
        withBody(sealed.text, (body) => flipByte(body, at % bodyBytes)),
        secretOf(lock, sealed),
      );
    }
    await expectRefused(sealed.text.slice(0, -4), secretOf(lock, sealed));
  });

  it.each([
    ["password", ["iv"]],
    ["password", ["kdf", "salt"]],
    ["key", ["iv"]],
    ["none", ["sha256"]],
  ] as const)("a %s payload with a byte of its header's %j flipped", async (lock, path) => {
    const sealed = await seal(new Uint8Array(randomBytes(100)), protection(lock), FAST);
    await expectRefused(withHeader(sealed.text, flippedField(headerOf(sealed.text), [...path])), secretOf(lock, sealed));
  });

  it.each(["password", "key"] as const)("a %s payload whose header was rewritten with the same values", async (lock) => {
    // Same IV, salt and count, so the key and nonce are unchanged: only the header's binding as
    // additional authenticated data can notice.
    const sealed = await seal(new Uint8Array([1, 2, 3]), protection(lock), FAST);
    const rewritten = withHeader(sealed.text, { ...headerOf(sealed.text), note: "swapped" });
    await expect(unseal(rewritten, secretOf(lock, sealed))).rejects.toThrow(WrongSecretError);
  });

  it.each(LOCKS)("every single-character change to a %s payload", async (lock) => {
    const sealed = await seal(new Uint8Array(randomBytes(40)), protection(lock), FAST);
    const { text } = sealed;
    for (let at = 0; at < text.length; at++) {
      const changed = `${text.slice(0, at)}${text[at] === "A" ? "B" : "A"}${text.slice(at + 1)}`;
      await expectRefused(changed, secretOf(lock, sealed));
    }
  });
});

describe("malformed payloads", () => {
  const header = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const sha256 = Buffer.alloc(32).toString("base64url");
  const iv = Buffer.alloc(12).toString("base64url");
  const salt = Buffer.alloc(16).toString("base64url");
  const kdf = (fields: object) => ({ lock: "password", iv, kdf: { name: "PBKDF2", hash: "SHA-256", iterations: 1000, salt, ...fields } });

  it.each([
    ["empty text", "", /not a pi share payload.*"pishare1\."/],
    ["prose", "hello world", /not a pi share payload/],
    ["markup", "<html><body>", /not a pi share payload/],
    ["a non-canonical version", "pishare01.e30.AAAA", /not a pi share payload/],
    ["a newer version", "pishare2.e30.AAAA", /format version 2.*newer viewer/],
    ["no header", "pishare1", /ends inside its header/],
    ["a header that is not base64url", "pishare1.!!!.AAAA", /header does not decode/],
    ["a header that is not an object", `pishare1.${header([1])}.AAAA`, /header is not an object/],
    ["an unknown lock", `pishare1.${header({ lock: "rot13" })}.AAAA`, /no lock this viewer knows/],
    ["a short IV", `pishare1.${header({ lock: "key", iv: "short" })}.AAAA`, /"iv" is not 12 base64url bytes/],
    ["an unknown key derivation", `pishare1.${header(kdf({ name: "argon2id" }))}.AAAA`, /key derivation .* PBKDF2/],
    ["a huge iteration count", `pishare1.${header(kdf({ iterations: 1e12 }))}.AAAA`, /invalid PBKDF2 iteration count/],
    ["a fractional iteration count", `pishare1.${header(kdf({ iterations: 1.5 }))}.AAAA`, /invalid PBKDF2 iteration count/],
  ])("%s: a ShareFormatError saying what is wrong, from lockOf and unseal", async (_, text, message) => {
    expect(() => lockOf(text)).toThrow(ShareFormatError);
    expect(() => lockOf(text)).toThrow(message);
    await expect(unseal(text, { password: PASSWORD })).rejects.toThrow(ShareFormatError);
    await expect(unseal(text, { password: PASSWORD })).rejects.toThrow(message);
  });

  it.each(["AA A", "AAAA.AAAA", "AAA"])("%j as the body: a ShareFormatError about the data", async (body) => {
    const text = `pishare1.${header({ lock: "none", sha256 })}.${body}`;
    expect(lockOf(text)).toBe("none");
    await expect(unseal(text)).rejects.toThrow(ShareFormatError);
    await expect(unseal(text)).rejects.toThrow(/data is not valid base64/);
  });

  it("an unlocked payload whose data does not match its checksum", async () => {
    await expect(unseal(`pishare1.${header({ lock: "none", sha256 })}.AAAA`)).rejects.toThrow(/does not match its checksum/);
  });
});
