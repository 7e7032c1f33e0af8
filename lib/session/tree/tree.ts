import { isNonEmptyString, isObject, timeOf } from "../json";
import { CYCLE, ROOT, step, type PathState } from "./path-state";
import { PathStates } from "./path-states";
import { grown } from "./columns";
import { EntryShapes, type NamedModel } from "./entry-shapes";
import { LeafSteps } from "./leaf-steps";
import type { EntrySource } from "./entry-source";
import type { TreeObserver } from "./tree-observer";
import { EntryStore, type StoredSlots } from "./entry-store";
import { IdSlots } from "./id-slots";
import type { LineTexts } from "../read/line-texts";
import type { Diagnostic, SessionEntry, TreeEntry } from "../types";

export type { LeafMoveKind, LeafStep } from "./leaf-steps";

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
 * extend it): ids, parents, children in pi's order, what each entry is, and the
 * entries themselves (its EntryStore). Lookups by id follow pi: the last line
 * with an id wins. What a rule set keeps as entries come (a leaf cursor, labels)
 * is kept by the observers it registers (TreeObserver, observe): the tree knows
 * no rule set (rules/session-tree.ts is the one the app reads).
 *
 * Each entry line has a slot (its position among entry lines); what the index
 * knows per entry sits in columns by slot, not in an object per entry: a deep
 * session has a million entries, and objects cost the page memory and the
 * collector time in proportion.
 */
export class TreeIndex implements StoredSlots {
  /**
   * the entry objects and their content, made from what the reader supplies: a snapshot leaves it out whole and
   * a restored tree gets a fresh one (restored)
   */
  private store = new EntryStore(this);
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
  /** the slot of the last line with each id (read through `slots`): a snapshot leaves it out, and restored makes it again */
  private idIndex = new IdSlots(this.slotIds);
  private readonly states = new PathStates();
  private readonly shapes = new EntryShapes();
  readonly diagnostics: Diagnostic[] = [];
  private readonly history = new LeafSteps(this);
  /** what keeps state of its own as entries come, told of each in the order registered (observe) */
  private readonly observers: TreeObserver[] = [];
  /** children of the roots (key null) and of entries with several children, in file order */
  private readonly childLists = new Map<string | null, string[]>();
  private readonly waitingForParent = new Map<string, string[]>();
  /** children of entries with several children, sorted as pi sorts them (see children) */
  private sortedChildren = new Map<string | null, string[]>();
  /** per slot, while keepTimes() asked for it: the entry's time, which sorts children without reading them again */
  private times: Float64Array | null = null;
  private version = 0;
  private shapeVersion = 0;
  /** per slot: 1 when the entry was read from a cut light line (its content is read from the store's cut lines) */
  private cut = new Uint8Array(1024);

  /** Tells `observer` of every entry added from now on (before the first add: it is told of every entry line). */
  protected observe<T extends TreeObserver>(observer: T): T {
    if (this.slotIds.length) throw new Error("TreeIndex.observe: entries were added already");
    this.observers.push(observer);
    return observer;
  }

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
  readEntriesFrom(source: EntrySource, keep?: number): void {
    // (a tree restored from a snapshot has entries but no entry objects yet: it reads them all from the source)
    this.store.readEntriesFrom(source, keep);
  }

  /**
   * What a snapshot's restore calls: a fresh entry store (the reader binds it), and the index of ids, made again
   * from the slots' ids as add() made it (the last slot with each id, in the order ids were first met).
   */
  restored(): void {
    this.store = new EntryStore(this);
    this.idIndex = IdSlots.restoredFrom(this.slotIds);
  }

  /**
   * Makes the index of ids restored() left to make, `per` slots a step, so a page can take a million ids in
   * tasks of its own. Whatever reads the index before the last step makes the rest at once.
   */
  idIndexSteps(per = 1 << 15): Generator<void, void, void> {
    return this.idIndex.steps(per);
  }

  private get slots(): Map<string, number> {
    return this.idIndex.slots;
  }

  /** Where the tree reads its entries again from, if it keeps only the last ones. */
  get entrySource(): EntrySource | null {
    return this.store.entrySource;
  }

  /** True while entries are read before their text has come (EntrySource.textComing): wide walks wait for textCame(). */
  get textComing(): boolean {
    return this.store.entrySource?.textComing === true;
  }

  /** Resolves once the entries' text has all come. */
  textCame(): Promise<void> {
    return this.store.entrySource?.textCame?.() ?? Promise.resolve();
  }

  /** True when readingAtMost refused a read since readRefused (EntrySource.textRefused). */
  get textRefused(): boolean {
    return this.store.entrySource?.textRefused === true;
  }

  /** Reads what readingAtMost refused, without waiting on the caller's thread (EntrySource.readRefused). */
  readRefused(): Promise<void> {
    return this.store.entrySource?.readRefused?.() ?? Promise.resolve();
  }

