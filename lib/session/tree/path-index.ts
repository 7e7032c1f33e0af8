import type { TreeEntry } from "../types";
import type { TreeIndex } from "./tree";
import type { TreePath } from "./tree-path";

/** What the graph asks of a set of ids: a path's, or the part of it a context leaves out. */
export interface IdSet {
  has(id: string): boolean;
  /** whether it holds every id of a run (each entry of which descends from the one before it), when it can tell without asking each */
  hasRun?(ids: readonly string[]): boolean;
  readonly size: number;
  [Symbol.iterator](): Iterator<string>;
}

/**
 * Where each entry sits on one root → entry path, without a table of the
 * path's ids. A deep session's path holds hundreds of thousands of entries,
 * and the graph asks about its own path and the selection's on every
 * selection. In a tree no late parent or repeated id has reshaped, an entry's
 * depth (known since it was indexed) is its position on any path through it:
 * looking it up there answers. Otherwise a table of the path is built once.
 */
export class PathIndex implements IdSet {
  private table: Map<string, number> | null = null;
  private readonly byDepth: boolean;

  constructor(
    private readonly tree: TreeIndex,
    readonly path: TreePath,
  ) {
    const last = path.idAt(path.length - 1);
    const depth = last !== undefined ? tree.depthAt(tree.slotOf(last)) : 0;
    // the path is the entry's chain of parents when its length is the last entry's depth (a harness path that stops
    // at a compaction is shorter, and is looked up in a table)
    this.byDepth = depth === path.length;
  }

  /** The position of `id` on the path, or -1. */
  indexOf(id: string): number {
    if (this.byDepth && this.tree.structureRevision === 0) {
      const slot = this.tree.slotOf(id);
      const depth = slot === -1 ? -1 : this.tree.depthAt(slot);
      if (depth === -1) return -1;
      // the entry at that depth of this path is the one `id` names (ids are unique in a tree nothing reshaped)
      return this.path.idAt(depth - 1) === id ? depth - 1 : -1;
    }
    if (!this.table) {
      this.table = new Map();
      // the first position of an id, as a walk from the root meets it
      for (let i = this.path.length - 1; i >= 0; i--) this.table.set(this.path.idAt(i)!, i);
    }
    return this.table.get(id) ?? -1;
  }

  has(id: string): boolean {
    return this.indexOf(id) !== -1;
  }

  get size(): number {
    return this.path.length;
  }

  *[Symbol.iterator](): Iterator<string> {
    for (let i = 0; i < this.path.length; i++) yield this.path.idAt(i)!;
  }
}

/**
 * The entries of a path that a context leaves out (cut by a compaction, or
 * behind a harness path that stops short), as a set over the path: its size
 * and membership come from a mark per position, its entries are listed only
 * when asked for.
 */
export class PathCut implements IdSet {
  private readonly kept: Uint8Array;
  private readonly keptCount: number;
  private list: readonly TreeEntry[] | null = null;
  /** kept positions before each position (made when a run is first asked about) */
  private keptBefore: Int32Array | null = null;

  constructor(
    private readonly index: PathIndex,
    keptIds: Iterable<string>,
  ) {
    const path = index.path;
    const kept = new Uint8Array(path.length);
    let count = 0;
    const ids = new Set(keptIds);
    for (const id of ids) {
      const i = index.indexOf(id);
      if (i !== -1 && !kept[i]) {
        kept[i] = 1;
        count++;
      }
    }
    // an id that sits on the path more than once (a reshaped tree) is kept wherever it sits, as its id says
    if (count < ids.size) {
      for (let i = 0; i < path.length; i++) {
        if (kept[i] || !ids.has(path.idAt(i)!)) continue;
        kept[i] = 1;
        count++;
      }
    }
    this.kept = kept;
    this.keptCount = count;
  }

  has(id: string): boolean {
    const i = this.index.indexOf(id);
    return i !== -1 && this.kept[i] === 0;
  }

  get size(): number {
    return this.index.path.length - this.keptCount;
  }

  /**
   * A run lies along one chain of parents: when its first and last entries are on the path, so is every entry
   * between them, and when no position from the first to the last is kept, all of them are cut.
   */
  hasRun(ids: readonly string[]): boolean {
    if (ids.length === 0) return false;
    const first = this.index.indexOf(ids[0]!);
    const last = this.index.indexOf(ids[ids.length - 1]!);
    if (first === -1 || last === -1 || this.kept[first] || this.kept[last]) return false;
    if (first <= last) {
      const before = (this.keptBefore ??= prefixCounts(this.kept));
      if (before[last + 1]! - before[first]! === 0) return true;
    }
    return ids.every((id) => this.has(id));
  }

  /** The cut entries in path order (listed on first use, then shared: read it, do not change it). */
  get entries(): readonly TreeEntry[] {
    if (!this.list) {
      const path = this.index.path;
      const out: TreeEntry[] = [];
      for (let i = 0; i < path.length; i++) if (!this.kept[i]) out.push(path.at(i)!);
      this.list = out;
    }
    return this.list;
  }

  *[Symbol.iterator](): Iterator<string> {
    const path = this.index.path;
    for (let i = 0; i < path.length; i++) if (!this.kept[i]) yield path.idAt(i)!;
  }
}

/** out[i]: how many of marks[0 … i-1] are set. */
function prefixCounts(marks: Uint8Array): Int32Array {
  const out = new Int32Array(marks.length + 1);
  for (let i = 0; i < marks.length; i++) out[i + 1] = out[i]! + marks[i]!;
  return out;
}
