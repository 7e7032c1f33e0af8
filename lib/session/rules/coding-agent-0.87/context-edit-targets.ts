import type { TreeIndex } from "../../tree/tree";
import type { TreeObserver } from "../../tree/tree-observer";
import type { SessionEntry, TreeEntry } from "../../types";

const NO_EDITS: readonly TreeEntry[] = Object.freeze([]);

/** The context_edit entries (pi-coding-agent ≥ 0.87) of a file, by the id each names, as they come. */
export class ContextEditTargets implements TreeObserver {
  /**
   * the slots of context_edit entries (id-less ones too), by the targetId they name, in file order: by slot, not
   * by object, since an object kept here would be the one full() knows only while the tree that read it lives
   */
  private readonly byTarget = new Map<unknown, number[]>();

  added(entry: SessionEntry, slot: number): void {
    if (entry.type !== "context_edit") return;
    const edits = this.byTarget.get(entry.targetId);
    if (edits) edits.push(slot);
    else this.byTarget.set(entry.targetId, [slot]);
  }

  /** The context_edit entries of `tree` that name `id`, anywhere in the file, in file order: each applies on its own branch. */
  editsOf(tree: TreeIndex, id: string): readonly TreeEntry[] {
    const slots = this.byTarget.get(id);
    return slots ? slots.map((slot) => tree.entryAt(slot)) : NO_EDITS;
  }
}
