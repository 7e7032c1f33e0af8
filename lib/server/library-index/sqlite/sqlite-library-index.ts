// The search index over every session of a library, kept on disk under the cache directory. The engine is SQLite's
// FTS5 through node-sqlite3-wasm: SQLite compiled to WebAssembly with a file system of Node's, so the index is one
// file, installed from the npm registry alone (no native build, no prebuilt binary fetched at install time), and
// SQLite is as well kept as software gets. The words (lib/library/library-search.ts) are made there, not by FTS5,
// and the table keeps no text of its own (contentless): snippets are read from the session files. FTS5's ascii
// tokenizer cuts at every ASCII character but letters, digits and "_", folds A-Z and keeps any other character in
// its word: an ASCII text is handed to it as it is (it cuts and folds exactly as searchWords does, and cutting a
// gigabyte in JavaScript first cost a tenth of a first index), any other as searchWords' words joined by spaces.
//
// Writing. A file is indexed again only when it changed: by (path, size, mtime, inode); a file that grew is read
// from the last line it was indexed to, one that shrank or was replaced is indexed again whole. Whether an entry
// lies on its file's active path is stored with it (on_active) and set again whenever the file is read, so a
// search walks no tree. Entries go in by batches of BATCH_ENTRIES per transaction, files in header-time order (an
// entry's rowid roughly follows time); a file's progress is written with each batch, so a crash leaves it
// half-read, never wrong. A fork's copy is known by its entry's id and content hash (CopyKeys: the hash is made
// only for an id more than one row holds).
//
// What a file holds is not trusted. Each line is read by parse-line.ts: one longer than the line limit, not UTF-8,
// not JSON or nested too deep is named (`unreadable`) and skipped; an id used again with other content is named and
// read; a line repeating an earlier one of its file (same id and content) counts its usage but has no words
// (`echo`: thousands of them filled every capped page). Anything else going wrong while a file is read is that
// file's (indexApart): it is named, and the update goes on with the others.
//
// Reading. Every hit is ranked by bm25 when a query has at most RANKED_HITS of them, or when `limit` is Infinity.
// Past the cap, scoring every hit costs seconds on a gigabyte, so the page is `capped`: its hits are the newest
// (highest rowids: the newest sessions, what was appended last), newest first, with score 0, and `total` is a lower
// bound (the entries among the newest RANKED_HITS hits). A copy of an entry is one hit, in the oldest file (header
// time, then path) that passes the filters; `alsoIn` counts the others.
//
// FTS5 answers a prefix by reading every word it begins, with all their places, before its first hit, whatever
// the LIMIT ("the" begins five thousand words of a gigabyte: half a second; a last word shorter than three
// characters is no prefix, see library-search.ts). So a query with a prefix is first tried on the newest entries,
// read from the files and checked here: a common query has its hits there. Otherwise FTS5 is asked for its other
// terms alone and the common prefixes are checked on the entries it finds (findNewest). FTS5's own prefix index
// (prefix='3') would have spared this, but it made a first index 20-40% slower and serves three letters only.
//
// Taking turns. node-sqlite3-wasm runs a statement to its end on the thread that asked (it offers neither an
// interrupt nor a progress handler), and the server answers every request on that thread. So a question is a row
// of bounded steps, with the event loop let through between them (breathe): statements that return a chunk of
// rows (a LIMIT, a window of ids), lines read a chunk at a time within a byte allowance (line-reader.ts), and an
// update a file and a megabyte at a time. A wall-clock budget would have made an answer depend on the machine's
// load; the bounds are counts. What stays is one statement: FTS5 walking a common word's hits for the few that pass
// a narrow filter (a role few entries have) cannot be cut into windows, since a prefix would be expanded again by
// each of them. On a generated library of 300 MB that is the longest pause another request sees (about 300 ms; it
// grows with the library); a worker thread owning the index would take it off the server's thread.
//
// Locking. node-sqlite3-wasm locks the file with a directory (`<file>.lock`) for the length of a statement or
// transaction, shared and exclusive alike, and SQLite's own busy handler is not used (it would block the event
// loop): a transaction that meets the lock of another process (the CLI searching while the server indexes) is
// retried from its start, with backoff, for busyTimeoutMs; then a SearchIndexBusyError names the file. A statement
// that failed is never run again: each retry prepares its own.
import { mkdirSync, rmSync, statSync } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import path from "node:path";
import { entryFingerprint } from "@/lib/library/inherited-entries";
import { nestsDeeperThan } from "@/lib/library/json-depth";
import {
  entrySearchText,
  ftsPhrase,
  ftsQuery,
  isPrefixWord,
  librarySearchTerms,
  searchSnippet,
  searchWordsText,
  termsChecker,
} from "@/lib/library/library-search";
import { isObject } from "@/lib/session/json";
import type { SessionEntry } from "@/lib/session/types";
import type { IndexProgress, LibrarySearchHit, SearchFacets, UnreadableLine } from "@/lib/library/search-api";
import { usageRecordOf, type BranchUsage } from "@/lib/library/usage";
import { fileLines } from "../../file-lines";
import { maxLineBytes } from "../../line-limit";
import { LineReader } from "../../line-reader";
import { parseLine } from "../../parse-line";
import { openSessionFile, type ResolvedSessionFile } from "../../safe-path";
import type { FileDescription, IndexReport, LibraryFile, LibraryIndex, SearchFilters, SearchPage, StoredUsage } from "../library-index";
import { forgetKept, releaseKept } from "./kept-indexes";
import { dropUsage, fileBranches, INSERT_USAGE, readUsageSums, refreshUsageSums, sharingFiles, USAGE_SCHEMA, usageValues } from "./usage-store";

interface Statement {
  run(values?: unknown[]): { changes: number; lastInsertRowid: number };
  all(values?: unknown[]): Record<string, unknown>[];
  get(values?: unknown[]): Record<string, unknown> | null;
  finalize(): void;
}
interface Database {
  exec(sql: string): void;
  prepare(sql: string): Statement;
  all(sql: string, values?: unknown[]): Record<string, unknown>[];
  get(sql: string, values?: unknown[]): Record<string, unknown> | null;
  run(sql: string, values?: unknown[]): { changes: number; lastInsertRowid: number };
  close(): void;
  readonly inTransaction: boolean;
}

/**
 * SQLite, loaded when an index is first opened: the module instantiates its WebAssembly as it loads, which the
 * CLI's other commands need not wait for. Rows are typed as this module reads them (the package's own types
 * describe expanded rows and bigints it never returns here).
 */
async function openDatabase(file: string): Promise<Database> {
  // a CommonJS module: its exports are the namespace or, loaded as ESM, its default
  const loaded = (await import("node-sqlite3-wasm")) as unknown as { Database?: unknown; default?: { Database: unknown } };
  const Sqlite = (loaded.Database ?? loaded.default!.Database) as new (file: string) => Database;
  return new Sqlite(file);
}

