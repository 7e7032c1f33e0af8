import { grown } from "./columns";

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

const KINDS: readonly LeafMoveKind[] = ["append", "branch", "leaf-entry"];
/** In the leaf column: no leaf (before any entry, or a `leaf` entry whose target is not a string). */
const NO_LEAF = -1;

/** What a step is read from: the tree's columns for the entry line in each slot. */
export interface LeafStepSource {
  lineAt(slot: number): number;
  idAt(slot: number): string | undefined;
  /** the target of a `leaf` entry (null: not a string); undefined for every other entry */
  leafTargetAt(slot: number): string | null | undefined;
  /** the `parentId` the entry names, if a string */
  namedParentAt(slot: number): string | null;
}

/**
 * The cursor after every entry line, in file order (one step per slot), as two columns: the move's kind, and
 * where the leaf is, as the slot whose id or whose `leaf` target names it. A long session has a step per
 * entry; a step object is made when one is read.
 */
export class LeafSteps implements Iterable<LeafStep> {
  private kinds = new Uint8Array(0);
  /** per step: the slot whose entry names the leaf (its id, or its target for a `leaf` entry), or NO_LEAF */
  private leaves = new Int32Array(0);
  private count = 0;

  constructor(private readonly tree: LeafStepSource) {}

  get length(): number {
    return this.count;
  }

  /** Takes in the steps of slots up to `slots` (the tree's entry count): the history grows with the file. */
  extend(slots: number): void {
    if (slots <= this.count) return;
    this.kinds = grown(this.kinds, slots);
    this.leaves = grown(this.leaves, slots);
    const tree = this.tree;
    let leafSlot = this.count ? this.leaves[this.count - 1]! : NO_LEAF;
    let leaf = this.leafOf(leafSlot);
    for (let i = this.count; i < slots; i++) {
      const id = tree.idAt(i);
      let kind = 0;
      if (id !== undefined) {
        const target = tree.leafTargetAt(i);
        if (target !== undefined) {
          kind = 2;
          leafSlot = target === null ? NO_LEAF : i;
          leaf = target;
        } else {
          kind = tree.namedParentAt(i) === leaf ? 0 : 1;
          leafSlot = i;
          leaf = id;
        }
      }
      this.kinds[i] = kind;
      this.leaves[i] = leafSlot;
    }
    this.count = slots;
  }

  /** How the cursor moved on step `i`. */
  kindAt(i: number): LeafMoveKind {
    return KINDS[this.kinds[i]!]!;
  }

  /** The leaf after step `i`. */
  leafAt(i: number): string | null {
    return i < 0 ? null : this.leafOf(this.leaves[i]!);
  }

  /** Step `i` as an object, or undefined past either end. */
  at(i: number): LeafStep | undefined {
    if (i < 0 || i >= this.count) return undefined;
    const id = this.tree.idAt(i);
    return { line: this.tree.lineAt(i), entryId: id ?? null, leafId: this.leafAt(i), previousLeafId: this.leafAt(i - 1), kind: this.kindAt(i) };
  }

  *[Symbol.iterator](): Iterator<LeafStep> {
    for (let i = 0; i < this.count; i++) yield this.at(i)!;
  }

  private leafOf(slot: number): string | null {
    if (slot === NO_LEAF) return null;
    const target = this.tree.leafTargetAt(slot);
    return target !== undefined ? target : this.tree.idAt(slot)!;
  }
}
