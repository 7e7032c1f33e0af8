import { ByteChecksum } from "./byte-checksum";

/**
 * A graph of objects as bytes and back: plain objects and arrays, Maps, Sets, typed arrays, and instances of
 * the classes it is told about, with shared and cyclic references kept. What an index built from a file is
 * can be kept and restored without reading the file again; since every field of a known class goes in (but
 * those named transient), a field added later goes in too, and a value the codec cannot keep (a function, a
 * WeakMap, an unknown class) is an error when it is written, never a silent loss.
 *
 * Layout: "PIOS", u32 format, u32 JSON bytes, the checksum (byte-checksum.ts, two u32) of every byte but its
 * own, the JSON (UTF-8), zeros to a multiple of 8, then each typed array's bytes at a multiple of 8. In the JSON an object with a "$" key is a tag: r (a reference to the n-th
 * object or array met, in the order written), u (undefined), n (a number JSON cannot write), o (a plain object
 * with a "$" key of its own), m (Map: its keys, then its values, as lists), s (Set), t (typed array), c (class
 * instance), x (a transient field, made fresh where it stood: an instance's fields keep their order, and so V8's
 * shape for it); a long list of strings or numbers: sd (codes into a set of strings), sj (strings joined by NUL),
 * nf (doubles). Little-endian.
 */

/** A class whose instances go into a snapshot: its fields, but for `transient` ones, made fresh on restore. */
export interface SnapshotClass {
  name: string;
  prototype: object;
  /** fields left out: on restore each is set to what its function makes (caches, what the reader supplies) */
  transient?: Readonly<Record<string, () => unknown>>;
  /** called once an instance's fields are restored: to make again a transient field that is derived from others */
  restored?: (instance: never) => void;
}

export class SnapshotError extends Error {}

const MAGIC = 0x534f4950; // "PIOS"
const FORMAT = 2;
/** where the checksum is, and the head's size */
const SUM_AT = 12;
const HEAD = 20;

type Typed = Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array;
const TYPED: Record<string, new (buffer: ArrayBufferLike, offset: number, length: number) => Typed> = {
  Int8Array,
  Uint8Array,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
};

const align8 = (n: number) => (n + 7) & ~7;
/** lists at least this long go in a compact form when they can */
const COMPACT = 64;
/** strings from a set at most this large are written as codes into it */
const DICTIONARY = 4096;
const NUL = "\u0000";
const TRANSIENT = { $: "x" };

/** The graph from `root` as bytes. Throws SnapshotError naming the path of a value it cannot keep. */
export function encodeSnapshot(root: unknown, classes: readonly SnapshotClass[]): Uint8Array {
  const byPrototype = new Map(classes.map((c) => [c.prototype, c]));
  const seen = new Map<object, number>();
  const blobs: Typed[] = [];
  let blobBytes = 0;

  const encode = (value: unknown, where: string): unknown => {
    switch (typeof value) {
      case "string":
      case "boolean":
        return value;
      case "undefined":
        return { $: "u" };
      case "number":
        if (Object.is(value, -0)) return { $: "n", v: "-0" };
        return Number.isFinite(value) ? value : { $: "n", v: String(value) };
      case "object":
        break;
      default:
        throw new SnapshotError(`${where}: a ${typeof value} cannot be kept in a snapshot`);
    }
    if (value === null) return null;
    const ref = seen.get(value);
    if (ref !== undefined) return { $: "r", i: ref };
    seen.set(value, seen.size);
    if (Array.isArray(value)) return encodeList(value, where);
    if (ArrayBuffer.isView(value)) {
      const name = value.constructor.name;
      if (!(name in TYPED)) throw new SnapshotError(`${where}: a ${name} cannot be kept in a snapshot`);
      return { $: "t", c: name, ...blob(value as Typed) };
    }
    if (value instanceof Map) return { $: "m", k: encodeList([...value.keys()], `${where} key`), v: encodeList([...value.values()], `${where} value`) };
    if (value instanceof Set) return { $: "s", v: Array.from(value, (item) => encode(item, `${where} item`)) };
    const prototype = Object.getPrototypeOf(value) as object | null;
    if (prototype === Object.prototype || prototype === null) {
      const fields = encodeFields(value as Record<string, unknown>, where, undefined);
      return "$" in fields ? { $: "o", v: fields } : fields;
    }
    const known = byPrototype.get(prototype);
    if (!known) throw new SnapshotError(`${where}: an instance of ${String((value as object).constructor?.name)} cannot be kept in a snapshot`);
    return { $: "c", c: known.name, v: encodeFields(value as Record<string, unknown>, `${where}.${known.name}`, known.transient) };
  };

  const blob = (typed: Typed) => {
    blobs.push(typed);
    const at = blobBytes;
    blobBytes = align8(blobBytes + typed.byteLength);
    return { o: at, n: typed.length };
  };

  /**
   * A list's items; a long list of strings or of numbers in a compact form (JSON.parse of a million short
   * strings took most of a big session's restore): strings from a small set as codes into it, other strings
   * joined by NUL, numbers as doubles.
   */
  const encodeList = (items: readonly unknown[], where: string): unknown => {
    if (items.length >= COMPACT) {
      if (items.every((item) => typeof item === "string")) {
        const strings = items as readonly string[];
        const codes = new Map<string, number>();
        for (const item of strings) if (!codes.has(item) && codes.size <= DICTIONARY) codes.set(item, codes.size);
        if (codes.size <= DICTIONARY) return { $: "sd", d: [...codes.keys()], ...blob(Uint16Array.from(strings, (item) => codes.get(item)!)) };
        if (!strings.some((item) => item.includes(NUL))) return { $: "sj", v: strings.join(NUL), n: strings.length };
      } else if (items.every((item) => typeof item === "number")) return { $: "nf", ...blob(Float64Array.from(items as readonly number[])) };
    }
    return items.map((item, i) => encode(item, `${where}[${i}]`));
  };

  const encodeFields = (value: Record<string, unknown>, where: string, transient: SnapshotClass["transient"]) => {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      out[key] = transient && key in transient ? TRANSIENT : encode(value[key], `${where}.${key}`);
    }
    return out;
  };

  const json = new TextEncoder().encode(JSON.stringify(encode(root, "root")));
  const base = align8(HEAD + json.byteLength);
  const out = new Uint8Array(base + blobBytes);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, FORMAT, true);
  view.setUint32(8, json.byteLength, true);
  out.set(json, HEAD);
  let at = base;
  for (const blob of blobs) {
    out.set(new Uint8Array(blob.buffer, blob.byteOffset, blob.byteLength), at);
    at = align8(at + blob.byteLength);
  }
  const [sum1, sum2] = checksumOf(out);
  view.setUint32(SUM_AT, sum1, true);
  view.setUint32(SUM_AT + 4, sum2, true);
  return out;
}

