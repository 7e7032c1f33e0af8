/**
 * The slot of the last line with each id, in the order ids were first met: what a lookup by id reads. A snapshot
 * of the tree leaves it out (a third of a big session's snapshot, and of its restore) and a restored tree makes
 * it again from the slots' ids (restoredFrom), in steps a page can spread over tasks of its own (steps).
 */
export class IdSlots {
  private readonly map = new Map<string, number>();
  /** the slots from `from` to `to` are not in the map yet */
  private from = 0;
  private to = 0;

  /** `ids`: the tree's column of ids by slot, read while the map is made again */
  constructor(private readonly ids: readonly (string | undefined)[]) {}

  /** The index of the ids `ids` holds, made as the tree made it (the last slot with each id) when first read. */
  static restoredFrom(ids: readonly (string | undefined)[]): IdSlots {
    const made = new IdSlots(ids);
    made.to = ids.length;
    return made;
  }

  /** The slot of each id; whatever reads it before the last step makes the rest at once. */
  get slots(): Map<string, number> {
    if (this.from < this.to) this.index(this.to);
    return this.map;
  }

  /** Makes what restoredFrom left to make, `per` slots a step. */
  *steps(per: number): Generator<void, void, void> {
    while (this.from < this.to) {
      this.index(Math.min(this.to, this.from + per));
      if (this.from < this.to) yield;
    }
  }

  private index(to: number): void {
    for (let slot = this.from; slot < to; slot++) {
      const id = this.ids[slot];
      if (id !== undefined) this.map.set(id, slot);
    }
    this.from = to;
  }
}
