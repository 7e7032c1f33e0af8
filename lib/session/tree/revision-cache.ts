/**
 * The last few answers to an expensive question about the tree, forgotten as
 * soon as the tree changes. A selection asks for the same root path many
 * times (the graph's marks, the inspector's tabs, the export checks); on a
 * deep session each walk touches tens of thousands of scattered objects.
 * Answers that throw are not kept: they are rare and cheap to find again.
 */
export class RevisionCache<T> {
  private revision = -1;
  private readonly answers = new Map<string, T>();

  constructor(private readonly capacity: number) {}

  get(revision: number, key: string, make: () => T): T {
    if (revision !== this.revision) {
      this.answers.clear();
      this.revision = revision;
    }
    const known = this.answers.get(key);
    if (known !== undefined) {
      // a Map keeps insertion order: re-inserting marks the answer as the latest used
      this.answers.delete(key);
      this.answers.set(key, known);
      return known;
    }
    const made = make();
    this.answers.set(key, made);
    if (this.answers.size > this.capacity) this.answers.delete(this.answers.keys().next().value as string);
    return made;
  }
}
