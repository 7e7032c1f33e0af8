import type { EntrySource } from "./entry-source";
import { ContentNotReadError, type LineTexts } from "../read/line-texts";
import type { SessionEntry, TreeEntry } from "../types";

/** What the store asks of the index it serves: where each slot's line is, and which slot an id or object is. */
export interface StoredSlots {
  /** each entry line's line number, by slot (ascending) */
  readonly entryLines: Int32Array;
  /** the line of the entry in `slot` */
  lineAt(slot: number): number;
  /** the slot of the last line with `id`, or -1 */
  slotOf(id: string): number;
  /** the id of the entry in `slot`, if it has one */
  idAt(slot: number): string | undefined;
  /** whether the entry in `slot` was read from a cut light line */
  cutAt(slot: number): boolean;
}

/**
 * The entry objects of one tree and their content: every entry kept, or, given an EntrySource, only the most
 * recent, the others made again from their line; and the full text of entries read from cut light lines, read
 * when asked for. What it holds is made from the reader, never from the index: a snapshot of the tree leaves the
 * store out and a restored tree gets a fresh one, bound to the reader that restores it.
 */
export class EntryStore {
  /** every entry object in file order, id-less ones included (pi keeps them too); none when they are read from `source` */
  private readonly kept: SessionEntry[] = [];
  private source: EntrySource | null = null;
  /** with a source: the entries kept, by slot */
  private readonly recent = new Map<number, SessionEntry>();
  /**
   * with a source: the kept slots in the order they came, a ring: the oldest goes first (dropping a Map's first
   * key instead makes V8 step over every key deleted before it, each time)
   */
  private keptOrder = new Int32Array(0);
  private keptAt = 0;
  /** with a source: the slot of each entry object handed out (what full() and waitsFor() find an entry by) */
  private readonly handedOut = new WeakMap<object, number>();
  /**
   * without a source: the slots of entries that their id does not find (no id, or an id a later line took over),
   * by object, as few as such lines (a WeakMap entry per entry costs the collector more than the entry itself)
   */
  private readonly unnamedSlots = new WeakMap<object, number>();
  /** where the full text of entries added from cut light lines is (see light-lines.ts) */
  private cutLines: LineTexts | null = null;
  /** full entries read lately, by line: the selection and its context are read again on every render */
  private readonly fullCache = new Map<number, TreeEntry>();
  /** while readLightly runs: the lines whose content it asked for and got light */
  private lightReads: number[] | null = null;

  constructor(private readonly index: StoredSlots) {}

  /** Reads entries again from `source`, keeping only the last `keep` (see SessionTree.readEntriesFrom). */
  readEntriesFrom(source: EntrySource, keep = RECENT_ENTRIES): void {
    if (this.source || this.kept.length) throw new Error("SessionTree.readEntriesFrom: entries were added already");
    this.source = source;
    this.keptOrder = new Int32Array(Math.max(1, keep)).fill(-1);
  }

  get entrySource(): EntrySource | null {
    return this.source;
  }

  /** Entries added from now on whose line `lines` holds were read from light lines: their content is read from there. */
  readCutLinesFrom(lines: LineTexts): void {
    this.cutLines = lines;
  }

  /** Whether the entry on `line` is read from a cut light line (its content is read from cutLines). */
  isCut(line: number): boolean {
    return this.cutLines?.isCut(line) === true;
  }

  get hasCutEntries(): boolean {
    return this.cutLines !== null && this.cutLines.cutCount > 0;
  }

  get readsOnDemand(): boolean {
    return this.cutLines?.onDemand === true && this.cutLines.cutCount > 0;
  }

  /** Takes the entry added in `slot`; `named`: its id finds it. */
  added(entry: SessionEntry, slot: number, named: boolean): void {
    if (this.source) this.remember(slot, entry);
    else {
      this.kept.push(entry);
      if (!named) this.unnamedSlots.set(entry, slot);
    }
  }

  /** The entry in `slot` is no longer the one its id finds (a later line took the id over). */
  renamed(slot: number): void {
    if (!this.source) this.unnamedSlots.set(this.kept[slot]!, slot);
  }

  /** The entry in `slot`, on `line`. */
  entryAt(slot: number, line: number): TreeEntry {
    if (!this.source) return this.kept[slot] as TreeEntry;
    let entry = this.recent.get(slot);
    if (!entry) this.remember(slot, (entry = this.source.entry(slot, line)));
    return entry as TreeEntry;
  }

