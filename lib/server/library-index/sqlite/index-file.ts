// Reading one file into the index. What a file holds is not trusted. Each line is read by parse-line.ts: one longer
// than the line limit, not UTF-8, not JSON or nested too deep is named (`unreadable`) and skipped; an id used again
// with other content is named and read; a line repeating an earlier one of its file (same id and content) counts
// its usage but has no words (`echo`: thousands of them filled every capped page). Whether an entry lies on its
// file's active path is stored with it (on_active) and set again whenever the file is read, so a search walks no
// tree. FTS5's ascii tokenizer cuts at every ASCII character but letters, digits and "_", folds A-Z and keeps any
// other character in its word: an ASCII text is handed to it as it is (it cuts and folds exactly as searchWords
// does, and cutting a gigabyte in JavaScript first cost a tenth of a first index), any other as searchWords' words
// joined by spaces.
import { entrySearchText, searchWordsText } from "@/lib/library/library-search";
import type { SessionEntry } from "@/lib/session/types";
import { usageRecordOf } from "@/lib/library/usage";
import { fileLines } from "../../file-lines";
import { maxLineBytes } from "../../line-limit";
import { parseLine } from "../../parse-line";
import { openSessionFile, type ResolvedSessionFile } from "../../safe-path";
import { activePath, entryIdOf, isIndexedEntry, leafAfter, reusedIdMessage } from "../entry-facts";
import type { FileDescription, IndexReport } from "../library-index";
import type { CopyKeys } from "./copy-keys";
import { isIndexError, type Connection, type Database } from "./database";
import { ECHO, entryRow, HASH, Span, TIME, type EntryRow } from "./entry-row";
import { dropUsage, INSERT_USAGE, usageValues } from "./usage-store";
import { INSERT_UNREADABLE, type WriteBatch } from "./write-batch";

/** Text FTS5 cuts and folds as searchWords does (see the module comment). */
const ASCII = /^[\x00-\x7f]*$/;

export interface FileRow {
  id: number;
  path: string;
  size: number | null;
  mtime: number | null;
  ino: number | null;
  indexed_to: number;
  lines: number;
  leaf: string | null;
}

export const unchanged = (row: FileRow | undefined, resolved: ResolvedSessionFile) =>
  row !== undefined && row.size === resolved.size && row.mtime === resolved.mtimeMs && row.ino === resolved.ino;

/**
 * Reads the file's complete lines from where it was indexed to (all of it when it is new or was replaced), in
 * the batch's transactions; false when another process indexed it meanwhile, `unopened` when it cannot be
 * opened (gone since it was listed, or not readable by this user).
 */
