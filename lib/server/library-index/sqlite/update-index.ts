// Bringing the index up to a library's files. A file is indexed again only when it changed: by (path, size, mtime,
// inode); a file that grew is read from the last line it was indexed to, one that shrank or was replaced is indexed
// again whole (index-file.ts). Entries go in by batches per transaction (write-batch.ts), files in header-time order
// (an entry's rowid roughly follows time); a file's progress is written with each batch, so a crash leaves it
// half-read, never wrong. A fork's copy is known by its entry's id and content hash (copy-keys.ts: the hash is made
// only for an id more than one row holds). Anything going wrong while a file is read is that file's (indexApart):
// it is named, and the update goes on with the others.
import type { IndexProgress, UnreadableLine } from "@/lib/library/search-api";
import type { ResolvedSessionFile } from "../../safe-path";
import type { FileDescription, IndexReport, LibraryFile } from "../library-index";
import { CopyKeys } from "./copy-keys";
import { breathe, type Connection, type Database } from "./database";
import { dropFile, FileFailure, indexFile, unchanged, type FileRow } from "./index-file";
import { INSERT_UNREADABLE, WriteBatch } from "./write-batch";

/** Brings the index up to `files` (a library's, with their projects and header times). */
export async function updateIndex(conn: Connection, files: readonly LibraryFile[], onProgress?: (progress: IndexProgress) => void): Promise<IndexReport> {
  const report: IndexReport = { indexed: 0, unchanged: 0, removed: 0, entries: 0, unreadable: [] };
  const unopened: UnreadableLine[] = [];
  // the unreadable lines read with the files: most updates change nothing, and this is all they ask
  const [rows, unreadable] = await conn.transaction(
    () => [conn.db.all("SELECT id, path, size, mtime, ino FROM files") as unknown as FileRow[], unreadableLines(conn.db)] as const,
  );
  const known = new Map(rows.map((row) => [row.path, row]));
  const present = new Set(files.map((f) => f.resolved.rel));
  const gone = rows.filter((row) => !present.has(row.path));
  const stale = files.filter((f) => !unchanged(known.get(f.resolved.rel), f.resolved));
  report.unchanged = files.length - stale.length;
  if (gone.length || stale.length) {
    const described = await describeAll(stale);
    // oldest first: rowids then follow time, which the capped ranking takes for recency
    described.sort((a, b) => (a.headerTime < b.headerTime ? -1 : a.headerTime > b.headerTime ? 1 : 0));
    const batch = new WriteBatch(conn.db, (run) => conn.retry(run), rows.length === 0, conn.tuning);
    const copies = new CopyKeys(conn.db, batch, rows.length > 0, new Map(files.map((f) => [f.resolved.rel, f.resolved])));
    await batch.begin();
    try {
      for (const row of gone) {
        dropFile(conn.db, row.id, batch.touched);
        batch.dropped = true;
        report.removed++;
      }
      const before = report.unchanged;
      for (const [i, file] of described.entries()) {
        onProgress?.({ done: before + i, total: files.length, file: file.resolved.rel });
        const read = await indexApart(conn, file, batch, copies, report);
        await breathe();
        if (read === true) report.indexed++;
        else if (read === false) report.unchanged++;
        else unopened.push({ file: file.resolved.rel, line: 0, message: read.unopened });
      }
      await batch.end();
    } catch (error) {
      batch.abort();
      throw error;
    } finally {
      copies.close();
    }
  }
  onProgress?.({ done: files.length, total: files.length, file: "" });
  report.unreadable = gone.length || stale.length ? await conn.transaction(() => unreadableLines(conn.db)) : unreadable;
  // a file that could not be opened is not in the index: it is tried, and named, on every update
  report.unreadable.unshift(...unopened);
  return report;
}

export function unreadableLines(db: Database): UnreadableLine[] {
  return db
    .all("SELECT f.path, u.line, u.message, u.indexed FROM unreadable u JOIN files f ON f.id = u.file_id ORDER BY f.path, u.line")
    .map((row) => ({ file: row.path as string, line: row.line as number, message: row.message as string, ...(row.indexed ? { indexed: true } : {}) }));
}

/**
 * indexFile, whatever the file holds: what goes wrong reading it (a failure of the file, not of the index: see
 * FileFailure) leaves none of it in the index and names it at the line it was read to. The file is tried again
 * once it changes, not on every update: a file that fails every time would otherwise be read by every search.
 */
async function indexApart(
  conn: Connection,
  file: { resolved: ResolvedSessionFile } & FileDescription,
  batch: WriteBatch,
  copies: CopyKeys,
  report: IndexReport,
): Promise<boolean | { unopened: string }> {
  try {
    return await indexFile(conn, file, batch, copies, report);
  } catch (error) {
    if (!(error instanceof FileFailure)) throw error;
    const { resolved } = file;
    const row = conn.db.get("SELECT id FROM files WHERE path = ?", [resolved.rel]);
    if (row) dropFile(conn.db, row.id as number, batch.touched);
    batch.dropped = true;
    // size, mtime and inode as indexed, no line read: unchanged until the file changes, then read whole
    const fileId = conn.db.run("INSERT INTO files(path, size, mtime, ino, indexed_to, lines, header_time, project) VALUES (?, ?, ?, ?, 0, 0, ?, ?)", [
      resolved.rel,
      resolved.size,
      resolved.mtimeMs,
      resolved.ino,
      file.headerTime,
      file.project,
    ]).lastInsertRowid;
    batch.run(INSERT_UNREADABLE, [fileId, error.line, `not indexed: ${error.message}`, 0]);
    return true;
  }
}

/** The files to read, described (their descriptions asked a few at a time). */
async function describeAll(files: readonly LibraryFile[]): Promise<({ resolved: ResolvedSessionFile } & FileDescription)[]> {
  const out: ({ resolved: ResolvedSessionFile } & FileDescription)[] = new Array(files.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < files.length; i = next++) {
      const file = files[i]!;
      out[i] = "describe" in file ? { resolved: file.resolved, ...(await file.describe()) } : file;
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return out;
}
