// The one way to the library's index: the implementation the routes, the CLI and the pages ask. A sessions
// directory's is kept in SQLite under the cache directory (./sqlite/); an archive's is in the archive itself
// (./postgres/), kept current by the pushes.
import type pg from "pg";
import type { LibraryIndex } from "./library-index";
import type { LibraryIndexTuning } from "./library-index-tuning";
import { PostgresLibraryIndex } from "./postgres/postgres-library-index";
import { openSqliteLibraryIndex } from "./sqlite/open-sqlite-library-index";

export type LibraryIndexOptions = {
  /** settings other than the defaults (library-index-tuning.ts): tests and benches set them here */
  tuning?: Partial<LibraryIndexTuning>;
} & (
  | {
      /** the cache directory a sessions directory's index is kept under (private to the user: library-search.ts checks it) */
      cacheRoot: string;
    }
  | {
      /** the archive (openArchive's pool, its schema ready): its index is read there, and `dir` is not read */
      archive: pg.Pool;
    }
);

/** The index of the sessions directory `dir`, or of the archive, opened (or kept open since the last question). */
export function openLibraryIndex(dir: string, options: LibraryIndexOptions): Promise<LibraryIndex> {
  if ("archive" in options) return Promise.resolve(new PostgresLibraryIndex(options.archive, options.tuning));
  return openSqliteLibraryIndex(dir, options.cacheRoot, options.tuning);
}