export async function indexFile(
  conn: Connection,
  file: { resolved: ResolvedSessionFile } & FileDescription,
  batch: WriteBatch,
  copies: CopyKeys,
  report: IndexReport,
): Promise<boolean | { unopened: string }> {
  const { resolved } = file;
  // read again inside the transaction: the list was read before it, and another process may have written since
  const row = (conn.db.get("SELECT id, path, size, mtime, ino, indexed_to, lines, leaf FROM files WHERE path = ?", [resolved.rel]) ?? undefined) as
    FileRow | undefined;
  if (unchanged(row, resolved)) return false;
  // tried before anything is written: a file that cannot be opened leaves the index as it was
  try {
    await (await openSessionFile(resolved)).close();
  } catch (error) {
    return { unopened: `cannot be read: ${error instanceof Error ? error.message : String(error)}` };
  }
  let fileId: number;
  let from = 0;
  let line = 0;
  let oldLeaf: string | null = null;
  if (row && row.ino === resolved.ino && resolved.size >= row.indexed_to) {
    fileId = row.id;
    from = row.indexed_to;
    line = row.lines;
    oldLeaf = row.leaf;
  } else {
    if (row) {
      dropFile(conn.db, row.id, batch.touched);
      batch.dropped = true;
    }
    fileId = conn.db.run("INSERT INTO files(path, ino, indexed_to, lines) VALUES (?, ?, 0, 0)", [resolved.rel, resolved.ino]).lastInsertRowid;
  }
  batch.touched.add(fileId);
  // the lines named before past those indexed: a last line that was too long while it was being written, or
  // where reading the file failed
  if (row?.id === fileId) batch.run("DELETE FROM unreadable WHERE file_id = ? AND line > ?", [fileId, line]);
  // the file's entries read and not written yet: a row's on_active is known at the file's end
  const pending = new Map<number, EntryRow>();
  // whether the table holds entries of the file already: of earlier updates, or of this one's earlier batches
  let written = from > 0;
  let leaf: string | null = null;
  let indexedTo = from;
  const span = new Span();
  const maxLine = maxLineBytes();
  // the ids read this time, with the line and row last holding each: an id used again with other content is named
  const ids = new Map<string, { line: number; row: number }>();
  const handle = await openSessionFile(resolved);
  try {
    for await (const read of fileLines(handle, from, maxLine)) {
      const at = line + 1;
      try {
        const parsed = parseLine(read, maxLine);
        if ("problem" in parsed && !read.complete) {
          // a last line without its newline may still be being written: it is read again when the file grows,
          // and named now only when growing cannot make it readable
          if (read.bytes === null) batch.run(INSERT_UNREADABLE, [fileId, line + 1, parsed.problem, 0]);
          break;
        }
        line++;
        indexedTo = read.offset + read.length + (read.complete ? 1 : 0);
        if ("blank" in parsed) continue;
        if ("problem" in parsed) {
          batch.run(INSERT_UNREADABLE, [fileId, line, parsed.problem, 0]);
          continue;
        }
        const value = parsed.value;
        if (!isIndexedEntry(value)) continue;
        // its content hash is made only when another row has the id
        const entryId = entryIdOf(value);
        leaf = leafAfter(value, entryId, leaf);
        const entry = entryRow(batch.nextId(), fileId, entryId, value, read.offset, read.length);
        // before anything of it is written: what a failure of the file undoes (indexFile's catch)
        pending.set(entry.id, entry);
        const usage = usageRecordOf(value);
        if (usage) batch.run(INSERT_USAGE, usageValues(entry.id, fileId, usage));
        span.add(entry.id, entry.values[TIME] as number | null);
        const hashing = copies.add(entry, value, pending);
        if (hashing) await hashing;
        if (entryId !== null) {
          // both rows are hashed by now: CopyKeys hashes every row of an id that a second row holds
          const earlier = ids.get(entryId) ?? (from > 0 ? earlierRow(conn.db, fileId, entryId, entry.id) : undefined);
          if (earlier && (pending.get(earlier.row)?.values[HASH] ?? hashOf(conn.db, earlier.row)) === entry.values[HASH]) entry.values[ECHO] = 1;
          else if (earlier) batch.run(INSERT_UNREADABLE, [fileId, line, reusedIdMessage(entryId, earlier.line), 1]);
          ids.set(entryId, { line, row: entry.id });
        }
        const words = entry.values[ECHO] ? "" : entrySearchText(value as SessionEntry);
        const body = ASCII.test(words) ? words : searchWordsText(words);
        // UTF-8 bytes: FTS5 reads a blob as text, and Node encodes natively where the binding encodes in JavaScript
        if (body) batch.insertWords(entry.id, Buffer.from(body, "utf8"));
        report.entries++;
        if (batch.full) {
          // the file so far, so that a crash leaves it read to here
          for (const done of pending.values()) batch.insertEntry(done, false);
          written ||= pending.size > 0;
          pending.clear();
          conn.db.run(`UPDATE files SET indexed_to = ?, lines = ?, leaf = COALESCE(?, leaf), ${Span.SET} WHERE id = ?`, [
            indexedTo,
            line,
            leaf,
            ...span.values(),
            fileId,
          ]);
          await batch.commit();
        }
      } catch (error) {
        throw isIndexError(error) ? error : new FileFailure(at, error);
      }
    }
  } catch (error) {
    if (isIndexError(error)) throw error;
    // the words and usage of the entries whose rows are not written yet: dropFile finds a file's by its rows
    for (const id of pending.keys()) {
      batch.run("DELETE FROM words WHERE rowid = ?", [id]);
      batch.run("DELETE FROM usage WHERE entry = ?", [id]);
    }
    // a line's own failure, or reading the next one
    throw error instanceof FileFailure ? error : new FileFailure(line + 1, error);
  } finally {
    await handle.close();
  }
  markActivePath(conn.db, fileId, written, [...pending.values()], leaf ?? oldLeaf, batch);
  conn.db.run(
    `UPDATE files SET size = ?, mtime = ?, ino = ?, indexed_to = ?, lines = ?, header_time = ?, project = ?, leaf = COALESCE(?, leaf), ${Span.SET}
     WHERE id = ?`,
    [resolved.size, resolved.mtimeMs, resolved.ino, indexedTo, line, file.headerTime, file.project, leaf, ...span.values(), fileId],
  );
  return true;
}