// the indexes a first index makes at its end rather than keeps through a million inserts
const LATE_INDEXES = "CREATE INDEX IF NOT EXISTS entries_copy ON entries(entry_id, hash); CREATE INDEX IF NOT EXISTS entries_time ON entries(time);";
/** Bumped whenever the tables change: an index of another version is emptied and built again. */
const SCHEMA_VERSION = 8;
const SCHEMA = `
CREATE TABLE files(id INTEGER PRIMARY KEY, path TEXT UNIQUE NOT NULL, size INTEGER, mtime REAL, ino INTEGER,
  indexed_to INTEGER, lines INTEGER, header_time TEXT, project TEXT, leaf TEXT,
  -- the ids and times its entries span: where a search within dates looks
  first_id INTEGER, last_id INTEGER, first_time INTEGER, last_time INTEGER);
CREATE TABLE entries(id INTEGER PRIMARY KEY AUTOINCREMENT, file_id INTEGER NOT NULL, entry_id TEXT, parent_id TEXT,
  hash INTEGER, time INTEGER, role TEXT, model TEXT, tools TEXT, off INTEGER, len INTEGER, on_active INTEGER NOT NULL,
  -- 1: the line repeats an earlier line of its file (same id, same content): its usage counts, as pi counts it, but
  -- it has no words and no search reads it (a file repeating one line thousands of times filled every capped page)
  echo INTEGER NOT NULL DEFAULT 0);
CREATE INDEX entries_file ON entries(file_id);
${LATE_INDEXES}
-- the lines a search cannot find, and why; indexed = 1: a line read all the same, suspect (an id used again)
CREATE TABLE unreadable(file_id INTEGER NOT NULL, line INTEGER, message TEXT, indexed INTEGER NOT NULL DEFAULT 0);
-- the values the filters can take (facets()), kept as entries go in: a scan of every entry took a second
CREATE TABLE facets(kind TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (kind, value)) WITHOUT ROWID;
CREATE VIRTUAL TABLE words USING fts5(body, tokenize="ascii tokenchars '_'", content='', contentless_delete=1);
-- FTS5 writes its pending words out as a segment when they pass hashsize (1 MB by default): fewer, larger
-- segments to merge on a first index of a gigabyte
INSERT INTO words(words, rank) VALUES('hashsize', 67108864);
${USAGE_SCHEMA}
PRAGMA user_version = ${SCHEMA_VERSION};
`;

/** Entries per write transaction: a commit per file made a first index of a thousand small files crawl. */
const BATCH_ENTRIES = 100_000;
/** Up to this many hits are all ranked by bm25; past it a page is capped (see the module comment). */
export const RANKED_HITS = 500;
const STALE_LOCK_MS = 10 * 60_000;
const BUSY_TIMEOUT_MS = 30_000;
/** Text FTS5 cuts and folds as searchWords does (see the module comment). */
const ASCII = /^[\x00-\x7f]*$/;

export interface SqliteIndexOptions {
  /** how long a statement meeting another process's lock is retried (ms) */
  busyTimeoutMs?: number;
  /** how many hits are all ranked, past which a search is capped (RANKED_HITS) */
  rankedHits?: number;
  /** how many bytes of lines a search reads to check its terms (CHECKED_BYTES) */
  checkedBytes?: number;
}

/** The index file stayed locked by another process (or connection) for longer than the busy timeout. */
export class SearchIndexBusyError extends Error {
  constructor(readonly file: string) {
    super(`the search index ${file} is locked by another process (an index being built?): try again when it is done`);
    this.name = "SearchIndexBusyError";
  }
}

const isBusy = (error: unknown) => error instanceof Error && /database is locked|SQLITE_BUSY/i.test(error.message);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface FileRow {
  id: number;
  path: string;
  size: number | null;
  mtime: number | null;
  ino: number | null;
  indexed_to: number;
  lines: number;
  leaf: string | null;
}

/** An entry read from a file, before its row is written (its on_active is known only at the file's end). */
interface EntryRow {
  id: number;
  entryId: string | null;
  parentId: string | null;
  off: number;
  len: number;
  /** the row's columns, in WriteBatch.insertEntry's order but on_active; [HASH] is filled in when needed */
  values: unknown[];
}
const HASH = 4;
const TIME = 5;
const ECHO = 11;

/** The ids and times a file's entries span, widened as they are read. */
class Span {
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

const unchanged = (row: FileRow | undefined, resolved: ResolvedSessionFile) =>
  row !== undefined && row.size === resolved.size && row.mtime === resolved.mtimeMs && row.ino === resolved.ino;

export class SqliteLibraryIndex implements LibraryIndex {
  private constructor(
    private readonly db: Database,
    private readonly file: string,
    private readonly busyTimeoutMs: number,
    private readonly rankedHits: number,
    private readonly checkedBytes: number,
  ) {}

  /** Opens (or creates) the index file; a lock left by a process that died mid-write is removed first. */
  static async open(file: string, options: SqliteIndexOptions = {}): Promise<SqliteLibraryIndex> {
    mkdirSync(path.dirname(file), { recursive: true });
    // node-sqlite3-wasm locks with a directory beside the file for the length of a statement or transaction; one
    // older than any of ours was left by a process that was killed holding it
    const lock = `${file}.lock`;
    try {
      if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
    } catch {
      // no lock
    }
    for (let attempt = 0; ; attempt++) {
      const index = new SqliteLibraryIndex(
        await openDatabase(file),
        file,
        options.busyTimeoutMs ?? BUSY_TIMEOUT_MS,
        options.rankedHits ?? RANKED_HITS,
        options.checkedBytes ?? CHECKED_BYTES,
      );
      try {
        await index.prepare();
        return index;
      } catch (error) {
        index.close();
        // the index is a cache: one that cannot be read is made anew
        if (attempt > 0 || !(error instanceof Error) || !/malformed|not a database/i.test(error.message)) throw error;
        for (const stale of [file, `${file}-journal`]) rmSync(stale, { force: true });
      }
    }
  }

  release(): void {
    releaseKept(this.file, this);
  }

  close(): void {
    forgetKept(this.file, this);
    this.db.close();
  }

  async problems(): Promise<UnreadableLine[]> {
    return this.transaction(() => this.unreadable());
  }

  /** Creates the tables, or empties an index of another schema version (an older release's) and creates them. */
  private async prepare(): Promise<void> {
    // page size and vacuuming take effect on a new file only (8 KB pages: fewer, fuller FTS5 leaves; nothing is
    // ever moved to shrink the file, its free pages are used again)
    await this.retry(() =>
      this.db.exec("PRAGMA page_size=8192; PRAGMA auto_vacuum=NONE; PRAGMA journal_mode=DELETE; PRAGMA synchronous=NORMAL; PRAGMA cache_size=-32768;"),
    );
    await this.transaction(() => {
      if (this.db.get("PRAGMA user_version")!.user_version === SCHEMA_VERSION) {
        // dropped during a first index that did not finish
        this.db.exec(LATE_INDEXES);
        return;
      }
      const objects = this.db.all("SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%'");
      // FTS5's own tables go with its virtual table, and may be gone by the time their turn comes
      for (const { type, name } of objects) this.db.exec(`DROP ${type === "view" ? "VIEW" : "TABLE"} IF EXISTS "${String(name).replaceAll('"', '""')}"`);
      this.db.exec(SCHEMA);
    });
  }

  /**
   * Runs `run` (synchronous: no other statement of this connection comes between) in a transaction, again from
   * the start while another process holds the file, until the busy timeout.
   */
  private async transaction<T>(run: () => T): Promise<T> {
    // within a search's own transaction (reading), a step runs as part of it
    if (this.db.inTransaction) return run();
    return this.retry(() => {
      this.db.exec("BEGIN");
      try {
        const result = run();
        this.db.exec("COMMIT");
        return result;
      } catch (error) {
        if (this.db.inTransaction) this.db.exec("ROLLBACK");
        throw error;
      }
    });
  }

