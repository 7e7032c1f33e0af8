import { isNonEmptyString, isObject, timeOf } from "../json";
import { CYCLE, ROOT, step, type PathState } from "./path-state";
import { PathStates } from "./path-states";
import { grown } from "./columns";
import { EntryShapes, type NamedModel } from "./entry-shapes";
import { LeafSteps } from "./leaf-steps";
import { StatsTally } from "./stats-tally";
import type { EntrySource } from "./entry-source";
import { ContentNotReadError, type LineTexts } from "../read/line-texts";
import { FormatEvidence } from "../rules/format-evidence";
import type { Diagnostic, SessionEntry, TreeEntry } from "../types";

export type { LeafMoveKind, LeafStep } from "./leaf-steps";

export interface LabelState {
  label: string;
  /** timestamp of the label entry that set it (pi copies it into forks) */
  timestamp: unknown;
  /** id and line of the label entry that set it */
  entryId: string;
  line: number;
}

/** One entry of the tree as `node` describes it (made when asked for: the index keeps its parts in columns). */
export interface NodeInfo {
  entry: TreeEntry;
  line: number;
  /** position among entry lines (0-based): its slot, and what pi's v1 migration counts */
  index: number;
  /** parent id as the tree uses it: null for roots and for entries that name themselves */
  parentId: string | null;
}

/** In a slot's child column: the slot has no child. */
const NO_CHILD = -1;
/** In a slot's child column: the slot has several children, listed by its id in `childLists`. */
const MANY = -2;
/** In a slot's parent column: no parent (none named, not a string, or the entry names itself: see SELF) */
const NO_PARENT = -1;
/** In a slot's parent column: the parent it names was not in the file when it came (the name is in `missingParents`). */
const MISSING_PARENT = -2;
/** In a slot's parent column: the entry names itself (pi's walk finds it again and again). */
const SELF_PARENT = -3;

/**
 * The tree index of one session, filled one entry at a time (so a live tail can
 * extend it) and answering the questions pi's SessionManager answers. Lookups by
 * id follow pi: the last line with an id wins.
 *
 * Each entry line has a slot (its position among entry lines); what the index
 * knows per entry sits in columns by slot, not in an object per entry: a deep
 * session has a million entries, and objects cost the page memory and the
 * collector time in proportion.
 */
