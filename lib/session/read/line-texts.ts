import type { LightChunk } from "./light-lines";

/**
 * Where the full text of the lines whose light text differs (cut or escaped)
 * is read from: what SessionTree.full reads a cut entry's content from, and
 * what a failing line's error message is taken from.
 */
export interface LineTexts {
  /** takes note of a slice's changed lines */
  add(chunk: Pick<LightChunk, "raws" | "cut" | "offsets">): void;
  /** whether the line's light text differs from its text */
  has(line: number): boolean;
  /** whether the line's light text has cut strings (its entry's content must be read here) */
  isCut(line: number): boolean;
  /** lines whose light text differs */
  readonly size: number;
  /** lines with cut strings */
  readonly cutCount: number;
  /** whether text() may have to wait for a line: its texts are read from their source when asked for (load) */
  readonly onDemand: boolean;
  /** whether text(line) answers now: true for a line read as it is written, or one whose text is here */
  ready(line: number): boolean;
  /**
   * Reads these lines' texts from their source, so that text() answers for them while they are kept. `check`
   * says what is wrong with a line's text as read (null: nothing); such a text is not kept and the load fails.
   */
  load(lines: readonly number[], check?: (line: number, text: string) => string | null): Promise<void>;
  /**
   * The line as written (decoded as the whole file would be); throws for a line whose light text is the same,
   * and ContentNotReadError for a line that is not ready.
   */
  text(line: number): string;
  /** the bytes of the line as written, when this source knows them without reading it */
  byteLength?(line: number): number | null;
}

/** Content was asked for before it was read from its source: LineTexts.load the line first (SessionTree.readLightly says which). */
export class ContentNotReadError extends Error {
  constructor(readonly line: number) {
    super(`line ${line}'s content has not been read from the file yet`);
    this.name = "ContentNotReadError";
  }
}
