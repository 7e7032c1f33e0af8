// What the server derives from a file (a summary, a digest), kept while the file stays as it was. A file is taken
// to be unchanged while its size, mtime and inode are: pi appends to a session (size), a rewrite in place moves its
// mtime, and a file replaced by another (a rename over it, a copy back) has a new inode even when the clock's grain
// leaves size and mtime alike.

/** What a file's state is compared by: the stat fields that change when its bytes may have. */
export interface FileState {
  size: number;
  mtimeMs: number;
  ino: number;
}

interface Kept<T> extends FileState {
  value: T;
}

/** Values by file path, each valid while its file's state is the one it was made from; the least recently used go first past `maxFiles`. */
export class FileStateCache<T> {
  private readonly kept = new Map<string, Kept<T>>();

  constructor(private readonly maxFiles: number) {
    if (!(maxFiles >= 1)) throw new RangeError(`a file state cache holds at least one file, not ${maxFiles}`);
  }

  get size(): number {
    return this.kept.size;
  }

  /** The value made from `file` in `state`; undefined when none is kept, or the file has changed since. */
  get(file: string, state: FileState): T | undefined {
    const hit = this.kept.get(file);
    if (!hit || hit.size !== state.size || hit.mtimeMs !== state.mtimeMs || hit.ino !== state.ino) return undefined;
    // a Map iterates in insertion order: inserted again, the file is the last to be dropped
    this.kept.delete(file);
    this.kept.set(file, hit);
    return hit.value;
  }

  set(file: string, state: FileState, value: T): void {
    this.kept.delete(file);
    this.kept.set(file, { size: state.size, mtimeMs: state.mtimeMs, ino: state.ino, value });
    if (this.kept.size > this.maxFiles) this.kept.delete(this.kept.keys().next().value!);
  }

  /** Forgets `file`'s value, only while it is `value` when that is given (a newer one made meanwhile stays). */
  delete(file: string, value?: T): void {
    if (value === undefined || this.kept.get(file)?.value === value) this.kept.delete(file);
  }

  /**
   * The value of `file` in `state`, made by `make` when none is kept for that state. A value made by a read that
   * fails (a promise that rejects) is forgotten, so the next ask reads again.
   */
  value(file: string, state: FileState, make: () => T): T {
    const hit = this.get(file, state);
    if (hit !== undefined) return hit;
    const value = make();
    this.set(file, state, value);
    if (value instanceof Promise) value.catch(() => this.delete(file, value));
    return value;
  }
}