export class SessionTree {
  /** every entry object in file order, id-less ones included (pi keeps them too); none when they are read from `source` */
  private readonly kept: SessionEntry[] = [];
  /** where entries are read again from when the tree keeps only the most recent (readEntriesFrom) */
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
  /** per slot: the entry's id (undefined for an entry without one) */
  private readonly slotIds: (string | undefined)[] = [];
  /** per slot: the slot of the entry its `parentId` named when it came, or NO_PARENT, MISSING_PARENT, SELF_PARENT */
  private parents = new Int32Array(1024);
  /** per slot whose parent was missing when it came: the id it names */
  private readonly missingParents = new Map<number, string>();
  /** per slot: the entry's line */
  private lines = new Int32Array(1024);
  /** per slot: the slot `get(entry.parentId)` finds (-1: none), remembered by parentSlot while `upRevision` is the structure revision + 1 */
  private up = new Int32Array(1024);
  private upRevision = new Int32Array(1024);
  /** per slot: NO_CHILD, the slot of its only child, or MANY */
  private kids = new Int32Array(1024).fill(NO_CHILD);
  /** the slot of the last line with each id (read through `slots`, which finishes a restored tree's index first) */
  private readonly idSlots = new Map<string, number>();
  /** while a restored tree makes its index of ids again (idIndexSteps): the slots from idsFrom to idsTo are not in it yet */
  private idsFrom = 0;
  private idsTo = 0;
  private readonly states = new PathStates();
  private readonly shapes = new EntryShapes();
  /** totals over every entry added, in file order (what the whole file's stats read) */
  readonly tally = new StatsTally();
  readonly diagnostics: Diagnostic[] = [];
  private readonly history = new LeafSteps(this);
  /** CA labels: insertion order matters (fork writes them in this order) */
  readonly caLabels = new Map<string, LabelState>();
  /** HX labels: trimmed, whitespace-only clears */
  readonly hxLabels = new Map<string, LabelState>();
  hasLeafEntries = false;
  /** traces of newer pi writers (usage, context_edit, …): which rules read the file */
  readonly evidence = new FormatEvidence();
  private caLeaf: string | null = null;
  /** CA's leaf is the last entry line; when that line has no id, pi's leaf is `undefined`. */
  private caLeafIdless = false;
  private hxLeaf: string | null = null;
  private lastSessionInfo: SessionEntry | null = null;
  /** children of the roots (key null) and of entries with several children, in file order */
  private readonly childLists = new Map<string | null, string[]>();
  /** the slots of context_edit entries, by the id they name, in file order */
  private readonly editsByTarget = new Map<unknown, number[]>();
  private readonly waitingForParent = new Map<string, string[]>();
  /** children of entries with several children, sorted as pi sorts them (see children) */
  private sortedChildren = new Map<string | null, string[]>();
  /** per slot, while keepTimes() asked for it: the entry's time, which sorts children without reading them again */
  private times: Float64Array | null = null;
  private version = 0;
  private shapeVersion = 0;
  /** where the full text of entries added from cut light lines is (see light-lines.ts) */
  private cutLines: LineTexts | null = null;
  /** per slot: 1 when the entry was read from a cut light line (its content is read from cutLines) */
  private cut = new Uint8Array(1024);
  /**
   * the slots of entries that their id does not find (no id, or an id a later line took over): by object, as
   * few as such lines (a WeakMap entry per entry costs the collector more than the entry itself)
   */
  private readonly unnamedSlots = new WeakMap<object, number>();
  /** full entries read lately, by line: the selection and its context are read again on every render */
  private readonly fullCache = new Map<number, TreeEntry>();
  /** while readLightly runs: the lines whose content it asked for and got light */
  private lightReads: number[] | null = null;

  /** Bumped on every change; memo tables compare against it. */
  get revision(): number {
    return this.version;
  }

  /** Bumped only when an existing entry's ancestry can change (a duplicate id, a late parent). */
  get structureRevision(): number {
    return this.shapeVersion;
  }

  get size(): number {
    return this.slots.size;
  }

  /** Each entry line's line number, by slot. */
  get entryLines(): Int32Array {
    return this.lines.subarray(0, this.slotIds.length);
  }

  /**
   * The tree keeps only the last `keep` entries it made or read, and reads others again from `source` when asked for: for
   * a session larger than memory (the command line reads its file again by byte range). Before the first add.
   */
  readEntriesFrom(source: EntrySource, keep = RECENT_ENTRIES): void {
    // (a tree restored from a snapshot has entries but no entry objects yet: it reads them all from the source)
    if (this.source || this.kept.length) throw new Error("SessionTree.readEntriesFrom: entries were added already");
    this.source = source;
    this.keptOrder = new Int32Array(Math.max(1, keep)).fill(-1);
  }

  /**
   * Makes the index of ids again from the slots' ids, as add() made it (the last slot with each id, in the order
   * ids were first met): a snapshot of the tree leaves it out.
   */
  restoreIdIndex(): void {
    this.idSlots.clear();
    this.idsFrom = 0;
    this.idsTo = this.slotIds.length;
  }

  /**
   * Makes the index of ids restoreIdIndex left to make, `per` slots a step, so a page can take a million ids in
   * tasks of its own. Whatever reads the index before the last step makes the rest at once.
   */
  *idIndexSteps(per = 1 << 15): Generator<void, void, void> {
    while (this.idsFrom < this.idsTo) {
      this.indexIds(Math.min(this.idsTo, this.idsFrom + per));
      if (this.idsFrom < this.idsTo) yield;
    }
  }

