import { isNonEmptyString, isObject, timeOf } from "./json";
import type { Diagnostic, SessionEntry, TreeEntry } from "./types";

/** How the cursor got where it is after one line of the file. */
export type LeafMoveKind =
  /** an entry appended as a child of the previous leaf */
  | "append"
  /** an entry appended somewhere else: the writer moved the leaf first (a branch, a reset) */
  | "branch"
  /** an HX `leaf` entry: an explicit move */
  | "leaf-entry";

export interface LeafStep {
  line: number;
  /** The entry written on this line. */
  entryId: string | null;
  /** The leaf after this line (reader-specific). */
  leafId: string | null;
  previousLeafId: string | null;
  kind: LeafMoveKind;
}

export interface LabelState {
  label: string;
  /** timestamp of the label entry that set it (pi copies it into forks) */
  timestamp: unknown;
  /** id and line of the label entry that set it */
  entryId: string;
  line: number;
}

/** Per-entry bookkeeping, in file order. */
export interface NodeInfo {
  entry: TreeEntry;
  line: number;
  /** position among entry lines (0-based) — what pi's v1 migration counts */
  index: number;
  /** parent id as the tree uses it: null for roots and for parents that are missing */
  parentId: string | null;
}

/**
 * The tree index of one session, filled one entry at a time (so a live tail can
 * extend it) and answering the questions pi's SessionManager answers. Lookups by
 * id follow pi: the last line with an id wins.
 */
export class SessionTree {
  /** every entry object in file order, id-less ones included (pi keeps them too) */
  readonly entries: SessionEntry[] = [];
  readonly entryLines: number[] = [];
  readonly byId = new Map<string, NodeInfo>();
  readonly diagnostics: Diagnostic[] = [];
  readonly leafHistory: LeafStep[] = [];
  /** CA labels: insertion order matters (fork writes them in this order) */
  readonly caLabels = new Map<string, LabelState>();
  /** HX labels: trimmed, whitespace-only clears */
  readonly hxLabels = new Map<string, LabelState>();
  hasLeafEntries = false;
  private caLeaf: string | null = null;
  /** CA's leaf is the last entry line; when that line has no id, pi's leaf is `undefined`. */
  private caLeafIdless = false;
  private hxLeaf: string | null = null;
  private lastSessionInfo: SessionEntry | null = null;
  private readonly childIds = new Map<string | null, string[]>();
  private readonly waitingForParent = new Map<string, string[]>();
  private sortedChildren = new Map<string | null, string[]>();
  private version = 0;
  private shapeVersion = 0;

  /** Bumped on every change; memo tables compare against it. */
  get revision(): number {
    return this.version;
  }

  /** Bumped only when an existing entry's ancestry can change (a duplicate id, a late parent). */
  get structureRevision(): number {
    return this.shapeVersion;
  }

  get size(): number {
    return this.byId.size;
  }

  add(entry: SessionEntry, line: number): void {
    this.version++;
    const index = this.entries.length;
    this.entries.push(entry);
    this.entryLines.push(line);
    const id = entry.id;
    if (!isNonEmptyString(id)) {
      this.report(line, "missing-id", "warning", "entry has no id: pi keeps it, but it cannot be placed in the tree");
      this.caLeafIdless = true;
      this.caLeaf = null;
      this.pushLeafStep(line, null, this.hxLeaf, "append");
      return;
    }
    this.checkEnvelope(entry, line, id);

    const previous = this.byId.get(id);
    if (previous) {
      this.report(line, "duplicate-id", "warning", `id ${id} was already used on line ${previous.line}; this line replaces it (pi: the last line wins)`, id);
      this.shapeVersion++;
      this.detach(id, previous.parentId);
    }
    const parentId = typeof entry.parentId === "string" && entry.parentId !== id ? entry.parentId : null;
    const node: NodeInfo = { entry: entry as TreeEntry, line, index, parentId };
    this.byId.set(id, node);
    this.attach(id, parentId);
    const waiting = this.waitingForParent.get(id);
    if (waiting) {
      this.shapeVersion++;
      this.waitingForParent.delete(id);
      for (const childId of waiting) this.reattach(childId);
    }

    this.trackLabels(entry, id, line);
    if (entry.type === "session_info") this.lastSessionInfo = entry;

    this.caLeaf = id;
    this.caLeafIdless = false;
    if (entry.type === "leaf") {
      this.hasLeafEntries = true;
      const target = entry.targetId;
      const targetId = typeof target === "string" ? target : null;
      this.pushLeafStep(line, id, targetId, "leaf-entry");
      this.hxLeaf = targetId;
      return;
    }
    const kind: LeafMoveKind = (parentIdOf(entry) ?? null) === this.hxLeaf ? "append" : "branch";
    this.pushLeafStep(line, id, id, kind);
    this.hxLeaf = id;
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
    return this.byId.get(id)?.entry;
  }

  node(id: string): NodeInfo | undefined {
    return this.byId.get(id);
  }

  /** Entries whose parent is `parentId` (null: the roots), in pi's `/tree` order. */
  children(parentId: string | null): readonly string[] {
    let sorted = this.sortedChildren.get(parentId);
    if (!sorted) {
      const ids = this.childIds.get(parentId) ?? [];
      // pi sorts by timestamp with this exact comparator (stable; NaN behaves as "equal or after")
      sorted = parentId === null ? ids.slice() : ids.slice().sort((a, b) => timeOf(this.get(a)!.timestamp) - timeOf(this.get(b)!.timestamp));
      this.sortedChildren.set(parentId, sorted);
    }
    return sorted;
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
    return this.byId.get(id)?.parentId ?? null;
  }

  private attach(id: string, parentId: string | null): void {
    if (parentId !== null && !this.byId.has(parentId)) {
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
    const list = this.childIds.get(key);
    if (list) {
      const i = list.lastIndexOf(id);
      if (i >= 0) list.splice(i, 1);
    }
    this.sortedChildren.delete(key);
  }

  private reattach(childId: string): void {
    const list = this.childIds.get(null);
    if (list) {
      const i = list.indexOf(childId);
      if (i >= 0) list.splice(i, 1);
    }
    this.sortedChildren.delete(null);
    this.pushChild(this.byId.get(childId)!.parentId, childId);
  }

  private pushChild(parentId: string | null, id: string): void {
    let list = this.childIds.get(parentId);
    if (!list) this.childIds.set(parentId, (list = []));
    // keep file order among siblings: a late-arriving parent can adopt children that come earlier in the file
    const line = this.byId.get(id)!.line;
    let i = list.length;
    while (i > 0 && this.byId.get(list[i - 1]!)!.line > line) i--;
    list.splice(i, 0, id);
    this.sortedChildren.delete(parentId);
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

  private pushLeafStep(line: number, entryId: string | null, leafId: string | null, kind: LeafMoveKind): void {
    const previousLeafId = this.leafHistory.length ? this.leafHistory[this.leafHistory.length - 1]!.leafId : null;
    this.leafHistory.push({ line, entryId, leafId, previousLeafId, kind });
  }

  report(line: number, kind: Diagnostic["kind"], severity: Diagnostic["severity"], message: string, entryId?: string): void {
    this.diagnostics.push(entryId === undefined ? { line, kind, severity, message } : { line, kind, severity, message, entryId });
  }
}

function parentIdOf(entry: SessionEntry): string | null {
  return typeof entry.parentId === "string" ? entry.parentId : null;
}
