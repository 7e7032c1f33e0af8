// Which rows are copies of one entry: a fork's copy has its source's id and content hash.
import { entryFingerprint } from "@/lib/library/inherited-entries";
import { LineReader } from "../../line-reader";
import { parseLine } from "../../parse-line";
import type { ResolvedSessionFile } from "../../safe-path";
import type { Database } from "./database";
import { HASH, type EntryRow } from "./entry-row";
import type { WriteBatch } from "./write-batch";

/**
 * The copy keys of the entries an update writes. A fork's copy of an entry has its source's id and content, and a
 * search shows the two as one hit: rows are grouped by entry id and content hash (entryFingerprint's). Hashing an
 * entry's content (its JSON made again) took a tenth of a first index, and ids are all but unique, so the hash is
 * made only for an id more than one row holds: with the second row, the first one's line is read again. A row no
 * other shares its id with keeps a null hash; one whose line no longer reads as its entry gets minus its row id,
 * which no other row has.
 */
export class CopyKeys {
  /** entry id → the first row of this update holding it, while that row's hash is not made (0 once it is) */
  private readonly first = new Map<string, number>();
  /** the lines hashed again, of the library's files as listed (`byRel`): a file no longer listed is not read */
  private readonly lines: LineReader;

  constructor(
    private readonly db: Database,
    private readonly batch: WriteBatch,
    /** rows written before this update may hold the same ids */
    private readonly earlier: boolean,
    byRel: ReadonlyMap<string, ResolvedSessionFile>,
  ) {
    this.lines = new LineReader(null, byRel, Infinity);
  }

  /** Notes a new row (in `pending`, its file's unwritten rows); the work when older rows must be hashed now. */
  add(entry: EntryRow, value: Record<string, unknown>, pending: ReadonlyMap<number, EntryRow>): Promise<void> | null {
    const id = entry.entryId;
    if (id === null) return null;
    const first = this.first.get(id);
    const older = first === undefined && this.earlier ? this.db.all("SELECT id, hash FROM entries WHERE entry_id = ?", [id]) : [];
    if (first === undefined && older.length === 0) {
      this.first.set(id, entry.id);
      return null;
    }
    this.first.set(id, 0);
    entry.values[HASH] = entryFingerprint(value)?.hash ?? -entry.id;
    const unhashed = [...(first ? [first] : []), ...older.filter((row) => row.hash === null).map((row) => row.id as number)];
    return unhashed.length ? this.hash(unhashed, id, pending) : null;
  }

  private async hash(rowids: readonly number[], entryId: string, pending: ReadonlyMap<number, EntryRow>): Promise<void> {
    for (const rowid of rowids) {
      const unwritten = pending.get(rowid);
      const at = unwritten
        ? { fileId: unwritten.values[1] as number, off: unwritten.off, len: unwritten.len }
        : (this.db.get("SELECT file_id AS fileId, off, len FROM entries WHERE id = ?", [rowid]) as { fileId: number; off: number; len: number } | null);
      let hash = -rowid;
      try {
        const rel = at ? (this.db.get("SELECT path FROM files WHERE id = ?", [at.fileId])?.path as string | undefined) : undefined;
        const [bytes] = at && rel !== undefined ? await this.lines.readBytes([{ path: rel, off: at.off, len: at.len }]) : [null];
        const parsed = bytes ? parseLine({ bytes, length: at!.len }, at!.len) : null;
        const fingerprint = parsed && "value" in parsed ? entryFingerprint(parsed.value) : null;
        if (fingerprint?.id === entryId) hash = fingerprint.hash;
      } catch {
        // the file changed since: its rows are read again when the update comes to it
      }
      if (unwritten) unwritten.values[HASH] = hash;
      else this.batch.run("UPDATE entries SET hash = ? WHERE id = ?", [hash, rowid]);
    }
  }

  close(): void {
    this.lines.close();
  }
}