  private indexIds(to: number): void {
    for (let slot = this.idsFrom; slot < to; slot++) {
      const id = this.slotIds[slot];
      if (id !== undefined) this.idSlots.set(id, slot);
    }
    this.idsFrom = to;
  }

  private get slots(): Map<string, number> {
    if (this.idsFrom < this.idsTo) this.indexIds(this.idsTo);
    return this.idSlots;
  }

  /** Where the tree reads its entries again from, if it keeps only the last ones. */
  get entrySource(): EntrySource | null {
    return this.source;
  }

  /** True while entries are read before their text has come (EntrySource.textComing): wide walks wait for textCame(). */
  get textComing(): boolean {
    return this.source?.textComing === true;
  }

  /** Resolves once the entries' text has all come. */
  textCame(): Promise<void> {
    return this.source?.textCame?.() ?? Promise.resolve();
  }

  /** True when readingAtMost refused a read since readRefused (EntrySource.textRefused). */
  get textRefused(): boolean {
    return this.source?.textRefused === true;
  }

  /** Reads what readingAtMost refused, without waiting on the caller's thread (EntrySource.readRefused). */
  readRefused(): Promise<void> {
    return this.source?.readRefused?.() ?? Promise.resolve();
  }

  /** `read`, reading at most `frames` frames of entries whose text has not come yet (EntrySource.readingAtMost). */
  readingAtMost<T>(frames: number, read: () => T): { value: T; exceeded: boolean } {
    return this.source?.readingAtMost ? this.source.readingAtMost(frames, read) : { value: read(), exceeded: false };
  }

  /** Entries added from now on whose line `lines` holds were read from light lines: their content is read from there. */
  readCutLinesFrom(lines: LineTexts): void {
    this.cutLines = lines;
  }

  /** True when some entries hold cut strings (the index was built from light lines). */
  get hasCutEntries(): boolean {
    return this.cutLines !== null && this.cutLines.cutCount > 0;
  }

  /**
   * The entry as written. Entries in the index may come from light lines, whose
   * long strings are cut: whatever shows or exports content reads it through
   * here. Everything else (ids, parents, types, roles, labels, models, usage,
   * the shape of the content) is the same in both.
   */
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

  /** Whether full() may have to wait for content: it is read from the file when asked for (see readLightly). */
  get readsOnDemand(): boolean {
    return this.cutLines?.onDemand === true && this.cutLines.cutCount > 0;
  }

  /**
   * Runs `read` with every entry whose content has not been read yet standing in
   * as its light self (same shape, long strings cut), and says which lines it
   * would have read: load those (readContent), and `read` again gives the answer
   * with full content. Light entries answer every question the rules ask but
   * content, so `read` does what it will do then.
   */
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

  /**
   * The bytes full(entry) would decode and parse now: 0 for an entry not cut or already read in full, null when
   * its source does not say. What shows an entry reads a big one a frame after showing its light self.
   */
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

  /**
   * Asks for these entries' content without reading it: while readLightly runs, their lines are among those it
   * returns (otherwise nothing happens). For a reader that goes through many entries in steps (search): it asks
   * for a batch, answers with what it has, and goes on once the batch is read.
   */
  askFor(entries: Iterable<SessionEntry>): void {
    const asked = this.lightReads;
    if (!asked) return;
    for (const entry of entries) if (this.waitsFor(entry)) asked.push(this.cutLineOf(entry));
  }

  /**
   * Reads the content of these lines (from readLightly) from the file. A line that does not hold the entry
   * indexed there (the file was replaced since) fails the read, and its text is not kept.
   */
  readContent(lines: readonly number[]): Promise<void> {
    if (!this.cutLines || !lines.length) return Promise.resolve();
    return this.cutLines.load(lines, (line, text) => {
      const id = this.slotIds[lowerBound(this.entryLines, line)];
      // a plain id looked for as text (cheap next to parsing the line, which its reader does anyway); full()
      // checks any id once the line is parsed
      if (typeof id !== "string" || !PLAIN_ID.test(id)) return null;
      return new RegExp(`"id"\\s*:\\s*"${id}"`).test(text)
        ? null
        : `line ${line} no longer holds entry ${id}: the file changed since it was opened; open it again`;
    });
  }