/** The last row of the file holding `entryId` before row `before` (written by an earlier update: its line is not known). */
function earlierRow(db: Database, fileId: number, entryId: string, before: number): { line: number | null; row: number } | undefined {
  // by the id (entries_copy): left to itself SQLite walked the file's rows (entries_file) or every row backwards
  // by id, all of them for an id no earlier row holds, which is each new entry's case
  const row = db.get("SELECT max(id) AS id FROM entries WHERE entry_id = ? AND +file_id = ? AND +id < ?", [entryId, fileId, before]);
  return row && row.id !== null ? { line: null, row: row.id as number } : undefined;
}

function hashOf(db: Database, rowid: number): unknown {
  return db.get("SELECT hash FROM entries WHERE id = ?", [rowid])?.hash;
}

/**
 * Writes the `pending` entries with whether each is on the path from `leaf` to its root, and corrects the flag
 * of the file's entries already written (`written`) where the leaf moved.
 */
function markActivePath(db: Database, fileId: number, written: boolean, pending: readonly EntryRow[], leaf: string | null, batch: WriteBatch): void {
  const before = written
    ? db.all("SELECT id, entry_id, parent_id, on_active FROM entries WHERE file_id = ? ORDER BY id", [fileId]).map((row) => ({
        id: row.id as number,
        entryId: row.entry_id as string | null,
        parentId: row.parent_id as string | null,
        onActive: row.on_active === 1,
      }))
    : [];
  // the last line of an id counts, as in pi
  const parents = new Map<string, string | null>();
  for (const entry of before) if (entry.entryId !== null) parents.set(entry.entryId, entry.parentId);
  for (const entry of pending) if (entry.entryId !== null) parents.set(entry.entryId, entry.parentId);
  const onPath = activePath(parents, leaf);
  const active = (entryId: string | null) => entryId !== null && onPath.has(entryId);
  for (const entry of before) {
    if (entry.onActive !== active(entry.entryId)) batch.run("UPDATE entries SET on_active = ? WHERE id = ?", [active(entry.entryId) ? 1 : 0, entry.id]);
  }
  for (const entry of pending) batch.insertEntry(entry, active(entry.entryId));
}

export function dropFile(db: Database, fileId: number, touched: Set<number>): void {
  for (const other of dropUsage(db, fileId)) touched.add(other);
  const del = db.prepare("DELETE FROM words WHERE rowid = ?");
  try {
    for (const row of db.all("SELECT id FROM entries WHERE file_id = ?", [fileId])) del.run([row.id]);
  } finally {
    del.finalize();
  }
  db.run("DELETE FROM entries WHERE file_id = ?", [fileId]);
  db.run("DELETE FROM unreadable WHERE file_id = ?", [fileId]);
  db.run("DELETE FROM files WHERE id = ?", [fileId]);
}

/** An error reading one file (its bytes, what they hold), as against one of the index (SQLite's, its lock). */
export class FileFailure extends Error {
  constructor(
    /** the line it was read to (1-based) */
    readonly line: number,
    cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = "FileFailure";
  }
}
