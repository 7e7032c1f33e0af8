import type { TreeEntry } from "../types";
import { reportedContextSize } from "./entry-shapes";
import type { TreeIndex } from "./tree";

/**
 * A root → entry path (what getBranch answers), held as the tree's slots: a deep path holds hundreds of
 * thousands of entries, and a tree that reads its entries from a source makes each one again only when it is
 * asked for. A rule set whose path entries are not the tree's own (a v4 log's records) holds them as given.
 */
export class TreePath implements Iterable<TreeEntry> {
  private constructor(
    private readonly tree: TreeIndex | null,
    private readonly slots: Int32Array | null,
    private readonly given: readonly TreeEntry[] | null,
  ) {}

  /** The path through these slots of `tree`, root first. */
  static ofSlots(tree: TreeIndex, slots: Int32Array): TreePath {
    return new TreePath(tree, slots, null);
  }

  /** The path of these entries, root first. */
  static ofEntries(entries: readonly TreeEntry[]): TreePath {
    return new TreePath(null, null, entries);
  }

  get length(): number {
    return this.slots ? this.slots.length : this.given!.length;
  }

  /** The entry at position `i` (0: the root), undefined past either end. */
  at(i: number): TreeEntry | undefined {
    if (!this.slots) return this.given![i];
    const slot = this.slots[i];
    return slot === undefined ? undefined : this.tree!.entryAt(slot);
  }

  /** The id of the entry at position `i`, read without the entry where the path is slots. */
  idAt(i: number): string | undefined {
    if (!this.slots) return this.given![i]?.id;
    const slot = this.slots[i];
    return slot === undefined ? undefined : this.tree!.idAt(slot);
  }

  /** The `type` of the entry at position `i`, if a string (read without the entry where the path is slots). */
  typeAt(i: number): string | undefined {
    if (!this.slots) {
      const type = this.given![i]?.type;
      return typeof type === "string" ? type : undefined;
    }
    const slot = this.slots[i];
    return slot === undefined ? undefined : this.tree!.typeAt(slot);
  }

  /** The context size the entry at position `i` reports (reportedContextSize): NaN for none, and past either end. */
  contextSizeAt(i: number): number {
    if (!this.slots) {
      const entry = this.given![i];
      return entry ? reportedContextSize(entry) : NaN;
    }
    const slot = this.slots[i];
    return slot === undefined ? NaN : this.tree!.contextSizeAt(slot);
  }

  /** The entries, as a fresh array (callers may change it). */
  entries(): TreeEntry[] {
    if (!this.slots) return this.given!.slice();
    const out = new Array<TreeEntry>(this.slots.length);
    for (let i = 0; i < out.length; i++) out[i] = this.tree!.entryAt(this.slots[i]!);
    return out;
  }

  *[Symbol.iterator](): Iterator<TreeEntry> {
    for (let i = 0; i < this.length; i++) yield this.at(i)!;
  }
}
