import { describe, expect, it } from "vitest";
import { decodeSnapshot, encodeSnapshot, reviveSnapshot, SnapshotError, snapshotJson, snapshotParts, type SnapshotClass } from "./object-snapshot";

class Node {
  children: Node[] = [];
  parent: Node | null = null;
  cache = new Map<string, number>();
  constructor(readonly name: string) {}
}

class Holder {
  callback = () => 1;
}

const CLASSES: SnapshotClass[] = [{ name: "Node", prototype: Node.prototype, transient: { cache: () => new Map([["fresh", 1]]) } }];
const roundTrip = <T>(value: T, classes = CLASSES): T => decodeSnapshot(encodeSnapshot(value, classes), classes) as T;

describe("object snapshots", () => {
  it("keep plain values JSON cannot write, and objects whose own keys look like the codec's tags", () => {
    const value = { a: undefined, b: NaN, c: -Infinity, d: -0, e: [1, "x", null, true], $: "r", f: { $: "x", i: 0 }, g: { $: "u" } };
    const back = roundTrip(value);
    expect(back).toEqual(value);
    expect(Object.is(back.d, -0)).toBe(true);
    expect("a" in back).toBe(true);
  });

  it("keep Maps with any keys, Sets, and typed arrays of every kind, outside the snapshot's bytes", () => {
    const key = { k: 1 };
    const value = {
      map: new Map<unknown, unknown>([
        [key, "object key"],
        [null, 2],
        ["s", new Set([1, "two", key])],
      ]),
      ints: Int32Array.of(-1, 2, 3),
      doubles: Float64Array.of(NaN, 1.5, -0),
      bytes: new Uint8Array(new ArrayBuffer(16), 3, 5).fill(7),
      shorts: Uint16Array.of(65535),
    };
    const back = roundTrip(value);
    expect(back.ints).toEqual(value.ints);
    expect(back.doubles).toEqual(value.doubles);
    expect(back.bytes).toEqual(value.bytes);
    // views into one buffer of their own, aligned: the snapshot's bytes can go
    expect(back.bytes.byteOffset % 8).toBe(0);
    expect(back.ints.buffer).toBe(back.doubles.buffer);
    expect(back.shorts).toEqual(value.shorts);
    const [firstKey] = back.map.keys();
    expect(firstKey).toEqual(key);
    // the object that is a key and a member of the set is one object after the trip too
    expect((back.map.get("s") as Set<unknown>).has(firstKey)).toBe(true);
  });

  it("keep shared and cyclic references, and class instances with their prototype and field order", () => {
    const root = new Node("root");
    const child = new Node("child");
    child.parent = root;
    root.children.push(child, child);
    root.cache.set("kept?", 1);
    const back = roundTrip({ root, again: root });
    expect(back.again).toBe(back.root);
    expect(back.root).toBeInstanceOf(Node);
    expect(back.root.children[0]).toBe(back.root.children[1]);
    expect(back.root.children[0]!.parent).toBe(back.root);
    expect(Object.keys(back.root)).toEqual(Object.keys(root));
    // a transient field is made fresh, not read from the snapshot
    expect([...back.root.cache]).toEqual([["fresh", 1]]);
  });

  it("keep long lists of strings and numbers in a compact form, the same after the trip, shared ones still shared", () => {
    const kinds = Array.from({ length: 1000 }, (_, i) => ["entry", "header", "blank"][i % 3]!);
    const ids = Array.from({ length: 5000 }, (_, i) => `id-${i}-${"é".repeat(i % 3)}`);
    const withNul = Array.from({ length: 100 }, (_, i) => (i === 50 ? "a\u0000b" : `s${i}`));
    const numbers = Array.from({ length: 100 }, (_, i) => (i === 1 ? NaN : i === 2 ? -0 : i * 1.5));
    const mixed = Array.from({ length: 100 }, (_, i) => (i % 2 ? i : String(i)));
    const slots = new Map(ids.map((id, i) => [id, i]));
    const value = { kinds, ids, withNul, numbers, mixed, slots, again: ids };
    const bytes = encodeSnapshot(value, CLASSES);
    const back = decodeSnapshot(bytes, CLASSES) as typeof value;
    // the same from its parts as a worker posts them (parsed, then through a structured clone)
    expect(reviveSnapshot(structuredClone(snapshotParts(bytes)), CLASSES)).toEqual(back);
    // a snapshot alone in its buffer at any offset: its arrays stay where they are when 8-aligned, else are copied
    for (let pad = 0; pad < 16; pad++) {
      const own = new Uint8Array(new ArrayBuffer(pad + bytes.byteLength), pad);
      own.set(bytes);
      // not alone in it: always a copy
      expect(snapshotParts(own).arrays === own.buffer).toBe(false);
      const parts = snapshotParts(own, true);
      expect(parts.arrays === own.buffer, `pad ${pad}`).toBe(pad % 8 === 0);
      expect(reviveSnapshot(structuredClone(parts, { transfer: [parts.arrays] }), CLASSES), `pad ${pad}`).toEqual(back);
    }
    expect(back.kinds).toEqual(kinds);
    expect(back.ids).toEqual(ids);
    expect(back.withNul).toEqual(withNul);
    expect(back.numbers).toEqual(numbers);
    expect(Object.is(back.numbers[2], -0)).toBe(true);
    expect(back.mixed).toEqual(mixed);
    expect([...back.slots]).toEqual([...slots]);
    expect(back.again).toBe(back.ids);
    // the compact forms are what was written: no string of the long lists stands alone in the JSON
    const json = snapshotJson(bytes);
    expect(json.split('"entry"').length - 1).toBe(1);
    expect(json).not.toContain('"id-1-é","id-2-éé"');
  });

  it("refuse what they cannot keep, naming where it is", () => {
    expect(() => encodeSnapshot({ a: { f: () => 1 } }, CLASSES)).toThrow(new SnapshotError("root.a.f: a function cannot be kept in a snapshot"));
    expect(() => encodeSnapshot({ w: new WeakMap() }, CLASSES)).toThrow(/root\.w: an instance of WeakMap/);
    expect(() => encodeSnapshot([new Holder()], CLASSES)).toThrow(/root\[0\]: an instance of Holder/);
    expect(() => encodeSnapshot({ big: 10n }, CLASSES)).toThrow(/root\.big: a bigint/);
  });

  it("refuse bytes that are not a whole snapshot", () => {
    const bytes = encodeSnapshot({ a: Int32Array.of(1, 2, 3) }, CLASSES);
    expect(() => decodeSnapshot(bytes.subarray(0, 8), CLASSES)).toThrow(SnapshotError);
    // (the checksum sees it before a typed array runs past the end)
    expect(() => decodeSnapshot(bytes.subarray(0, bytes.length - 8), CLASSES)).toThrow(/damaged/);
    const wrong = bytes.slice();
    wrong[0] = 0;
    expect(() => decodeSnapshot(wrong, CLASSES)).toThrow(/not a snapshot/);
    expect(() => decodeSnapshot(encodeSnapshot(new Node("n"), CLASSES), [])).toThrow(/unknown class Node/);
  });

  it("refuse a snapshot with any byte changed, a length that lies, or a byte missing, before reading its structure", () => {
    const bytes = encodeSnapshot({ ints: Int32Array.from({ length: 300 }, (_, i) => i), names: ["a", "b"] }, CLASSES);
    expect((decodeSnapshot(bytes, CLASSES) as { ints: Int32Array }).ints[299]).toBe(299);
    // every bit of the head but the magic and the format (checked by name), of the JSON and of the arrays
    for (let at = 8; at < bytes.length; at += 3) {
      const flipped = bytes.slice();
      flipped[at]! ^= 1 << (at % 8);
      expect(() => snapshotParts(flipped), `byte ${at}`).toThrow(SnapshotError);
    }
    const lying = bytes.slice();
    new DataView(lying.buffer).setUint32(8, 2 ** 31, true);
    expect(() => snapshotParts(lying)).toThrow(/cut short/);
    for (const cut of [1, 4, 8, 9]) expect(() => snapshotParts(bytes.subarray(0, bytes.length - cut)), `${cut} cut`).toThrow(/damaged/);
    expect(() => snapshotParts(Uint8Array.of(...bytes, 0))).toThrow(/damaged/);
  });
});
