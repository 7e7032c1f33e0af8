// The library index (../library-index.ts) in SQLite, kept on disk under the cache directory. The engine is SQLite's
// FTS5 through node-sqlite3-wasm: SQLite compiled to WebAssembly with a file system of Node's, so the index is one
// file, installed from the npm registry alone (no native build, no prebuilt binary fetched at install time), and
// SQLite is as well kept as software gets. The words (lib/library/library-search.ts) are made there, not by FTS5,
// and the table keeps no text of its own (contentless): snippets are read from the session files. FTS5's ascii
// tokenizer cuts at every ASCII character but letters, digits and "_", folds A-Z and keeps any other character in
// its word: an ASCII text is handed to it as it is (it cuts and folds exactly as searchWords does, and cutting a
// gigabyte in JavaScript first cost a tenth of a first index), any other as searchWords' words joined by spaces.
//
// The modules beside this one: database.ts (the file, its lock, busy retries), schema.ts (tables and version),
// file-turns.ts (this process's questions of a file, one at a time), kept-indexes.ts (open between questions),
// update-status.ts (the update under way), update-index.ts, index-file.ts, write-batch.ts, copy-keys.ts,
// entry-row.ts (writing), search-page.ts, ranked-plan.ts, newest-plan.ts, newest-scan.ts, search-rows.ts (query
// plans), usage-store.ts (usage sums).
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
import { statSync } from "node:fs";
import type { IndexProgress, LibrarySearchHit, SearchFacets, SearchStatus, UnreadableLine } from "@/lib/library/search-api";
import type { BranchUsage } from "@/lib/library/usage";
import type { ResolvedSessionFile } from "../../safe-path";
import type { IndexReport, LibraryFile, LibraryIndex, SearchFilters, SearchPage, StoredUsage } from "../library-index";
import { libraryIndexTuning, type LibraryIndexTuning } from "../library-index-tuning";
import type { Connection } from "./database";
import { inTurn } from "./file-turns";
import { forgetKept, releaseKept } from "./kept-indexes";
import { openIndexFile } from "./schema";
import { searchPage } from "./search-page";
import { updateEnded, updateProgress, updateStatus } from "./update-status";
import { unreadableLines, updateIndex } from "./update-index";
import { fileBranches, readUsageSums } from "./usage-store";

export class SqliteLibraryIndex implements LibraryIndex {
  /** the file's inode as connected to (kept-indexes.ts); null before the first question */
  ino: number | null = null;
  private conn: Connection | null = null;
  /** the last question failed: the next connects anew (a connection that failed is not trusted) */
  private failed = false;
  private closed = false;
  private readonly tuning: LibraryIndexTuning;

  /** The index kept in `file`, connected to (schema.ts: made anew when damaged or of another version) at its first question. */
  constructor(
    private readonly file: string,
    tuning: Partial<LibraryIndexTuning> = {},
  ) {
    this.tuning = libraryIndexTuning(tuning);
  }

  static open(file: string, tuning: Partial<LibraryIndexTuning> = {}): Promise<SqliteLibraryIndex> {
    return Promise.resolve(new SqliteLibraryIndex(file, tuning));
  }

  release(): void {
    releaseKept(this.file, this);
  }

  /** Closed once the questions already asked have their answers; any asked later is refused. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    forgetKept(this.file, this);
    void inTurn(this.file, async () => {
      this.conn?.close();
      this.conn = null;
    });
  }

  /** `ask` in this process's turn of the file, connected. */
  private ask<T>(ask: (conn: Connection) => Promise<T> | T): Promise<T> {
    if (this.closed) return Promise.reject(new Error(`the search index ${this.file} was closed`));
    return inTurn(this.file, async () => {
      if (this.failed) {
        this.failed = false;
        this.conn?.close();
        this.conn = null;
      }
      if (!this.conn) {
        this.conn = await openIndexFile(this.file, this.tuning);
        this.ino = statSync(this.file).ino;
      }
      try {
        return await ask(this.conn);
      } catch (error) {
        this.failed = true;
        throw error;
      }
    });
  }

  update(files: readonly LibraryFile[], onProgress?: (progress: IndexProgress) => void): Promise<IndexReport> {
    return this.ask(async (conn) => {
      let report: IndexReport | null = null;
      try {
        report = await updateIndex(conn, files, (progress) => {
          updateProgress(this.file, progress);
          onProgress?.(progress);
        });
        return report;
      } finally {
        updateEnded(this.file, report?.unreadable ?? null);
      }
    });
  }

  /** Answered at once, whatever question has the file: what this process's updates of it have come to. */
  status(): Promise<SearchStatus> {
    return Promise.resolve(updateStatus(this.file));
  }

  problems(): Promise<UnreadableLine[]> {
    return this.ask((conn) => conn.transaction(() => unreadableLines(conn.db)));
  }

  /**
   * Entries that hold every term of `query`, best first; an entry a fork copied (same id and content in several
   * files) is one hit, in the oldest file. `dir`: the sessions directory, where snippets are read from.
   */
  async search(query: string, filters: SearchFilters, dir: string, limit = 100): Promise<LibrarySearchHit[]> {
    return (await this.searchPage(query, filters, dir, limit)).hits;
  }

  searchPage(query: string, filters: SearchFilters, dir: string, limit = 100, files?: ReadonlyMap<string, ResolvedSessionFile>): Promise<SearchPage> {
    return this.ask((conn) => searchPage(conn, query, filters, dir, limit, files));
  }

  usageSums(): Promise<StoredUsage> {
    return this.ask((conn) => conn.transaction(() => readUsageSums(conn.db)));
  }

  usageBranches(file: string, since: number | null): Promise<BranchUsage[]> {
    return this.ask((conn) => conn.transaction(() => fileBranches(conn.db, file, since)));
  }

  facets(): Promise<SearchFacets> {
    return this.ask(async (conn) => {
      const rows = await conn.transaction(() => conn.db.all("SELECT kind, value FROM facets ORDER BY value"));
      const of = (kind: string) => rows.filter((row) => row.kind === kind).map((row) => row.value as string);
      return { models: of("model"), tools: of("tool"), roles: of("role") };
    });
  }
}