  /**
   * Runs `run` in one read transaction, its steps (transaction()) within it: the lock is taken once, not per step
   * (a directory made and removed each time), and every step sees the same index. Held while lines are read.
   */
  private async reading<T>(run: () => Promise<T>): Promise<T> {
    await this.retry(() => {
      this.db.exec("BEGIN");
      try {
        // a deferred transaction locks at its first read
        this.db.get("SELECT 1 FROM files LIMIT 1");
      } catch (error) {
        this.db.exec("ROLLBACK");
        throw error;
      }
    });
    try {
      const result = await run();
      this.db.exec("COMMIT");
      return result;
    } catch (error) {
      if (this.db.inTransaction) this.db.exec("ROLLBACK");
      throw error;
    }
  }

  private async retry<T>(run: () => T): Promise<T> {
    const start = Date.now();
    for (let wait = 5; ; wait = Math.min(wait * 2, 250)) {
      try {
        return run();
      } catch (error) {
        if (!isBusy(error)) throw error;
        if (Date.now() - start >= this.busyTimeoutMs) throw new SearchIndexBusyError(this.file);
      }
      await sleep(wait);
    }
  }

  /** Brings the index up to `files` (a library's, with their projects and header times). */
  async update(files: readonly LibraryFile[], onProgress?: (progress: IndexProgress) => void): Promise<IndexReport> {
    const report: IndexReport = { indexed: 0, unchanged: 0, removed: 0, entries: 0, unreadable: [] };
    const unopened: UnreadableLine[] = [];
    // the unreadable lines read with the files: most updates change nothing, and this is all they ask
    const [rows, unreadable] = await this.transaction(
      () => [this.db.all("SELECT id, path, size, mtime, ino FROM files") as unknown as FileRow[], this.unreadable()] as const,
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
      const batch = new WriteBatch(this.db, (run) => this.retry(run), rows.length === 0);
      const copies = new CopyKeys(this.db, batch, rows.length > 0, new Map(files.map((f) => [f.resolved.rel, f.resolved])));
      await batch.begin();
      try {
        for (const row of gone) {
          this.dropFile(row.id, batch.touched);
          batch.dropped = true;
          report.removed++;
        }
        const before = report.unchanged;
        for (const [i, file] of described.entries()) {
          onProgress?.({ done: before + i, total: files.length, file: file.resolved.rel });
          const read = await this.indexApart(file, batch, copies, report);
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
        await copies.close();
      }
    }
    onProgress?.({ done: files.length, total: files.length, file: "" });
    report.unreadable = gone.length || stale.length ? await this.transaction(() => this.unreadable()) : unreadable;
    // a file that could not be opened is not in the index: it is tried, and named, on every update
    report.unreadable.unshift(...unopened);
    return report;
  }

  private unreadable(): UnreadableLine[] {
    return this.db
      .all("SELECT f.path, u.line, u.message, u.indexed FROM unreadable u JOIN files f ON f.id = u.file_id ORDER BY f.path, u.line")
      .map((row) => ({ file: row.path as string, line: row.line as number, message: row.message as string, ...(row.indexed ? { indexed: true } : {}) }));
  }

  /**
   * indexFile, whatever the file holds: what goes wrong reading it (a failure of the file, not of the index: see
   * FileFailure) leaves none of it in the index and names it at the line it was read to. The file is tried again
   * once it changes, not on every update: a file that fails every time would otherwise be read by every search.
   */
  private async indexApart(
    file: { resolved: ResolvedSessionFile } & FileDescription,
    batch: WriteBatch,
    copies: CopyKeys,
    report: IndexReport,
  ): Promise<boolean | { unopened: string }> {
    try {
      return await this.indexFile(file, batch, copies, report);
    } catch (error) {
      if (!(error instanceof FileFailure)) throw error;
      const { resolved } = file;
      const row = this.db.get("SELECT id FROM files WHERE path = ?", [resolved.rel]);
      if (row) this.dropFile(row.id as number, batch.touched);
      batch.dropped = true;
      // size, mtime and inode as indexed, no line read: unchanged until the file changes, then read whole
      const fileId = this.db.run("INSERT INTO files(path, size, mtime, ino, indexed_to, lines, header_time, project) VALUES (?, ?, ?, ?, 0, 0, ?, ?)", [
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

  private dropFile(fileId: number, touched: Set<number>): void {
    for (const other of dropUsage(this.db, fileId)) touched.add(other);
    const del = this.db.prepare("DELETE FROM words WHERE rowid = ?");
    try {
      for (const row of this.db.all("SELECT id FROM entries WHERE file_id = ?", [fileId])) del.run([row.id]);
    } finally {
      del.finalize();
    }
    this.db.run("DELETE FROM entries WHERE file_id = ?", [fileId]);
    this.db.run("DELETE FROM unreadable WHERE file_id = ?", [fileId]);
    this.db.run("DELETE FROM files WHERE id = ?", [fileId]);
  }

  /**
   * Reads the file's complete lines from where it was indexed to (all of it when it is new or was replaced), in
   * the batch's transactions; false when another process indexed it meanwhile, `unopened` when it cannot be
   * opened (gone since it was listed, or not readable by this user).
   */
  private async indexFile(
    file: { resolved: ResolvedSessionFile } & FileDescription,
    batch: WriteBatch,
    copies: CopyKeys,
    report: IndexReport,
  ): Promise<boolean | { unopened: string }> {
    const { resolved } = file;
    // read again inside the transaction: the list was read before it, and another process may have written since
    const row = (this.db.get("SELECT id, path, size, mtime, ino, indexed_to, lines, leaf FROM files WHERE path = ?", [resolved.rel]) ?? undefined) as
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
        this.dropFile(row.id, batch.touched);
        batch.dropped = true;
      }
      fileId = this.db.run("INSERT INTO files(path, ino, indexed_to, lines) VALUES (?, ?, 0, 0)", [resolved.rel, resolved.ino]).lastInsertRowid;
    }
    copies.reading(fileId, resolved);
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
          if (!isObject(value) || value.type === "session" || (value.kind !== undefined && value.kind !== "entry")) continue;
          // what entryFingerprint takes for an entry's id; its content hash is made only when another row has the id
          const entryId = typeof value.id === "string" && value.id !== "" ? value.id : null;
          if (value.type === "leaf") leaf = typeof value.targetId === "string" ? value.targetId : null;
          else if (entryId !== null) leaf = entryId;
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
            const earlier = ids.get(entryId) ?? (from > 0 ? this.earlierRow(fileId, entryId, entry.id) : undefined);
            if (earlier && (pending.get(earlier.row)?.values[HASH] ?? this.hashOf(earlier.row)) === entry.values[HASH]) entry.values[ECHO] = 1;
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
            this.db.run(`UPDATE files SET indexed_to = ?, lines = ?, leaf = COALESCE(?, leaf), ${Span.SET} WHERE id = ?`, [
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
    this.markActivePath(fileId, written, [...pending.values()], leaf ?? oldLeaf, batch);
    this.db.run(
      `UPDATE files SET size = ?, mtime = ?, ino = ?, indexed_to = ?, lines = ?, header_time = ?, project = ?, leaf = COALESCE(?, leaf), ${Span.SET}
       WHERE id = ?`,
      [resolved.size, resolved.mtimeMs, resolved.ino, indexedTo, line, file.headerTime, file.project, leaf, ...span.values(), fileId],
    );
    return true;
  }

  /** The last row of the file holding `entryId` before row `before` (written by an earlier update: its line is not known). */
  private earlierRow(fileId: number, entryId: string, before: number): { line: number | null; row: number } | undefined {
    const row = this.db.get("SELECT id FROM entries WHERE entry_id = ? AND file_id = ? AND id < ? ORDER BY id DESC LIMIT 1", [entryId, fileId, before]);
    return row ? { line: null, row: row.id as number } : undefined;
  }

  private hashOf(rowid: number): unknown {
    return this.db.get("SELECT hash FROM entries WHERE id = ?", [rowid])?.hash;
  }

  /**
   * Writes the `pending` entries with whether each is on the path from `leaf` to its root, and corrects the flag
   * of the file's entries already written (`written`) where the leaf moved.
   */
  private markActivePath(fileId: number, written: boolean, pending: readonly EntryRow[], leaf: string | null, batch: WriteBatch): void {
    const before = written
      ? this.db.all("SELECT id, entry_id, parent_id, on_active FROM entries WHERE file_id = ? ORDER BY id", [fileId]).map((row) => ({
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
    const onPath = new Set<string>();
    for (let at = leaf; at !== null && at !== undefined && parents.has(at) && !onPath.has(at); at = parents.get(at)!) onPath.add(at);
    const active = (entryId: string | null) => entryId !== null && onPath.has(entryId);
    for (const entry of before) {
      if (entry.onActive !== active(entry.entryId)) batch.run("UPDATE entries SET on_active = ? WHERE id = ?", [active(entry.entryId) ? 1 : 0, entry.id]);
    }
    for (const entry of pending) batch.insertEntry(entry, active(entry.entryId));
  }

  /**
   * Entries that hold every term of `query`, best first; an entry a fork copied (same id and content in several
   * files) is one hit, in the oldest file. `dir`: the sessions directory, where snippets are read from.
   */
  async search(query: string, filters: SearchFilters, dir: string, limit = 100): Promise<LibrarySearchHit[]> {
    return (await this.searchPage(query, filters, dir, limit)).hits;
  }

  /**
   * The first `limit` hits and how many there are in all (copies counted once; see `capped`). `files`: the library's
   * files as listed, by path, so that lines are read without resolving their paths again.
   */
  async searchPage(query: string, filters: SearchFilters, dir: string, limit = 100, files?: ReadonlyMap<string, ResolvedSessionFile>): Promise<SearchPage> {
    // Infinity ranks every hit (tests, benches); what comes from outside is checked to 1–500 (library-params.ts)
    if (limit !== Infinity && !(Number.isInteger(limit) && limit > 0)) throw new RangeError(`a search's limit is a whole number above 0, not ${limit}`);
    const terms = librarySearchTerms(query);
    if (terms.length === 0) return { hits: [], total: 0, capped: false };
    const lines = new LineReader(dir, files, this.checkedBytes);
    try {
      const found = await this.reading(async () => {
        const ids = this.idsWithin(filters);
        if (ids === "none") return { shown: [], total: 0, capped: false };
        const search: Search = { terms, limit, cap: Math.max(this.rankedHits, limit), ...conditions(filters), filters, ids, lines };
        const found = (Number.isFinite(limit) ? await this.findNewest(search) : null) ?? (await this.findRanked(search));
        // a line repeating one of its file is no hit (it has no words) but is a copy all the same (a capped page
        // counts copies from the entries already)
        if (!found.capped)
          for (const [i, located] of found.shown.entries()) {
            if (located.key?.hash != null) this.countCopies(located, search);
            if (i % PER_BREATH === PER_BREATH - 1) await breathe();
          }
        return found;
      });
      lines.allow(SNIPPET_BYTES);
      const texts = await lines.read(found.shown);
      for (const [i, located] of found.shown.entries()) {
        const text = texts[i] ?? null;
        const words = text === null ? null : lineText(text);
        // a file that changed since it was indexed: the hit stands, without its words
        located.hit.snippet = words === null ? "" : searchSnippet(words, terms);
      }
      return { hits: found.shown.map((located) => located.hit), total: found.total, capped: found.capped };
    } finally {
      lines.close();
    }
  }

  /**
   * The entry ids a date filter leaves: from the first of the files whose entries reach into the dates to the last
   * ("none" when no file's do). FTS5 then seeks there rather than walk back through every later hit.
   */
  private idsWithin(filters: SearchFilters): Search["ids"] | "none" {
    if (filters.from === undefined && filters.to === undefined) return null;
    const row = this.db.get("SELECT min(first_id) AS low, max(last_id) AS high FROM files WHERE last_time >= ? AND first_time < ?", [
      filters.from ?? -Infinity,
      filters.to ?? Infinity,
    ]);
    return row?.low === null || row?.low === undefined ? "none" : { low: row.low as number, high: row.high as number };
  }

  /** FTS5's plan: every hit, ranked by bm25, or (`limit` finite) the newest past the cap. */
  private async findRanked(search: Search): Promise<Found> {
    const condition = ftsCondition(search);
    const args = [ftsQuery(search.terms), ...search.values];
    const ranked = (range: string) =>
      this.db.all(`SELECT ${HIT_COLUMNS}, bm25(words) AS score ${FTS_FROM} WHERE ${condition}${range} ORDER BY score, f.header_time, f.path, e.id`, args);
    if (!Number.isFinite(search.limit)) return page(ranked(""), search.limit, false);
    // the newest hits first, unscored: FTS5 walks its lists from the end and stops past the cap (scoring them here
    // made FTS5 read every hit's places: a common word's capped page took twice as long)
    const newest = this.db.all(`SELECT ${HIT_COLUMNS}, 0 AS score ${FTS_FROM} WHERE ${condition} ORDER BY words.rowid DESC LIMIT ${search.cap + 1}`, args);
    if (newest.length > search.cap) return this.cappedPage(newest, search);
    if (newest.length === 0) return { shown: [], total: 0, capped: false };
    await breathe();
    // every hit is known: scored, FTS5 seeking to the oldest
    return page(ranked(` AND words.rowid >= ${newest.at(-1)!.id as number}`), search.limit, false);
  }

  /**
   * A query with a prefix, answered without letting FTS5 expand a common one: FTS5 reads every word a prefix
   * begins, with all their places, before its first hit ("the" begins five thousand words of a gigabyte library:
   * half a second), even for a rare phrase that ends in it ("function and"). Null when FTS5's own plan is the better
   * one.
   *
   * First the newest entries that pass the filters are read and checked here, up to a budget of them: enough
   * when the query is common. Otherwise a sample of the newest entries tells which prefixes are common in the
   * library (COMMON of them or more): the terms ending in one are checked here, on the entries FTS5 finds for the
   * others (and for the words before the prefix, of a phrase), newest first, or on the newest entries when that
   * leaves FTS5 nothing. When the query with those prefixes taken as whole words has more than `cap` hits, so has
   * the query, and the `limit` it shows lie no further back than its: only entries from there are read, and the
   * page's total is the whole-word query's.
   */
  private async findNewest(search: Search): Promise<Found | null> {
    const { terms, cap } = search;
    const isPrefix = (term: readonly string[]) => isPrefixWord(term[term.length - 1]!);
    if (!terms.some(isPrefix)) return null;
    const scanned = await this.scan(search);
    if (scanned.length > cap) return this.cappedPage(scanned, search);
    // the newest lines were too long to check within the allowance: FTS5's plan reads none
    if (search.lines.spent) return null;
    // each prefix alone is counted: a phrase may be rare and its prefix common
    const prefixes = terms.filter(isPrefix).map((term) => term[term.length - 1]!);
    const sample = await this.sample(prefixes, search.lines);
    if (sample.size < MIN_SAMPLE) return null;
    const checked = terms.filter((term) => isPrefix(term) && sample.counts.get(term[term.length - 1]!)! >= COMMON * sample.size);
    if (checked.length === 0) return null;
    const indexed = terms.flatMap((term) => (!checked.includes(term) ? [ftsQuery([term])] : term.length > 1 ? [ftsPhrase(term.slice(0, -1), false)] : []));
    const match = indexed.length ? indexed.join(" AND ") : null;
    const known = await this.transaction(() => this.wholeWordFloor(indexed, checked, search));
    await breathe();
    // with nothing for FTS5 to find, every entry is a candidate: only from a floor
    if (match === null && known === null) return null;
    const hits = await this.drive(match, checked, known?.floor ?? null, search);
    if (hits === null) return null;
    if (known !== null || hits.length > search.cap) return this.cappedPage(hits, search, known?.entries ?? 0);
    if (hits.length === 0 || match === null) return { shown: [], total: 0, capped: false };
    // every hit is known: ranked by bm25 over what FTS5 answered (a common word weighs next to nothing in it)
    const scores = await this.transaction(
      () =>
        new Map(
          this.db
            .all(`SELECT rowid AS id, bm25(words) AS score FROM words WHERE words MATCH ? AND rowid >= ?`, [match, hits.at(-1)!.id])
            .map((row) => [row.id as number, row.score as number]),
        ),
    );
    for (const row of hits) row.score = scores.get(row.id as number) ?? 0;
    return page(hits.sort(byRank), search.limit, false);
  }

  /**
   * The newest entries passing the filters, up to the budget, checked against the terms. The scan stops early
   * when its hits so far promise no more than the cap.
   */
  private async scan(search: Search): Promise<Record<string, unknown>[]> {
    const { cap } = search;
    const hits: Record<string, unknown>[] = [];
    const checker = termsChecker(search.terms);
    let seen = 0;
    const budget = READ_PER_HIT * (cap + 1);
    const windows = await this.transaction(() => this.scanWindows(search.filters));
    scanning: for (const window of windows) {
      for (let before = window.to; seen < budget && hits.length <= cap;) {
        const rows = await this.transaction(() =>
          this.db.all(
            `SELECT ${HIT_COLUMNS}, 0 AS score ${ENTRY_FROM} WHERE e.id < ? AND e.id >= ? AND e.echo = 0${and(search.where)} ORDER BY e.id DESC LIMIT ${SCAN_CHUNK}`,
            [before, window.from, ...search.values],
          ),
        );
        if (rows.length === 0) break;
        const texts = await search.lines.read(rows);
        if (search.lines.spent) break scanning;
        for (const [i, row] of rows.entries()) {
          const text = texts[i] ?? null;
          if (text !== null && checker.holds(text)) hits.push(row);
        }
        seen += rows.length;
        before = rows.at(-1)!.id as number;
        await breathe();
        if (hits.length * budget < (cap + 1) * seen) break scanning;
      }
      if (seen >= budget || hits.length > cap) break;
    }
    return hits;
  }

  /** How many of the newest SCAN_CHUNK entries of the library (unfiltered) hold each prefix. */
  private async sample(prefixes: readonly string[], lines: LineReader): Promise<{ size: number; counts: Map<string, number> }> {
    const rows = await this.transaction(() => this.db.all(`SELECT e.off, f.path, e.len ${ENTRY_FROM} WHERE e.echo = 0 ORDER BY e.id DESC LIMIT ${SCAN_CHUNK}`));
    await breathe();
    const checker = termsChecker(prefixes.map((prefix) => [prefix]));
    const counts = new Map(prefixes.map((prefix) => [prefix, 0]));
    let size = 0;
    for (const text of await lines.read(rows)) {
      const held = text === null ? null : checker.each(text);
      if (held === null) continue;
      size++;
      held.forEach((yes, i) => yes && counts.set(prefixes[i]!, counts.get(prefixes[i]!)! + 1));
    }
    return { size, counts };
  }

  /**
   * The lowest entry id the shown hits of a capped page can lie at, known from the query with its checked prefixes
   * taken as whole words (FTS5 finds those without expanding them, newest first): when that has more than `cap`
   * hits, so has the query, and the newest `limit` entries it holds are among its hits from where that holds
   * `limit` and one. Null when that has no more than `cap` hits (among the newest SCAN_WINDOW entries, when
   * filters other than dates narrow the search: FTS5 would walk every hit of the words to find those passing).
   */
  private wholeWordFloor(indexed: readonly string[], checked: Terms, search: Search): { floor: number; entries: number } | null {
    const match = [...indexed, ...checked.map((term) => ftsPhrase(term, false))].join(" AND ");
    const narrowed = search.where.some((clause) => !clause.startsWith("e.time"));
    const top = search.ids?.high ?? (this.db.get("SELECT max(id) AS id FROM entries")?.id as number | null) ?? 0;
    const rows = this.db.all(
      `SELECT words.rowid AS id, e.entry_id, e.hash, e.file_id, e.off ${FTS_FROM} WHERE ${ftsCondition(search)} AND words.rowid > ?
       ORDER BY words.rowid DESC LIMIT ${search.cap + 1}`,
      [match, ...search.values, narrowed ? top - SCAN_WINDOW : 0],
    );
    if (rows.length <= search.cap) return null;
    const keys = rows.slice(0, search.cap).map(copyKey);
    const entries = new Set<string>();
    const at = keys.findIndex((key) => entries.add(key).size > search.limit);
    return { floor: rows[at === -1 ? search.cap : at]!.id as number, entries: new Set(keys).size };
  }

  /**
   * Where the newest entries passing the filters lie: entry ids from `from` to before `to`, newest first, SCAN_WINDOW
   * ids in all. Within a project or dates, the spans of the files of the project whose entries reach into the
   * dates (rowids follow time only roughly, and the newest entries may all be one session's).
   */
  private scanWindows(filters: SearchFilters): { from: number; to: number }[] {
    // a file whose entries have no time holds none within dates, and may hold the newest without
    const dated = filters.from !== undefined || filters.to !== undefined;
    const where = ["first_id IS NOT NULL", "(? IS NULL OR project = ?)", "(? = 0 OR (last_time >= ? AND first_time < ?))"];
    const values = [filters.project ?? null, filters.project ?? null, dated ? 1 : 0, filters.from ?? -Infinity, filters.to ?? Infinity];
    const spans = this.db
      .all(`SELECT first_id AS low, last_id AS high FROM files WHERE ${where.join(" AND ")} ORDER BY last_id DESC`, values)
      .map((row) => ({ from: row.low as number, to: (row.high as number) + 1 }));
    // overlapping spans as one, newest first, until the window is spent
    const windows: { from: number; to: number }[] = [];
    let left = SCAN_WINDOW;
    for (const span of spans) {
      const last = windows.at(-1);
      if (last && span.to >= last.from) last.from = Math.min(last.from, span.from);
      else windows.push({ ...span });
    }
    for (const window of windows) {
      window.from = Math.max(window.from, window.to - left);
      left -= window.to - window.from;
    }
    return windows.filter((window) => window.to > window.from);
  }

  /**
   * The entries FTS5 finds for `match` (every entry passing the filters when null), newest first, that hold the
   * `checked` terms too (read here): until more than the cap or, from a `floor` (wholeWordFloor), until one more
   * entry than the limit. Null when more than READ_PER_HIT for each hit of the cap would have to be read.
   */
  private async drive(match: string | null, checked: Terms, floor: number | null, search: Search): Promise<Record<string, unknown>[] | null> {
    const { cap, limit } = search;
    const budget = READ_PER_HIT * (cap + 1);
    const checker = termsChecker(checked);
    const hits: Record<string, unknown>[] = [];
    const entries = new Set<string>();
    const found = () => (floor === null ? hits.length : entries.size);
    const needed = floor === null ? cap + 1 : limit + 1;
    let before = Number.MAX_SAFE_INTEGER;
    for (let seen = 0; ;) {
      // as many as the hits so far say are needed
      const rate = seen ? Math.max(found() / seen, 0.05) : 1;
      const chunk = Math.min(DRIVE_CHUNK, Math.max(128, Math.ceil((needed - found()) / rate) + 32));
      const rows = await this.transaction(() =>
        match === null
          ? this.db.all(
              `SELECT ${HIT_COLUMNS}, 0 AS score ${ENTRY_FROM} WHERE e.id < ? AND e.id >= ? AND e.echo = 0${and(search.where)} ORDER BY e.id DESC LIMIT ${chunk}`,
              [before, floor ?? 0, ...search.values],
            )
          : this.db.all(
              `SELECT ${HIT_COLUMNS}, 0 AS score ${FTS_FROM} WHERE ${ftsCondition(search)} AND words.rowid < ? AND words.rowid >= ?
               ORDER BY words.rowid DESC LIMIT ${chunk}`,
              [match, ...search.values, before, floor ?? 0],
            ),
      );
      const texts = await search.lines.read(rows);
      if (search.lines.spent) return null;
      for (const [i, row] of rows.entries()) {
        const text = texts[i] ?? null;
        if (text === null || !checker.holds(text)) continue;
        hits.push(row);
        entries.add(copyKey(row));
      }
      seen += rows.length;
      await breathe();
      if (found() >= needed || rows.length < chunk) return hits;
      // from a floor the hits are known to be there: the rate so far says whether the budget reaches them
      const projected = seen + (needed - found()) / Math.max(found() / seen, 1 / (seen + 1));
      if (seen >= budget || (floor !== null && projected > budget)) return null;
      before = rows.at(-1)!.id as number;
    }
  }

  /**
   * The newest `cap` of `rows` (newest first) as a capped page, each hit in its oldest copy; `known`: how many
   * entries the query is known to hold at least, when `rows` are not all of its newest.
   */
  private async cappedPage(rows: readonly Record<string, unknown>[], search: Search, known = 0): Promise<Found> {
    const found = page(rows.slice(0, search.cap), search.limit, true);
    found.total = Math.max(found.total, known);
    // only the newest hits were seen: an entry's oldest copy passing the filters may lie among the others
    for (const [i, located] of found.shown.entries()) {
      await this.transaction(() => this.oldestCopy(located, search.where, search.values));
      if (i % PER_BREATH === PER_BREATH - 1) await breathe();
    }
    return found;
  }

  /** Shows the hit in the oldest file holding its entry that passes the filters, counting the others. */
  private oldestCopy(located: LocatedHit, where: readonly string[], values: readonly unknown[]): void {
    if (located.key === null) return;
    const copies = this.db.all(
      `SELECT e.off, e.len, e.on_active, f.path FROM entries e JOIN files f ON f.id = e.file_id
       WHERE e.entry_id = ? AND e.hash IS ?${where.map((clause) => ` AND ${clause}`).join("")} ORDER BY f.header_time, f.path, e.id`,
      [located.key.entryId, located.key.hash, ...values],
    );
    const first = copies[0];
    if (!first) return;
    located.hit.file = first.path as string;
    located.hit.onActivePath = first.on_active === 1;
    located.hit.alsoIn = copies.length - 1;
    located.path = first.path as string;
    located.off = first.off as number;
    located.len = first.len as number;
  }

  /** Counts the rows holding the hit's entry that pass the filters, but its own. */
  private countCopies(located: LocatedHit, search: Search): void {
    const row = this.db.get(`SELECT count(*) AS n ${ENTRY_FROM} WHERE e.entry_id = ? AND e.hash IS ?${and(search.where)}`, [
      located.key!.entryId,
      located.key!.hash,
      ...search.values,
    ]);
    located.hit.alsoIn = Math.max(0, (row?.n as number) - 1);
  }

  /** The library's usage sums: what each file counts by day and model, and what it copied from older files. */
  async usageSums(): Promise<StoredUsage> {
    return this.transaction(() => readUsageSums(this.db));
  }

  /** A file's usage (what it counts, from `since`) split by branch. */
  async usageBranches(file: string, since: number | null): Promise<BranchUsage[]> {
    return this.transaction(() => fileBranches(this.db, file, since));
  }

  /** What the filters can be set to: the models, tools and roles the index holds, sorted. */
  async facets(): Promise<SearchFacets> {
    const rows = await this.transaction(() => this.db.all("SELECT kind, value FROM facets ORDER BY value"));
    const of = (kind: string) => rows.filter((row) => row.kind === kind).map((row) => row.value as string);
    return { models: of("model"), tools: of("tool"), roles: of("role") };
  }
}

const INSERT_UNREADABLE = "INSERT INTO unreadable(file_id, line, message, indexed) VALUES (?, ?, ?, ?)";

/** What the problems say of a line whose id an earlier line of its file holds with other content (as the viewer says it). */
function reusedIdMessage(entryId: string, earlierLine: number | null): string {
  const where = earlierLine === null ? "earlier in the file" : `on line ${earlierLine}`;
  return `id ${JSON.stringify(entryId)} was already used ${where} with other content; this line replaces it (pi: the last line wins); both are searched and counted`;
}

/** An error reading one file (its bytes, what they hold), as against one of the index (SQLite's, its lock). */
class FileFailure extends Error {
  constructor(
    /** the line it was read to (1-based) */
    readonly line: number,
    cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = "FileFailure";
  }
}

/** Errors that are the index's, whichever file was being read: they end the update, never one file's part in it. */
function isIndexError(error: unknown): boolean {
  return error instanceof SearchIndexBusyError || error instanceof WebAssembly.RuntimeError || (error instanceof Error && error.name === "SQLite3Error");
}

const HIT_COLUMNS = "e.id, e.file_id, e.entry_id, e.hash, e.off, e.len, e.on_active, e.role, e.time, f.path, f.header_time";
// CROSS JOIN keeps the first table the outer loop: the planner otherwise may walk a project's entries and ask FTS5
// about each one
const FTS_FROM = "FROM words CROSS JOIN entries e ON e.id = words.rowid CROSS JOIN files f ON f.id = e.file_id";
const ENTRY_FROM = "FROM entries e CROSS JOIN files f ON f.id = e.file_id";

/**
 * How many entry lines a query with a prefix reads, at most, per hit it needs (the cap and one), before leaving the
 * query to FTS5: four thousand lines, at the cap of 500, take about what FTS5's expansion of a common prefix does.
 */
const READ_PER_HIT = 8;
/**
 * The bytes of lines a search reads to check its terms (a few thousand lines of a few kilobytes are a few megabytes;
 * a few lines near the line limit are not checked), and then to cut its snippets.
 */
const CHECKED_BYTES = 64 * 1024 * 1024;
const SNIPPET_BYTES = 64 * 1024 * 1024;
/** Hits looked up (their oldest copy, their copies) between two breaths. */
const PER_BREATH = 32;

/** Lets the rest of the process run (another request) between two steps of a question. */
const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Lines read per step: entry rows are asked a chunk at a time, and read together */
const SCAN_CHUNK = 256;
const DRIVE_CHUNK = 1024;
/** How far back (entry ids) the newest entries are looked for: filters that pass few leave the query to FTS5. */
const SCAN_WINDOW = 50_000;
/** The fewest entries of a sample that tell how common a prefix is. */
const MIN_SAMPLE = 64;
/** A prefix the sample holds this often or more is common: checked here, not expanded by FTS5. */
const COMMON = 0.1;

type Terms = readonly (readonly string[])[];

/** A search as its plans take it. */
interface Search {
  terms: Terms;
  limit: number;
  /** how many hits are ranked: more make the page capped */
  cap: number;
  filters: SearchFilters;
  /** the filters as SQL over entries `e` and files `f` */
  where: string[];
  values: unknown[];
  /** the entry ids the date filters leave, or null */
  ids: { low: number; high: number } | null;
  lines: LineReader;
}

/** The MATCH (its query the first value) and the filters, over FTS_FROM; rowids kept within the dates' ids. */
function ftsCondition(search: Search): string {
  const ids = search.ids ? ` AND words.rowid >= ${search.ids.low} AND words.rowid <= ${search.ids.high}` : "";
  return `words MATCH ?${ids}${and(search.where)}`;
}

/** A page of hits: the shown ones, how many in all, and whether that is a lower bound. */
interface Found {
  shown: LocatedHit[];
  total: number;
  capped: boolean;
}

/** A hit with where its line is, and its entry's copy key (null for a line without an id: it has no copies). */
interface LocatedHit {
  hit: LibrarySearchHit;
  path: string;
  off: number;
  len: number;
  key: { entryId: string; hash: number | null } | null;
}

const and = (clauses: readonly string[]) => clauses.map((clause) => ` AND ${clause}`).join("");

/** The filters as SQL over entries `e` and files `f`. */
function conditions(filters: SearchFilters): { where: string[]; values: unknown[] } {
  const where: string[] = [];
  const values: unknown[] = [];
  const add = (clause: string, value?: unknown) => {
    where.push(clause);
    if (value !== undefined) values.push(value);
  };
  if (filters.project !== undefined) add("f.project = ?", filters.project);
  if (filters.from !== undefined) add("e.time >= ?", filters.from);
  if (filters.to !== undefined) add("e.time < ?", filters.to);
  if (filters.role !== undefined) add("e.role = ?", filters.role);
  if (filters.model !== undefined) add("e.model = ?", filters.model);
  if (filters.tool !== undefined) add("(' ' || e.tools || ' ') LIKE ?", `% ${filters.tool} %`);
  if (filters.activeOnly) add("e.on_active = 1");
  return { where, values };
}

/** Best first: bm25, then the oldest file, then file order (SQL's ORDER BY of the ranked query). */
function byRank(a: Record<string, unknown>, b: Record<string, unknown>): number {
  const text = (x: unknown, y: unknown) => ((x as string) < (y as string) ? -1 : (x as string) > (y as string) ? 1 : 0);
  return (a.score as number) - (b.score as number) || text(a.header_time, b.header_time) || text(a.path, b.path) || (a.id as number) - (b.id as number);
}

/** What tells an entry's copies from other entries: its id and content hash, or its file and line. */
function copyKey(row: Record<string, unknown>): string {
  const id = row.entry_id as string | null;
  return id === null ? `${row.file_id as number} ${row.off as number}` : `${id} ${row.hash as number | null}`;
}

/** Rows (best first, copies of an entry in file age order) as a page: a copy is one hit, in the first file. */
function page(rows: readonly Record<string, unknown>[], limit: number, capped: boolean): Found {
  const seen = new Map<string, LocatedHit>();
  const distinct: LocatedHit[] = [];
  for (const row of rows) {
    const off = row.off as number;
    const id = row.entry_id as string | null;
    const key = copyKey(row);
    const first = seen.get(key);
    if (first) {
      first.hit.alsoIn++;
      continue;
    }
    const located: LocatedHit = {
      hit: {
        file: row.path as string,
        entryId: id ?? `line@${off}`,
        onActivePath: row.on_active === 1,
        snippet: "",
        score: row.score as number,
        alsoIn: 0,
        role: row.role as string | null,
        time: row.time as number | null,
      },
      path: row.path as string,
      off,
      len: row.len as number,
      key: id === null ? null : { entryId: id, hash: row.hash as number | null },
    };
    seen.set(key, located);
    distinct.push(located);
  }
  return { shown: distinct.slice(0, limit), total: distinct.length, capped };
}

/** What an entry line is searched by, or null when it no longer reads as an entry (its file changed since). */
function lineText(line: string): string | null {
  try {
    const value: unknown = JSON.parse(line);
    return isObject(value) && !nestsDeeperThan(value) ? entrySearchText(value as SessionEntry) : null;
  } catch {
    return null;
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

/** An entry line's row, its on_active left for the end of its file and its hash for when another row has its id. */
function entryRow(id: number, fileId: number, entryId: string | null, value: Record<string, unknown>, offset: number, length: number): EntryRow {
  const message = isObject(value.message) ? value.message : null;
  const role = message && typeof message.role === "string" ? message.role : typeof value.type === "string" ? value.type : null;
  const model = message?.role === "assistant" && typeof message.model === "string" ? `${text(message.provider)}/${message.model}` : null;
  const time = typeof value.timestamp === "string" ? Date.parse(value.timestamp) : typeof value.timestamp === "number" ? value.timestamp : NaN;
  const parentId = typeof value.parentId === "string" ? value.parentId : null;
  return {
    id,
    entryId,
    parentId,
    off: offset,
    len: length,
    values: [id, fileId, entryId, parentId, null, Number.isNaN(time) ? null : time, role, model, toolsOf(message), offset, length, 0],
  };
}

/** A value as String() writes it, but an object: String({"toString": 1}) throws, and a line may hold one. */
function text(value: unknown): string {
  return typeof value === "object" && value !== null ? Object.prototype.toString.call(value) : String(value);
}

function toolsOf(message: Record<string, unknown> | null): string | null {
  if (!message) return null;
  if (message.role === "toolResult" && typeof message.toolName === "string") return message.toolName;
  if (message.role === "bashExecution") return "bash";
  if (message.role !== "assistant" || !Array.isArray(message.content)) return null;
  const names = message.content.flatMap((block) => (isObject(block) && block.type === "toolCall" && typeof block.name === "string" ? [block.name] : []));
  return names.length ? names.join(" ") : null;
}

/**
 * The copy keys of the entries an update writes. A fork's copy of an entry has its source's id and content, and a
 * search shows the two as one hit: rows are grouped by entry id and content hash (entryFingerprint's). Hashing an
 * entry's content (its JSON made again) took a tenth of a first index, and ids are all but unique, so the hash is
 * made only for an id more than one row holds: with the second row, the first one's line is read again. A row no
 * other shares its id with keeps a null hash; one whose line no longer reads as its entry gets minus its row id,
 * which no other row has.
 */
class CopyKeys {
  /** entry id → the first row of this update holding it, while that row's hash is not made (0 once it is) */
  private readonly first = new Map<string, number>();
  private readonly fileIds = new Map<number, ResolvedSessionFile>();
  private readonly handles = new Map<number, Promise<FileHandle>>();

  constructor(
    private readonly db: Database,
    private readonly batch: WriteBatch,
    /** rows written before this update may hold the same ids */
    private readonly earlier: boolean,
    private readonly byRel: ReadonlyMap<string, ResolvedSessionFile>,
  ) {}

  reading(fileId: number, resolved: ResolvedSessionFile): void {
    this.fileIds.set(fileId, resolved);
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
        if (at) {
          const buffer = Buffer.alloc(at.len);
          await (await this.handle(at.fileId)).read(buffer, 0, at.len, at.off);
          const parsed = parseLine({ bytes: buffer, length: at.len }, at.len);
          const fingerprint = "value" in parsed ? entryFingerprint(parsed.value) : null;
          if (fingerprint?.id === entryId) hash = fingerprint.hash;
        }
      } catch {
        // the file changed since: its rows are read again when the update comes to it
      }
      if (unwritten) unwritten.values[HASH] = hash;
      else this.batch.run("UPDATE entries SET hash = ? WHERE id = ?", [hash, rowid]);
    }
  }

  private handle(fileId: number): Promise<FileHandle> {
    let handle = this.handles.get(fileId);
    if (!handle) {
      const rel = this.db.get("SELECT path FROM files WHERE id = ?", [fileId])?.path as string | undefined;
      const resolved = this.fileIds.get(fileId) ?? (rel === undefined ? undefined : this.byRel.get(rel));
      handle = resolved ? openSessionFile(resolved) : Promise.reject(new Error("not in the library"));
      handle.catch(() => {});
      this.handles.set(fileId, handle);
    }
    return handle;
  }

  async close(): Promise<void> {
    for (const handle of this.handles.values()) await handle.then((h) => h.close()).catch(() => {});
    this.handles.clear();
  }
}

/**
 * The write transactions of one update: BATCH_ENTRIES entries each, then a commit and a new transaction. Entry
 * ids are handed out here (words and row go in under the same id, the row later). A first index does not wait for
 * the disk (synchronous=OFF): a process that dies is still rolled back by the journal, and only a machine losing
 * power mid-index can damage the file, which SqliteLibraryIndex.open then makes anew.
 */
class WriteBatch {
  /** entries in the open transaction */
  entries = 0;
  private next = 0;
  private readonly statements = new Map<string, Statement>();
  /** facet values written in this update */
  private readonly facets = new Set<string>();
  /** a file's entries were dropped: the facets are counted again at the end */
  dropped = false;
  /** files read or dropped, or sharing entries with a dropped one: their usage sums are made again at the end */
  readonly touched = new Set<number>();

  constructor(
    private readonly db: Database,
    private readonly retry: (run: () => void) => Promise<void>,
    private readonly bulk: boolean,
  ) {}

  async begin(): Promise<void> {
    if (this.bulk) this.db.exec("PRAGMA synchronous=OFF; PRAGMA cache_size=-65536;");
    await this.retry(() => this.db.exec("BEGIN IMMEDIATE"));
    // a first index looks no copy up (CopyKeys keeps them in memory) and searches nothing: the indexes on copies
    // and times are made once, at the end (SqliteLibraryIndex.open makes them again after a crash)
    if (this.bulk) this.db.exec("DROP INDEX IF EXISTS entries_copy; DROP INDEX IF EXISTS entries_time;");
    // AUTOINCREMENT: an id is never handed out twice, even after its entry was dropped, so rowids keep to time
    this.next = ((this.db.get("SELECT seq FROM sqlite_sequence WHERE name = 'entries'")?.seq as number | undefined) ?? 0) + 1;
  }

  get full(): boolean {
    return this.entries >= BATCH_ENTRIES;
  }

  nextId(): number {
    this.entries++;
    return this.next++;
  }

  run(sql: string, values: unknown[]): void {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.db.prepare(sql)));
    statement.run(values);
  }

  insertWords(id: number, body: Uint8Array): void {
    this.run("INSERT INTO words(rowid, body) VALUES (?, ?)", [id, body]);
  }

  insertEntry(entry: EntryRow, active: boolean): void {
    this.run(
      "INSERT INTO entries(id, file_id, entry_id, parent_id, hash, time, role, model, tools, off, len, echo, on_active) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      [...entry.values, active ? 1 : 0],
    );
    const [role, model, tools] = entry.values.slice(6, 9) as [string | null, string | null, string | null];
    if (role !== null) this.facet("role", role);
    if (model !== null) this.facet("model", model);
    if (tools !== null) for (const tool of tools.split(" ")) this.facet("tool", tool);
  }

  private facet(kind: string, value: string): void {
    const key = `${kind} ${value}`;
    if (this.facets.has(key)) return;
    this.facets.add(key);
    this.run("INSERT OR IGNORE INTO facets(kind, value) VALUES (?, ?)", [kind, value]);
  }

  /** The facets from every entry: a dropped file may have held a model no other does. */
  private countFacets(): void {
    this.db.exec("DELETE FROM facets");
    for (const [kind, column] of [
      ["role", "role"],
      ["model", "model"],
      ["tool", "tools"],
    ] as const) {
      const values = this.db.all(`SELECT DISTINCT ${column} AS v FROM entries WHERE ${column} IS NOT NULL`).flatMap((row) => (row.v as string).split(" "));
      for (const value of new Set(values)) this.run("INSERT OR IGNORE INTO facets(kind, value) VALUES (?, ?)", [kind, value]);
    }
  }

  async commit(): Promise<void> {
    this.db.exec("COMMIT");
    this.entries = 0;
    await this.begin();
  }

  async end(): Promise<void> {
    if (this.bulk) {
      // one index at a time, the process's other work between them
      for (const index of LATE_INDEXES.split(";").filter((sql) => sql.trim())) {
        this.db.exec(index);
        await breathe();
      }
    }
    if (this.dropped) this.countFacets();
    // with the copies' index in place: whether an entry is a copy is looked up per entry with usage; a first index
    // touched every file, and needs not ask which others share their entries
    refreshUsageSums(this.db, this.bulk ? this.touched : sharingFiles(this.db, this.touched));
    this.db.exec("COMMIT");
    this.close();
  }

  abort(): void {
    if (this.db.inTransaction) this.db.exec("ROLLBACK");
    this.close();
  }

  private close(): void {
    for (const statement of this.statements.values()) statement.finalize();
    this.statements.clear();
    if (this.bulk) this.db.exec("PRAGMA synchronous=NORMAL; PRAGMA cache_size=-32768;");
  }
}
