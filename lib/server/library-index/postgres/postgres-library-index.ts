// The library index (../library-index.ts) over the archive in PostgreSQL. Nothing is read to update it: every push
// writes the index's rows with the lines (derived-rows.ts), in one transaction, so what the archive holds is
// indexed. Questions go to the pool as they come: PostgreSQL takes concurrent readers and writers itself, so this
// process neither queues nor locks, and several serving processes give the same answers.
//
// The modules beside this one: index-tables.ts (the tables), derived-rows.ts (what a push writes), older-copy.ts
// (which file holds an entry first), search-query.ts and search-page.ts (searching), facets.ts, usage-sums.ts.
import type pg from "pg";
import type { IndexProgress, SearchFacets, SearchStatus, UnreadableLine } from "@/lib/library/search-api";
import type { BranchUsage } from "@/lib/library/usage";
import { SCHEMA } from "../../archive/archive-schema";
import type { IndexReport, LibraryFile, LibraryIndex, SearchFilters, SearchPage, StoredUsage } from "../library-index";
import { libraryIndexTuning, type LibraryIndexTuning } from "../library-index-tuning";
import { readFacets } from "./facets";
import { relOf } from "./older-copy";
import { searchPage } from "./search-page";
import { fileBranches, readUsageSums } from "./usage-sums";

export class PostgresLibraryIndex implements LibraryIndex {
  private readonly tuning: LibraryIndexTuning;
  private closed = false;

  /** The index of the archive `pool` reaches (its schema ready: openArchive). The pool stays its opener's to end. */
  constructor(
    private readonly pool: pg.Pool,
    tuning: Partial<LibraryIndexTuning> = {},
  ) {
    this.tuning = libraryIndexTuning(tuning);
  }

  /** What the archive holds: the files as pushed, whatever `files` lists (they are a local directory's). */
  async update(_files: readonly LibraryFile[], onProgress?: (progress: IndexProgress) => void): Promise<IndexReport> {
    const [counts, unreadable] = await this.ask(() =>
      Promise.all([this.pool.query<{ files: number }>(`select count(*)::int as files from ${SCHEMA}.files`), this.problems()]),
    );
    const { files } = counts.rows[0]!;
    onProgress?.({ done: files, total: files, file: "" });
    return { indexed: 0, unchanged: files, removed: 0, entries: 0, unreadable };
  }

  /** No update is ever under way here: pushes keep the index current. */
  async status(): Promise<SearchStatus> {
    return { progress: null, unreadable: await this.problems() };
  }

  problems(): Promise<UnreadableLine[]> {
    return this.ask(async () => {
      const { rows } = await this.pool.query<{ file: string; line: number; message: string; indexed: boolean }>(
        `select ${relOf("m", "f")} as file, u.line, u.message, u.indexed
         from ${SCHEMA}.unreadable u join ${SCHEMA}.files f on f.id = u.file_id join ${SCHEMA}.machines m on m.id = f.machine_id
         order by ${relOf("m", "f")} collate "C", u.line`,
      );
      return rows.map((row) => ({ file: row.file, line: row.line, message: row.message, ...(row.indexed ? { indexed: true as const } : {}) }));
    });
  }

  /** `dir` and `files` name a local directory's files: the archive's hits and snippets come from its own lines. */
  searchPage(query: string, filters: SearchFilters, _dir: string, limit = 100): Promise<SearchPage> {
    return this.ask(() => searchPage(this.pool, query, filters, limit, this.tuning));
  }

  facets(): Promise<SearchFacets> {
    return this.ask(() => readFacets(this.pool));
  }

  usageSums(): Promise<StoredUsage> {
    return this.ask(() => readUsageSums(this.pool));
  }

  /** `file`: `<machine>/<path>`. */
  usageBranches(file: string, since: number | null): Promise<BranchUsage[]> {
    return this.ask(() => fileBranches(this.pool, file, since));
  }

  /** Nothing is held open but the pool, which is its opener's. */
  release(): void {}

  close(): void {
    this.closed = true;
  }

  private ask<T>(ask: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error("the archive's library index was closed"));
    return ask();
  }
}