  /** `read`, reading at most `frames` frames of entries whose text has not come yet (EntrySource.readingAtMost). */
  readingAtMost<T>(frames: number, read: () => T): { value: T; exceeded: boolean } {
    const source = this.store.entrySource;
    return source?.readingAtMost ? source.readingAtMost(frames, read) : { value: read(), exceeded: false };
  }

  /** Entries added from now on whose line `lines` holds were read from light lines: their content is read from there. */
  readCutLinesFrom(lines: LineTexts): void {
    this.store.readCutLinesFrom(lines);
  }

  /** True when some entries hold cut strings (the index was built from light lines). */
  get hasCutEntries(): boolean {
    return this.store.hasCutEntries;
  }

  /**
   * The entry as written. Entries in the index may come from light lines, whose
   * long strings are cut: whatever shows or exports content reads it through
   * here. Everything else (ids, parents, types, roles, labels, models, usage,
   * the shape of the content) is the same in both.
   */
  full<T extends SessionEntry>(entry: T): T {
    return this.store.full(entry);
  }

  /** Whether full() may have to wait for content: it is read from the file when asked for (see readLightly). */
  get readsOnDemand(): boolean {
    return this.store.readsOnDemand;
  }

  /**
   * Runs `read` with every entry whose content has not been read yet standing in
   * as its light self (same shape, long strings cut), and says which lines it
   * would have read: load those (readContent), and `read` again gives the answer
   * with full content. Light entries answer every question the rules ask but
   * content, so `read` does what it will do then.
   */
  readLightly<T>(read: () => T): { value: T; lines: number[] } {
    return this.store.readLightly(read);
  }

  /**
   * The bytes full(entry) would decode and parse now: 0 for an entry not cut or already read in full, null when
   * its source does not say. What shows an entry reads a big one a frame after showing its light self.
   */
  fullCost(entry: SessionEntry): number | null {
    return this.store.fullCost(entry);
  }

  /** Whether full(entry) would wait for content that has not been read from the file yet. */
  waitsFor(entry: SessionEntry): boolean {
    return this.store.waitsFor(entry);
  }

  /**
   * Asks for these entries' content without reading it: while readLightly runs, their lines are among those it
   * returns (otherwise nothing happens). For a reader that goes through many entries in steps (search): it asks
   * for a batch, answers with what it has, and goes on once the batch is read.
   */
  askFor(entries: Iterable<SessionEntry>): void {
    this.store.askFor(entries);
  }

  /**
   * Reads the content of these lines (from readLightly) from the file. A line that does not hold the entry
   * indexed there (the file was replaced since) fails the read, and its text is not kept.
   */
  readContent(lines: readonly number[]): Promise<void> {
    return this.store.readContent(lines);
  }

  /** Whether the entry in `slot` was read from a cut light line. */
  cutAt(slot: number): boolean {
    return this.cut[slot] === 1;
  }

  add(entry: SessionEntry, line: number): void {
    this.version++;
    const slot = this.slotIds.length;
    const id = entry.id;
    const named = isNonEmptyString(id);
    this.store.added(entry, slot, named);
    this.slotIds.push(named ? id : undefined);
    this.reserve(slot + 1);
    this.lines[slot] = line;
    if (this.times) {
      this.times = grown(this.times, slot + 1);
      this.times[slot] = timeOf(entry.timestamp);
    }
    this.shapes.set(slot, entry);
    const parentId = entry.parentId;
    if (typeof parentId !== "string") this.parents[slot] = NO_PARENT;
    else if (parentId === id) this.parents[slot] = SELF_PARENT;
    else {
      const parent = this.slots.get(parentId);
      // (a duplicate id's later line takes the name over: the name, not the slot, is what the parent is)
      if (parent === undefined) {
        this.parents[slot] = MISSING_PARENT;
        this.missingParents.set(slot, parentId);
      } else this.parents[slot] = parent;
    }
    if (this.store.isCut(line)) this.cut[slot] = 1;
    if (named) this.place(entry, slot, line, id);
    else this.report(line, "missing-id", "warning", "entry has no id: pi keeps it, but it cannot be placed in the tree");
    this.tell(entry, slot, line, named ? id : undefined);
  }

  /** Tells each observer registered (observe) of the entry added in `slot`. */
  protected tell(entry: SessionEntry, slot: number, line: number, id: string | undefined): void {
    const observers = this.observers;
    for (let i = 0; i < observers.length; i++) observers[i]!.added(entry, slot, line, id);
  }

  /** Places the entry in `slot`, whose id is `id`, in the tree. */
  private place(entry: SessionEntry, slot: number, line: number, id: string): void {
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
      this.store.renamed(previous);
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
    return this.store.entryAt(slot, this.lines[slot]!);
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
    return this.store.keptEntries ?? Array.from(this.allEntries());
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
    if (this.slotIds.length) throw new Error("TreeIndex.keepTimes: entries were added already");
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

const NO_CHILDREN: readonly string[] = Object.freeze([]);
