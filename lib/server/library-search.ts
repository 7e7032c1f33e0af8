// Search over every session of a sessions directory: the index (search-index.ts) kept under the cache directory,
// brought up to date with the library, then asked. What the CLI's `search` and GET /api/search share.
import { cacheDir } from "./light-index";
import { cachedSummary } from "./read-summary";
import { openSessionFile, type ResolvedSessionFile } from "./safe-path";
import { indexFileFor, SearchIndex, type IndexProgress, type IndexReport, type LibrarySearchHit, type SearchFilters } from "./search-index";

export interface LibrarySearch {
  hits: LibrarySearchHit[];
  report: IndexReport;
}

/** The files with what the index keeps of their headers: the project (cwd, else folder) and creation time. */
async function described(files: readonly ResolvedSessionFile[]) {
  return Promise.all(
    files.map(async (resolved) => {
      const summary = await cachedSummary(resolved.file, resolved.size, resolved.mtimeMs, () => openSessionFile(resolved)).catch(() => null);
      const slash = resolved.rel.indexOf("/");
      return {
        resolved,
        project: summary?.cwd ?? (slash === -1 ? "(top level)" : resolved.rel.slice(0, slash)),
        headerTime: summary?.timestamp ?? new Date(resolved.mtimeMs).toISOString(),
      };
    }),
  );
}

// one index file is used by one connection at a time (node-sqlite3-wasm locks it for a statement or transaction):
// the searches of this process take turns
let turn: Promise<unknown> = Promise.resolve();

export function searchLibrary(...args: Parameters<typeof searchNow>): Promise<LibrarySearch> {
  const run = turn.then(() => searchNow(...args));
  turn = run.catch(() => {});
  return run;
}

async function searchNow(
  dir: string,
  files: readonly ResolvedSessionFile[],
  query: string,
  filters: SearchFilters,
  options: { limit?: number; cacheRoot?: string; onProgress?: (progress: IndexProgress) => void } = {},
): Promise<LibrarySearch> {
  const index = await SearchIndex.open(indexFileFor(options.cacheRoot ?? cacheDir(), dir));
  try {
    const report = await index.update(await described(files), options.onProgress);
    return { hits: await index.search(query, filters, dir, options.limit), report };
  } finally {
    index.close();
  }
}