/** The checksum of a snapshot's bytes, its own four aside. */
const checksumOf = (bytes: Uint8Array) => new ByteChecksum().update(bytes.subarray(0, SUM_AT)).update(bytes.subarray(HEAD)).words32();

/** The JSON part of a snapshot: its structure and every value but the typed arrays' elements (not checked). */
export function snapshotJson(bytes: Uint8Array): string {
  const length = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(8, true);
  return new TextDecoder().decode(bytes.subarray(HEAD, HEAD + length));
}

/**
 * A snapshot's parts: its JSON, parsed, and the bytes of its typed arrays, from `arraysAt` of a buffer (the
 * snapshot's own when they sit 8-aligned in it, else a copy of them). A worker makes them ahead of the page (they
 * survive a structured clone), which then only revives the graph (reviveSnapshot).
 */
export interface SnapshotParts {
  json: unknown;
  arrays: ArrayBuffer;
  /** where the arrays' bytes begin in `arrays` (a multiple of 8; 0 when absent) */
  arraysAt?: number;
}

/**
 * The parts of the snapshot `bytes`; throws SnapshotError on bytes that are not one. With `ownsBuffer` (nothing
 * else is in `bytes.buffer`), the arrays are left where they are if they sit 8-aligned in it.
 */
export function snapshotParts(bytes: Uint8Array, ownsBuffer = false): SnapshotParts {
  if (bytes.byteLength < HEAD) throw new SnapshotError("the snapshot is too short");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== MAGIC) throw new SnapshotError("not a snapshot");
  if (view.getUint32(4, true) !== FORMAT) throw new SnapshotError(`snapshot format ${view.getUint32(4, true)}, not ${FORMAT}`);
  const length = view.getUint32(8, true);
  if (HEAD + length > bytes.byteLength) throw new SnapshotError("the snapshot is cut short");
  // a flipped bit among the typed arrays would restore an index that lies: nothing below would notice it
  const [sum1, sum2] = checksumOf(bytes);
  if (view.getUint32(SUM_AT, true) !== sum1 || view.getUint32(SUM_AT + 4, true) !== sum2)
    throw new SnapshotError("the snapshot is damaged: its checksum does not match its bytes");
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes.subarray(HEAD, HEAD + length)));
  } catch (error) {
    throw new SnapshotError(`the snapshot's structure is damaged: ${error instanceof Error ? error.message : String(error)}`);
  }
  const base = Math.min(align8(HEAD + length), bytes.byteLength);
  // a 61 MB snapshot's arrays were copied here once more only to begin a buffer
  const at = bytes.byteOffset + base;
  if (ownsBuffer && at % 8 === 0 && bytes.buffer instanceof ArrayBuffer) return { json, arrays: bytes.buffer, arraysAt: at };
  return { json, arrays: bytes.slice(base).buffer };
}