  /** Every entry object, when all are kept (no source); null otherwise. */
  get keptEntries(): readonly SessionEntry[] | null {
    return this.source ? null : this.kept;
  }

  /** Keeps `entry` among the last ones made or read (with a source), and knows its slot while it lives. */
  private remember(slot: number, entry: SessionEntry): void {
    this.handedOut.set(entry, slot);
    if (!this.recent.has(slot)) {
      const order = this.keptOrder;
      const oldest = order[this.keptAt]!;
      if (oldest !== -1) this.recent.delete(oldest);
      order[this.keptAt] = slot;
      this.keptAt = (this.keptAt + 1) % order.length;
    }
    this.recent.set(slot, entry);
  }

  /** See SessionTree.full. */
  full<T extends SessionEntry>(entry: T): T {
    const line = this.cutLineOf(entry);
    if (line === -1) return entry;
    const cache = this.fullCache;
    let full = cache.get(line);
    if (full) {
      cache.delete(line); // most recently used last
    } else {
      const lines = this.cutLines!;
      if (!lines.ready(line)) {
        if (!this.lightReads) throw new ContentNotReadError(line);
        this.lightReads.push(line);
        return entry;
      }
      full = JSON.parse(lines.text(line)) as TreeEntry;
      // read again from its source: a file replaced since it was indexed must not pass for it
      if (full.id !== entry.id || full.type !== entry.type)
        throw new Error(`line ${line} is not the entry that was read there (${String(entry.id)}): the file changed since it was opened`);
      if (cache.size >= FULL_CACHE) cache.delete(cache.keys().next().value!);
    }
    cache.set(line, full);
    return full as unknown as T;
  }

  /** See SessionTree.readLightly. */
  readLightly<T>(read: () => T): { value: T; lines: number[] } {
    const outer = this.lightReads;
    const lines: number[] = [];
    this.lightReads = lines;
    try {
      return { value: read(), lines };
    } finally {
      this.lightReads = outer;
      outer?.push(...lines);
    }
  }

  /** See SessionTree.fullCost. */
  fullCost(entry: SessionEntry): number | null {
    const line = this.cutLineOf(entry);
    if (line === -1 || this.fullCache.has(line)) return 0;
    return this.cutLines!.byteLength?.(line) ?? null;
  }

  /** Whether full(entry) would wait for content that has not been read from the file yet. */
  waitsFor(entry: SessionEntry): boolean {
    const line = this.cutLineOf(entry);
    return line !== -1 && !this.fullCache.has(line) && !this.cutLines!.ready(line);
  }

  /** See SessionTree.askFor. */
  askFor(entries: Iterable<SessionEntry>): void {
    const asked = this.lightReads;
    if (!asked) return;
    for (const entry of entries) if (this.waitsFor(entry)) asked.push(this.cutLineOf(entry));
  }

  /** See SessionTree.readContent. */
  readContent(lines: readonly number[]): Promise<void> {
    if (!this.cutLines || !lines.length) return Promise.resolve();
    return this.cutLines.load(lines, (line, text) => {
      const id = this.index.idAt(lowerBound(this.index.entryLines, line));
      // a plain id looked for as text (cheap next to parsing the line, which its reader does anyway); full()
      // checks any id once the line is parsed
      if (typeof id !== "string" || !PLAIN_ID.test(id)) return null;
      return new RegExp(`"id"\\s*:\\s*"${id}"`).test(text)
        ? null
        : `line ${line} no longer holds entry ${id}: the file changed since it was opened; open it again`;
    });
  }

  /** The line whose full text holds `entry` when it was read from a cut light line, else -1. */
  private cutLineOf(entry: SessionEntry): number {
    if (!this.cutLines) return -1;
    let slot: number | undefined;
    if (this.source) slot = this.handedOut.get(entry);
    else {
      const id = entry.id;
      slot = typeof id === "string" ? this.index.slotOf(id) : -1;
      if (slot === -1 || this.kept[slot] !== entry) slot = this.unnamedSlots.get(entry);
    }
    return slot !== undefined && this.index.cutAt(slot) ? this.index.lineAt(slot) : -1;
  }
}

const FULL_CACHE = 512;
/** entries a tree that reads them from a source keeps: a context or a screen of cards, and a walk's recent steps */
const RECENT_ENTRIES = 4096;

/** ids that a line can only write one way, and that are safe in a RegExp */
const PLAIN_ID = /^[\w-]+$/;

/** The first index of `sorted` whose value is ≥ `value`. */
function lowerBound(sorted: ArrayLike<number>, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