  add(entry: SessionEntry, line: number): void {
    this.version++;
    const slot = this.slotIds.length;
    if (this.source) this.remember(slot, entry);
    else this.kept.push(entry);
    const id = entry.id;
    this.slotIds.push(isNonEmptyString(id) ? id : undefined);
    this.reserve(slot + 1);
    this.lines[slot] = line;
    if (this.times) {
      this.times = grown(this.times, slot + 1);
      this.times[slot] = timeOf(entry.timestamp);
    }
    this.shapes.set(slot, entry);
    this.tally.add(entry);
    const named = entry.parentId;
    if (typeof named !== "string") this.parents[slot] = NO_PARENT;
    else if (named === id) this.parents[slot] = SELF_PARENT;
    else {
      const parent = this.slots.get(named);
      // (a duplicate id's later line takes the name over: the name, not the slot, is what the parent is)
      if (parent === undefined) {
        this.parents[slot] = MISSING_PARENT;
        this.missingParents.set(slot, named);
      } else this.parents[slot] = parent;
    }
    if (this.cutLines?.isCut(line)) this.cut[slot] = 1;
    if (entry.type === "context_edit") {
      // by slot, not by object: an object kept here would be the one full() knows only while the tree that read it lives
      const edits = this.editsByTarget.get(entry.targetId);
      if (edits) edits.push(slot);
      else this.editsByTarget.set(entry.targetId, [slot]);
    }
    if (!isNonEmptyString(id)) {
      if (!this.source) this.unnamedSlots.set(entry, slot);
      this.report(line, "missing-id", "warning", "entry has no id: pi keeps it, but it cannot be placed in the tree");
      this.caLeafIdless = true;
      this.caLeaf = null;
      return;
    }
    this.checkEnvelope(entry, line, id);

    const previous = this.slots.get(id);
    if (previous !== undefined) {
      this.report(
        line,
        "duplicate-id",
        "warning",
        `id ${id} was already used on line ${this.lines[previous]}; this line replaces it (pi: the last line wins)`,
        id,
      );
      this.shapeVersion++;
      if (!this.source) this.unnamedSlots.set(this.kept[previous]!, previous);
      this.detach(id, this.parentIdAt(previous));
      // its children are listed by id: they are the new line's now
      this.kids[slot] = this.kids[previous]!;
      this.kids[previous] = NO_CHILD;
    }
    this.states.set(slot, this.initialState(entry as TreeEntry, id));
    this.slots.set(id, slot);
    this.attach(id, this.parentIdAt(slot));
    const waiting = this.waitingForParent.get(id);
    if (waiting) {
      this.shapeVersion++;
      this.waitingForParent.delete(id);
      for (const childId of waiting) this.reattach(childId);
    }

    this.trackLabels(entry, id, line);
    this.evidence.observe(entry, line);
    if (entry.type === "session_info") this.lastSessionInfo = entry;

    this.caLeaf = id;
    this.caLeafIdless = false;
    if (entry.type === "leaf") {
      this.hasLeafEntries = true;
      const target = entry.targetId;
      this.hxLeaf = typeof target === "string" ? target : null;
      return;
    }
    this.hxLeaf = id;
  }

  /** The line whose full text holds `entry` when it was read from a cut light line, else -1. */
  private cutLineOf(entry: SessionEntry): number {
    if (!this.cutLines) return -1;
    let slot: number | undefined;
    if (this.source) slot = this.handedOut.get(entry);
    else {
      const id = entry.id;
      slot = typeof id === "string" ? this.slots.get(id) : undefined;
      if (slot === undefined || this.kept[slot] !== entry) slot = this.unnamedSlots.get(entry);
    }
    return slot !== undefined && this.cut[slot] === 1 ? this.lines[slot]! : -1;
  }

