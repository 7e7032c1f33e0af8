// The one way to the library's index: the implementation the routes, the CLI and the pages ask (SQLite's today).
import type { LibraryIndex } from "./library-index";
import type { LibraryIndexTuning } from "./library-index-tuning";
import { openSqliteLibraryIndex } from "./sqlite/open-sqlite-library-index";

export interface LibraryIndexOptions {
  /** the cache directory the index is kept under (private to the user: library-search.ts checks it) */
  cacheRoot: string;
  /** settings other than the defaults (library-index-tuning.ts): tests and benches set them here */
  tuning?: Partial<LibraryIndexTuning>;
}

/** The index of the sessions directory `dir`, opened (or kept open since the last question). */
export function openLibraryIndex(dir: string, options: LibraryIndexOptions): Promise<LibraryIndex> {
  return openSqliteLibraryIndex(dir, options.cacheRoot, options.tuning);
}
