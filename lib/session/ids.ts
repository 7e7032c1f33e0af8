/**
 * Id makers. Isomorphic: Web Crypto exists in browsers and in Node ≥ 19.
 */

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

function randomBytes(n: number): Uint8Array {
  const out = new Uint8Array(n);
  globalThis.crypto.getRandomValues(out);
  return out;
}

/** A UUIDv7 (time-ordered), the form pi gives session ids. */
export function uuidv7(now: number = Date.now()): string {
  const b = randomBytes(16);
  let t = now;
  for (let i = 5; i >= 0; i--) {
    b[i] = t & 0xff;
    t = Math.floor(t / 256);
  }
  b[6] = (b[6]! & 0x0f) | 0x70;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = hex(b);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** An 8-hex-digit entry id not in `taken`, like pi's `generateId`. */
export function randomEntryId(taken: { has(id: string): boolean }): string {
  for (let i = 0; i < 100; i++) {
    const id = hex(randomBytes(4));
    if (!taken.has(id)) return id;
  }
  return globalThis.crypto.randomUUID();
}

/** FNV-1a, 32 bit: a cheap, stable hash for deterministic ids. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * The id our v1 migration gives entry k. pi draws random ids here; ours are
 * derived from the session id and position so that two loads agree (links and
 * exports stay stable), with pi's shape: 8 lowercase hex digits, no repeats.
 */
export function deterministicEntryId(seed: string, k: number, taken: Set<string>): string {
  for (let salt = 0; ; salt++) {
    const id = fnv1a(`${seed}\u0000${k}\u0000${salt}`).toString(16).padStart(8, "0");
    if (!taken.has(id)) {
      taken.add(id);
      return id;
    }
  }
}