  /**
   * Makes room in every column for `count` entries at once, told how many a file will hold: a column grows by
   * doubling, and at a million entries one doubling (a copy of every column) is a task of its own.
   */
  expectEntries(count: number): void {
    this.reserve(count);
    this.states.reserve(count);
    this.shapes.reserve(count);
    if (this.times) this.times = grown(this.times, count);
  }

  /** Makes room in the columns for slots below `size`. */
  private reserve(size: number): void {
    if (size <= this.lines.length) return;
    this.lines = grown(this.lines, size);
    this.parents = grown(this.parents, size);
    this.up = grown(this.up, size);
    this.upRevision = grown(this.upRevision, size);
    this.kids = grown(this.kids, size, NO_CHILD);
    this.cut = grown(this.cut, size);
  }

  /** The context_edit entries (pi ≥ 0.87) that name `id`, anywhere in the file, in file order: each applies on its own branch. */
  editsOf(id: string): readonly TreeEntry[] {
    const slots = this.editsByTarget.get(id);
    return slots ? slots.map((slot) => this.entryAt(slot)) : NO_EDITS;
  }

  /** The leaf after loading, per reader (spec §6). `null`: before any entry. */
  leaf(reader: "ca" | "hx"): string | null {
    return reader === "hx" ? this.hxLeaf : this.caLeaf;
  }

  /** True when pi's CA leaf is an entry without id (its context is then that line alone). */
  get leafIsIdless(): boolean {
    return this.caLeafIdless;
  }

  get(id: string): TreeEntry | undefined {
    const slot = this.slots.get(id);
    return slot === undefined ? undefined : this.entryAt(slot);
  }

  node(id: string): NodeInfo | undefined {
    const slot = this.slots.get(id);
    if (slot === undefined) return undefined;
    return { entry: this.entryAt(slot), line: this.lines[slot]!, index: slot, parentId: this.parentIdAt(slot) };
  }

  /** The slot of the last line with `id`, or -1. */
  slotOf(id: string): number {
    return this.slots.get(id) ?? -1;
  }

