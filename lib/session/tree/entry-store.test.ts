import { describe, expect, it } from "vitest";
import { ContentNotReadError, type LineTexts } from "../read/line-texts";
import type { SessionEntry } from "../types";
import { EntryStore, type StoredSlots } from "./entry-store";

/** An index of `ids` on lines 1, 2, 3…, the entries on `cut` lines read from cut light lines. */
function slots(ids: (string | undefined)[], cut: number[]): StoredSlots {
  const lines = Int32Array.from(ids, (_, slot) => slot + 1);
  return {
    entryLines: lines,
    lineAt: (slot) => lines[slot]!,
    slotOf: (id) => ids.lastIndexOf(id),
    idAt: (slot) => ids[slot],
    cutAt: (slot) => cut.includes(slot + 1),
  };
}

/** Full texts of `texts` (by line), read on demand: a line is ready once loaded. */
function onDemand(texts: Map<number, string>): LineTexts & { loaded: Set<number> } {
  const loaded = new Set<number>();
  return {
    loaded,
    add: () => undefined,
    has: (line) => texts.has(line),
    isCut: (line) => texts.has(line),
    size: texts.size,
    cutCount: texts.size,
    onDemand: true,
    ready: (line) => loaded.has(line),
    load: async (lines, check) => {
      for (const line of lines) {
        const problem = check?.(line, texts.get(line)!);
        if (problem) throw new Error(problem);
        loaded.add(line);
      }
    },
    text: (line) => {
      if (!loaded.has(line)) throw new ContentNotReadError(line);
      return texts.get(line)!;
    },
  };
}

const entry = (id: string | undefined, text: string): SessionEntry => ({ type: "message", id, parentId: null, message: { role: "user", content: text } });

describe("EntryStore", () => {
  it("keeps every entry it is given, and hands back the same objects", () => {
    const store = new EntryStore(slots(["a", "b"], []));
    const a = entry("a", "one");
    const b = entry("b", "two");
    store.added(a, 0, true);
    store.added(b, 1, true);
    expect(store.entryAt(1, 2)).toBe(b);
    expect(store.keptEntries).toEqual([a, b]);
    expect(store.full(a)).toBe(a);
  });

  it("with a source keeps only the last entries, and reads the others again", () => {
    const read: number[] = [];
    const store = new EntryStore(slots(["a", "b", "c"], []));
    store.readEntriesFrom(
      {
        entry: (slot, line) => {
          read.push(slot);
          return entry(["a", "b", "c"][slot], `again ${line}`);
        },
      },
      2,
    );
    const given = ["a", "b", "c"].map((id) => entry(id, "first"));
    given.forEach((e, slot) => store.added(e, slot, true));
    expect(store.keptEntries).toBeNull();
    expect(store.entryAt(2, 3)).toBe(given[2]);
    expect(store.entryAt(1, 2)).toBe(given[1]);
    expect(read).toEqual([]);
    expect(store.entryAt(0, 1).message).toEqual({ role: "user", content: "again 1" });
    expect(read).toEqual([0]);
    // slot 1 went out as slot 0 came back in
    expect(store.entryAt(1, 2)).not.toBe(given[1]);
    expect(() => store.readEntriesFrom({ entry: () => given[0]! })).toThrow(/added already/);
  });

  it("reads a cut entry's content when asked for, and says which lines a light read would read", async () => {
    const texts = onDemand(new Map([[2, JSON.stringify(entry("b", "the whole text"))]]));
    const store = new EntryStore(slots(["a", "b"], [2]));
    store.readCutLinesFrom(texts);
    const a = entry("a", "short");
    const b = entry("b", "the who");
    store.added(a, 0, true);
    store.added(b, 1, true);
    expect(store.isCut(2)).toBe(true);
    expect(store.readsOnDemand).toBe(true);
    expect(store.full(a)).toBe(a);
    expect(() => store.full(b)).toThrow(ContentNotReadError);
    expect(store.waitsFor(b)).toBe(true);
    const light = store.readLightly(() => store.full(b).message);
    expect(light).toEqual({ value: { role: "user", content: "the who" }, lines: [2] });
    await store.readContent(light.lines);
    expect(store.full(b).message).toEqual({ role: "user", content: "the whole text" });
    expect(store.waitsFor(b)).toBe(false);
    expect(store.fullCost(b)).toBe(0);
  });

  it("finds an entry whose id a later line took over by the object, not by its id", async () => {
    const texts = onDemand(new Map([[1, JSON.stringify(entry("a", "first, whole"))]]));
    const store = new EntryStore(slots(["a", "a"], [1]));
    store.readCutLinesFrom(texts);
    const first = entry("a", "first");
    const second = entry("a", "second");
    store.added(first, 0, true);
    store.added(second, 1, true);
    store.renamed(0);
    expect(store.full(second)).toBe(second);
    await store.readContent([1]);
    expect(store.full(first).message).toEqual({ role: "user", content: "first, whole" });
  });

  it("fails a read whose line no longer holds the entry indexed there", async () => {
    const texts = onDemand(new Map([[1, JSON.stringify(entry("other", "text"))]]));
    const store = new EntryStore(slots(["a"], [1]));
    store.readCutLinesFrom(texts);
    store.added(entry("a", "te"), 0, true);
    await expect(store.readContent([1])).rejects.toThrow(/no longer holds entry a/);
  });
});
