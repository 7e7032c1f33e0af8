// An entry line as the index keeps it: its row's columns (role, model, tools, time…: entry-facts.ts), and
// the span of ids and times a file's entries cover.
import { entryFacts } from "../entry-facts";

/** An entry read from a file, before its row is written (its on_active is known only at the file's end). */
export interface EntryRow {
  id: number;
  entryId: string | null;
  parentId: string | null;
  off: number;
  len: number;
  /** the row's columns, in WriteBatch.insertEntry's order but on_active; [HASH] is filled in when needed */
  values: unknown[];
}
export const HASH = 4;
export const TIME = 5;
export const ECHO = 11;

/** The ids and times a file's entries span, widened as they are read. */
export class Span {
  // min() and max() of several values are null when one is: the old bound, else the new one, when either is
  static readonly SET = ["first_id", "last_id", "first_time", "last_time"]
    .map((column, i) => `${column} = COALESCE(${i % 2 ? "max" : "min"}(${column}, ?), ${column}, ?)`)
    .join(", ");
  private firstId: number | null = null;
  private lastId: number | null = null;
  private firstTime: number | null = null;
  private lastTime: number | null = null;

  add(id: number, time: number | null): void {
    this.firstId ??= id;
    this.lastId = id;
    if (time === null) return;
    this.firstTime = Math.min(this.firstTime ?? time, time);
    this.lastTime = Math.max(this.lastTime ?? time, time);
  }

  /** The SET's parameters. */
  values(): (number | null)[] {
    return [this.firstId, this.lastId, this.firstTime, this.lastTime].flatMap((value) => [value, value]);
  }
}

/** An entry line's row, its on_active left for the end of its file and its hash for when another row has its id. */
export function entryRow(id: number, fileId: number, entryId: string | null, value: Record<string, unknown>, offset: number, length: number): EntryRow {
  const { parentId, time, role, model, tools } = entryFacts(value);
  return {
    id,
    entryId,
    parentId,
    off: offset,
    len: length,
    values: [id, fileId, entryId, parentId, null, time, role, model, tools.length ? tools.join(" ") : null, offset, length, 0],
  };
}