/** The graph `encodeSnapshot` wrote. */
export function decodeSnapshot(bytes: Uint8Array, classes: readonly SnapshotClass[]): unknown {
  return reviveSnapshot(snapshotParts(bytes), classes);
}

/** The graph from a snapshot's parts. Its typed arrays are views into `parts.arrays` (not copied again). */
export function reviveSnapshot(parts: SnapshotParts, classes: readonly SnapshotClass[]): unknown {
  const tree = parts.json;
  const arrays = parts.arrays;
  const arraysAt = parts.arraysAt ?? 0;
  const byName = new Map(classes.map((c) => [c.name, c]));
  const made: unknown[] = [];

  const decode = (value: unknown): unknown => {
    if (value === null || typeof value !== "object") return value;
    if (Array.isArray(value)) return decodeList(value, true);
    const tagged = value as Record<string, unknown>;
    if (!("$" in tagged)) return decodeFields(tagged, {});
    switch (tagged.$) {
      case "r": {
        const i = tagged.i as number;
        if (!(i < made.length)) throw new SnapshotError(`reference to object ${i} before it was made`);
        return made[i];
      }
      case "u":
        return undefined;
      case "n":
        return Number(tagged.v);
      case "o":
        return decodeFields(tagged.v as Record<string, unknown>, {});
      case "m": {
        const map = new Map<unknown, unknown>();
        made.push(map);
        const keys = decodeList(tagged.k, false);
        const values = decodeList(tagged.v, false);
        for (let i = 0; i < keys.length; i++) map.set(keys[i], values[i]);
        return map;
      }
      case "sd":
      case "sj":
      case "nf":
        return decodeList(tagged, true);
      case "s": {
        const set = new Set<unknown>();
        made.push(set);
        for (const item of tagged.v as unknown[]) set.add(decode(item));
        return set;
      }
      case "t": {
        const typed = typedAt(tagged.c as string, tagged);
        made.push(typed);
        return typed;
      }
      case "c": {
        const known = byName.get(tagged.c as string);
        if (!known) throw new SnapshotError(`unknown class ${String(tagged.c)}`);
        return decodeFields(tagged.v as Record<string, unknown>, Object.create(known.prototype) as Record<string, unknown>, known);
      }
      default:
        throw new SnapshotError(`unknown tag ${String(tagged.$)}`);
    }
  };

  /** The typed array `at` names (its offset among the arrays' bytes, its length). */
  const typedAt = (name: string, at: Record<string, unknown>): Typed => {
    const make = TYPED[name];
    if (!make) throw new SnapshotError(`unknown typed array ${name}`);
    const n = at.n as number;
    const offset = at.o as number;
    const size = n * (make as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT;
    if (!Number.isInteger(offset) || offset % 8 !== 0 || arraysAt + offset + size > arrays.byteLength)
      throw new SnapshotError("a typed array runs past the snapshot's end");
    return new make(arrays, arraysAt + offset, n);
  };

  /** A list encodeList wrote; `register`: it is an array of the graph (a Map's keys and values are not). */
  const decodeList = (list: unknown, register: boolean): unknown[] => {
    if (Array.isArray(list)) {
      const out: unknown[] = [];
      if (register) made.push(out);
      for (const item of list) out.push(typeof item === "object" && item !== null ? decode(item) : item);
      return out;
    }
    const tagged = list as Record<string, unknown>;
    let out: unknown[];
    if (tagged.$ === "sd") {
      const dictionary = tagged.d as string[];
      const codes = typedAt("Uint16Array", tagged);
      out = new Array<unknown>(codes.length);
      for (let i = 0; i < codes.length; i++) out[i] = dictionary[codes[i]!];
    } else if (tagged.$ === "sj") {
      out = (tagged.v as string).split(NUL);
      if (out.length !== tagged.n) throw new SnapshotError("a list of strings does not hold as many as were written");
    } else if (tagged.$ === "nf") out = Array.from(typedAt("Float64Array", tagged));
    else throw new SnapshotError(`unknown list ${String(tagged.$)}`);
    if (register) made.push(out);
    return out;
  };

  const decodeFields = (fields: Record<string, unknown>, into: Record<string, unknown>, known?: SnapshotClass) => {
    made.push(into);
    for (const key of Object.keys(fields)) {
      const item = fields[key];
      if (typeof item !== "object" || item === null) into[key] = item;
      else if ((item as { $?: unknown }).$ !== "x") into[key] = decode(item);
      else {
        const make = known?.transient?.[key];
        if (!make) throw new SnapshotError(`${known?.name ?? "an object"}.${key} is not a transient field`);
        into[key] = make();
      }
    }
    known?.restored?.(into as never);
    return into;
  };

  return decode(tree);
}
