import type { SessionEntry } from "../types";

/**
 * Where a tree reads an entry object again once it has let it go
 * (SessionTree.readEntriesFrom): the object must equal the one the tree was
 * given for that line, made again from the same text. A tree that reads its
 * entries from a source keeps only the last objects it made or read.
 */
export interface EntrySource {
  /** The entry in `slot` (its position among entry lines), written on `line` (1-based). */
  entry(slot: number, line: number): SessionEntry;
  /**
   * True while some entries are read from elsewhere, a few at a time, because their text has not come yet (a
   * session shown from its snapshot before its lines came): what walks many entries waits for textCame.
   */
  readonly textComing?: boolean;
  textCame?(): Promise<void>;
  /** `read`, reading at most `frames` frames of entries whose text has not come (else it is told: exceeded) */
  readingAtMost?<T>(frames: number, read: () => T): { value: T; exceeded: boolean };
  /** true when readingAtMost refused a read since readRefused last read what was */
  readonly textRefused?: boolean;
  /** reads, without waiting on the caller's thread, what readingAtMost refused: asked again, it answers */
  readRefused?(): Promise<void>;
  /** Text the parser is given after the first read (a live tail's lines), given here first; a source that cannot take it leaves it out. */
  appendText?(text: string): void;
}