  /** The entry in `slot`. */
  entryAt(slot: number): TreeEntry {
    if (!this.source) return this.kept[slot] as TreeEntry;
    let entry = this.recent.get(slot);
    if (!entry) this.remember(slot, (entry = this.source.entry(slot, this.lines[slot]!)));
    return entry as TreeEntry;
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

  /** The line of the entry in `slot`. */
  lineAt(slot: number): number {
    return this.lines[slot]!;
  }

  /** The parent id of the entry in `slot` as the tree uses it: its `parentId` when a string other than its own id, else null. */
  parentIdAt(slot: number): string | null {
    const parent = this.parents[slot]!;
    if (parent >= 0) return this.slotIds[parent]!;
    return parent === MISSING_PARENT ? this.missingParents.get(slot)! : null;
  }

  /** The `parentId` the entry in `slot` names, if a string (its own id included). */
  namedParentAt(slot: number): string | null {
    return this.parents[slot] === SELF_PARENT ? this.slotIds[slot]! : this.parentIdAt(slot);
  }

  /** The entry's `type` in `slot`, if a string (read without the entry object). */
  typeAt(slot: number): string | undefined {
    return this.shapes.typeAt(slot);
  }

  /** The `message.role` of a message entry in `slot`, if a string; undefined for every other entry. */
  roleAt(slot: number): string | undefined {
    return this.shapes.roleAt(slot);
  }

  /** Where a `leaf` entry in `slot` moves the cursor (null: its targetId is not a string); undefined for every other entry. */
  leafTargetAt(slot: number): string | null | undefined {
    return this.shapes.leafTargetAt(slot);
  }

  /** The model that a model_change or assistant message in `slot` names; null for every other entry. */
  modelAt(slot: number): NamedModel | null {
    return this.shapes.modelAt(slot);
  }

  /** The context size the entry in `slot` reports (reportedContextSize), read without the entry object. */
  contextSizeAt(slot: number): number {
    return this.shapes.contextSizeAt(slot);
  }

  /** Whether the entry in `slot` names itself as its parent (pi lists it as a root but never finishes its walk). */
  namesItselfAt(slot: number): boolean {
    return this.parents[slot] === SELF_PARENT;
  }

  /** The id of the entry in `slot` (undefined for an entry without one). */
  idAt(slot: number): string | undefined {
    return this.slotIds[slot];
  }

  /** How many entry lines the tree holds (id-less ones and lines whose id a later line took over included). */
  get entryCount(): number {
    return this.slotIds.length;
  }

  /**
   * Every entry in file order, id-less ones included (pi keeps them too), as one array: what tests and whole-file
   * answers read. Code that goes through entries one at a time reads entryAt or allEntries.
   */
  get entries(): readonly SessionEntry[] {
    return this.source ? Array.from(this.allEntries()) : this.kept;
  }

  /** Every entry in file order, id-less ones included (pi keeps them too). */
  *allEntries(): IterableIterator<SessionEntry> {
    for (let slot = 0; slot < this.slotIds.length; slot++) yield this.entryAt(slot);
  }

  /** The ids of the tree's entries, in the order they were first met. */
  ids(): IterableIterator<string> {
    return this.slots.keys();
  }

  /** Each of the tree's entries as `node` describes it, in the order their ids were first met. */
  *nodes(): IterableIterator<NodeInfo> {
    for (const id of this.slots.keys()) yield this.node(id)!;
  }

  /** The slot of each of the tree's entries (the last line with each id), in the order the ids were first met. */
  nodeSlots(): IterableIterator<number> {
    return this.slots.values();
  }

  /**
   * The slot of the entry that `get(entry.parentId)` finds (pi's walks follow that field, missing or not), or -1:
   * walks up a long path step by step without a lookup by id each, once a walk has been there. An answer is kept
   * until the structure revision moves: nothing else changes which entry an id finds.
   */
  parentSlot(slot: number): number {
    // while no id was taken over and no parent came late, the slot a parent's id found when its child came is
    // the one it finds now (a restored tree's first walk up a deep path does no lookup by id)
    const parent = this.parents[slot]!;
    if (parent >= 0 && this.shapeVersion === 0) return parent;
    const revision = this.shapeVersion + 1;
    if (this.upRevision[slot] === revision) return this.up[slot]!;
    // the id the entry's parentId names (a string: no other kind finds an entry); an entry naming itself finds itself
    const named = this.namedParentAt(slot);
    const up = named ? (this.slots.get(named) ?? -1) : -1;
    this.up[slot] = up;
    this.upRevision[slot] = revision;
    return up;
  }

  /**
   * The slot of the only entry that names the one in `slot` as its parent; -1 when none does, -2 when several do.
   * While no id was taken over and no parent came late (structureRevision 0), it is the slot that child's id finds:
   * a walk down a long chain then goes from slot to slot, with no lookup by id and no list made per entry.
   */
  onlyChildAt(slot: number): number {
    return this.kids[slot]!;
  }

  /** Entries whose parent is `parentId` (null: the roots), in pi's `/tree` order; valid until the tree changes. */
  children(parentId: string | null): readonly string[] {
    if (parentId !== null) {
      const slot = this.slots.get(parentId);
      const kid = slot === undefined ? NO_CHILD : this.kids[slot]!;
      if (kid === NO_CHILD) return NO_CHILDREN;
      // nearly every entry has one child: nothing to sort or to remember (a walk over 100k entries asks for each)
      if (kid !== MANY) return [this.slotIds[kid]!];
    }
    const ids = this.childLists.get(parentId);
    if (!ids) return NO_CHILDREN;
    let sorted = this.sortedChildren.get(parentId);
    if (!sorted) {
      // pi sorts by timestamp with this exact comparator (stable; NaN behaves as "equal or after")
      const times = this.times;
      const time = times ? (id: string) => times[this.slots.get(id)!]! : (id: string) => timeOf(this.get(id)!.timestamp);
      sorted = parentId === null ? ids.slice() : ids.slice().sort((a, b) => time(a) - time(b));
      this.sortedChildren.set(parentId, sorted);
    }
    return sorted;
  }

  /**
   * Keeps each entry's time as it is added (before the first), so that sortChildren sorts without reading an
   * entry again: what makes an index to keep (a snapshot) does, not a page (a date parsed per entry).
   */
  keepTimes(): void {
    if (this.slotIds.length) throw new Error("SessionTree.keepTimes: entries were added already");
    this.times = new Float64Array(1024);
  }

  /**
   * Sorts the children of every entry with several, as children() does when asked, and lets go of the times
   * (keepTimes): an index restored from a snapshot then reads no entry to know the order of its branches.
   */
  sortChildren(): void {
    for (const parentId of this.childLists.keys()) if (parentId !== null) this.children(parentId);
    this.times = null;
  }

  /** Roots in file order: entries with no parent, and orphans whose parent is missing. */
  get roots(): readonly string[] {
    return this.children(null);
  }

  /** Entries whose `parentId` names an entry that is not in the file. */
  orphans(): string[] {
    const out: string[] = [];
    for (const ids of this.waitingForParent.values()) out.push(...ids);
    return out;
  }

  labels(reader: "ca" | "hx"): ReadonlyMap<string, LabelState> {
    return reader === "hx" ? this.hxLabels : this.caLabels;
  }

  /** The name of the last session_info entry in file order, trimmed; null if none or empty. */
  get name(): string | null {
    const name = this.lastSessionInfo?.name;
    if (typeof name !== "string") return null;
    return name.trim() || null;
  }

  /** Parent in the tree, or null for roots (missing parents count as roots). */
  parentOf(id: string): string | null {
    const slot = this.slots.get(id);
    return slot === undefined ? null : this.parentIdAt(slot);
  }

  private attach(id: string, parentId: string | null): void {
    if (parentId !== null && !this.slots.has(parentId)) {
      let list = this.waitingForParent.get(parentId);
      if (!list) this.waitingForParent.set(parentId, (list = []));
      list.push(id);
      this.pushChild(null, id);
      return;
    }
    this.pushChild(parentId, id);
  }

  private detach(id: string, parentId: string | null): void {
    const waiting = parentId === null ? undefined : this.waitingForParent.get(parentId);
    const key = waiting?.includes(id) ? null : parentId;
    if (waiting?.includes(id)) waiting.splice(waiting.indexOf(id), 1);
    this.sortedChildren.delete(key);
    if (key !== null) {
      const parent = this.slots.get(key)!;
      const kid = this.kids[parent]!;
      if (kid !== MANY) {
        if (kid !== NO_CHILD && this.slotIds[kid] === id) this.kids[parent] = NO_CHILD;
        return;
      }
    }
    const list = this.childLists.get(key);
    if (list) {
      const i = list.lastIndexOf(id);
      if (i >= 0) list.splice(i, 1);
    }
  }

  private reattach(childId: string): void {
    const list = this.childLists.get(null);
    if (list) {
      const i = list.indexOf(childId);
      if (i >= 0) list.splice(i, 1);
    }
    this.sortedChildren.delete(null);
    this.pushChild(this.parentOf(childId), childId);
  }

  private pushChild(parentId: string | null, id: string): void {
    this.sortedChildren.delete(parentId);
    let list: string[] | undefined;
    if (parentId === null) {
      list = this.childLists.get(null);
      if (!list) return void this.childLists.set(null, [id]);
    } else {
      const parent = this.slots.get(parentId)!;
      const kid = this.kids[parent]!;
      if (kid === NO_CHILD) return void (this.kids[parent] = this.slots.get(id)!);
      if (kid === MANY) list = this.childLists.get(parentId)!;
      else {
        list = [this.slotIds[kid]!];
        this.childLists.set(parentId, list);
        this.kids[parent] = MANY;
      }
    }
    // keep file order among siblings: a late-arriving parent can adopt children that come earlier in the file
    const line = this.lines[this.slots.get(id)!]!;
    let i = list.length;
    while (i > 0 && this.lines[this.slots.get(list[i - 1]!)!]! > line) i--;
    list.splice(i, 0, id);
  }

  private trackLabels(entry: SessionEntry, id: string, line: number): void {
    if (entry.type !== "label") return;
    const targetId = entry.targetId as string;
    const raw = entry.label;
    if (raw) {
      this.caLabels.set(targetId, { label: raw as string, timestamp: entry.timestamp, entryId: id, line });
    } else {
      this.caLabels.delete(targetId);
    }
    const trimmed = typeof raw === "string" ? raw.trim() : "";
    if (trimmed) this.hxLabels.set(targetId, { label: trimmed, timestamp: entry.timestamp, entryId: id, line });
    else this.hxLabels.delete(targetId);
  }

  private checkEnvelope(entry: SessionEntry, line: number, id: string): void {
    if (typeof entry.type !== "string") this.report(line, "missing-type", "warning", "entry has no type: pi keeps it as a plain node", id);
    if (!("parentId" in entry)) {
      this.report(line, "missing-parent-id", "warning", "entry has no parentId field: pi treats it as a root", id);
    } else if (entry.parentId !== null && typeof entry.parentId !== "string") {
      this.report(line, "invalid-parent-id", "warning", "parentId is neither a string nor null: pi treats the entry as a root", id);
    }
    if (typeof entry.timestamp !== "string") this.report(line, "missing-timestamp", "warning", "entry has no timestamp", id);
    if (entry.type === "message" && !isObject(entry.message)) {
      this.report(line, "message-without-message", "error", "message entry without a message object: pi throws when it builds a context through it", id);
    }
  }

  /**
   * The cursor after every entry line, in file order. Derived from the entries,
   * and only on demand (the index does not pay for it while loading); extended
   * incrementally as the file grows.
   */
  get leafHistory(): LeafSteps {
    this.history.extend(this.slotIds.length);
    return this.history;
  }

  /** pi's path-walk state at `id` if it is known without walking (see context.ts for the fallback). */
  pathState(id: string): PathState | null {
    if (this.shapeVersion !== 0) return null;
    const slot = this.slots.get(id);
    return slot === undefined ? null : this.states.get(slot);
  }

  /** The number of entries on the root → entry path of the entry in `slot`, if known without walking; else -1. */
  depthAt(slot: number): number {
    return this.shapeVersion !== 0 ? -1 : this.states.depthAt(slot);
  }

  /**
   * In a file written in append order every parent is indexed before its
   * children, so pi's walk state follows from the parent's in one step.
   */
  private initialState(entry: TreeEntry, id: string): PathState | null {
    if (this.shapeVersion !== 0) return null;
    const raw = entry.parentId;
    if (raw === id) return CYCLE;
    if (!raw) return step(ROOT, entry);
    const parent = this.slots.get(raw as string);
    if (parent === undefined) return step(ROOT, entry);
    const state = this.states.get(parent);
    return state && step(state, entry);
  }

  report(line: number, kind: Diagnostic["kind"], severity: Diagnostic["severity"], message: string, entryId?: string): void {
    this.diagnostics.push(entryId === undefined ? { line, kind, severity, message } : { line, kind, severity, message, entryId });
  }
}

const FULL_CACHE = 512;
/** entries a tree that reads them from a source keeps: a context or a screen of cards, and a walk's recent steps */
const RECENT_ENTRIES = 4096;
const NO_CHILDREN: readonly string[] = Object.freeze([]);
const NO_EDITS: readonly TreeEntry[] = Object.freeze([]);

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
