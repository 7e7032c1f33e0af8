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
// update-index.ts, index-file.ts, write-batch.ts, copy-keys.ts, entry-row.ts (writing), search-page.ts,
// ranked-plan.ts, newest-plan.ts, newest-scan.ts, search-rows.ts (query plans), usage-store.ts (usage sums).
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
import type { IndexProgress, LibrarySearchHit, SearchFacets, UnreadableLine } from "@/lib/library/search-api";
import type { BranchUsage } from "@/lib/library/usage";
import type { ResolvedSessionFile } from "../../safe-path";
import type { IndexReport, LibraryFile, LibraryIndex, SearchFilters, SearchPage, StoredUsage } from "../library-index";
import { libraryIndexTuning, type LibraryIndexTuning } from "../library-index-tuning";
import type { Connection } from "./database";
import { forgetKept, releaseKept } from "./kept-indexes";
import { openIndexFile } from "./schema";
import { searchPage } from "./search-page";
import { unreadableLines, updateIndex } from "./update-index";
import { fileBranches, readUsageSums } from "./usage-store";

export class SqliteLibraryIndex implements LibraryIndex {
  private constructor(private readonly conn: Connection) {}

  /** Opens (or creates) the index file (schema.ts: made anew when damaged or of another version). */
  static async open(file: string, tuning: Partial<LibraryIndexTuning> = {}): Promise<SqliteLibraryIndex> {
    return new SqliteLibraryIndex(await openIndexFile(file, libraryIndexTuning(tuning)));
  }

  release(): void {
    releaseKept(this.conn.file, this);
  }

  close(): void {
    forgetKept(this.conn.file, this);
    this.conn.close();
  }

  update(files: readonly LibraryFile[], onProgress?: (progress: IndexProgress) => void): Promise<IndexReport> {
    return updateIndex(this.conn, files, onProgress);
  }

  problems(): Promise<UnreadableLine[]> {
    return this.conn.transaction(() => unreadableLines(this.conn.db));
  }

  /**
   * Entries that hold every term of `query`, best first; an entry a fork copied (same id and content in several
   * files) is one hit, in the oldest file. `dir`: the sessions directory, where snippets are read from.
   */
  async search(query: string, filters: SearchFilters, dir: string, limit = 100): Promise<LibrarySearchHit[]> {
    return (await this.searchPage(query, filters, dir, limit)).hits;
  }

  searchPage(query: string, filters: SearchFilters, dir: string, limit = 100, files?: ReadonlyMap<string, ResolvedSessionFile>): Promise<SearchPage> {
    return searchPage(this.conn, query, filters, dir, limit, files);
  }

  usageSums(): Promise<StoredUsage> {
    return this.conn.transaction(() => readUsageSums(this.conn.db));
  }

  usageBranches(file: string, since: number | null): Promise<BranchUsage[]> {
    return this.conn.transaction(() => fileBranches(this.conn.db, file, since));
  }

  async facets(): Promise<SearchFacets> {
    const rows = await this.conn.transaction(() => this.conn.db.all("SELECT kind, value FROM facets ORDER BY value"));
    const of = (kind: string) => rows.filter((row) => row.kind === kind).map((row) => row.value as string);
    return { models: of("model"), tools: of("tool"), roles: of("role") };
  }
}
