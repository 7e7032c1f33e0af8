// Search over every session of a sessions directory: the index (search-index.ts) kept under the cache directory,
// brought up to date with the library, then asked. What the CLI's `search` and GET /api/search share.
import { cacheDir } from "./light-index";
import { cachedSummary } from "./read-summary";
import { openSessionFile, type ResolvedSessionFile } from "./safe-path";
import { indexFileFor, SearchIndex, type IndexProgress, type IndexReport, type LibrarySearchHit, type SearchFacets, type SearchFilters } from "./search-index";

export interface LibrarySearch {
  hits: LibrarySearchHit[];
  /** hits in all, of which `hits` are the first */
  total: number;
  report: IndexReport;
}

interface IndexOptions {
  cacheRoot?: string;
  onProgress?: (progress: IndexProgress) => void;
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
// what the update under way has done, per sessions directory: read by a page waiting for its first search
const updating = new Map<string, IndexProgress>();

function inTurn<T>(run: () => Promise<T>): Promise<T> {
  const result = turn.then(run);
  turn = result.catch(() => {});
  return result;
}

/** Opens the index of `dir`, brings it up to `files` and hands it to `ask`. */
async function withIndex<T>(
  dir: string,
  files: readonly ResolvedSessionFile[],
  options: IndexOptions,
  ask: (index: SearchIndex, report: IndexReport) => Promise<T>,
): Promise<T> {
  const index = await SearchIndex.open(indexFileFor(options.cacheRoot ?? cacheDir(), dir));
  try {
    const report = await index.update(await described(files), (progress) => {
      updating.set(dir, progress);
      options.onProgress?.(progress);
    });
    updating.delete(dir);
    return await ask(index, report);
  } finally {
    updating.delete(dir);
    index.close();
  }
}

export function searchLibrary(
  dir: string,
  files: readonly ResolvedSessionFile[],
  query: string,
  filters: SearchFilters,
  options: IndexOptions & { limit?: number } = {},
): Promise<LibrarySearch> {
  return inTurn(() => withIndex(dir, files, options, async (index, report) => ({ ...(await index.searchPage(query, filters, dir, options.limit)), report })));
}

/** The models, tools and roles the library's entries hold (the index brought up to date first). */
export function libraryFacets(dir: string, files: readonly ResolvedSessionFile[], options: IndexOptions = {}): Promise<SearchFacets> {
  return inTurn(() => withIndex(dir, files, options, async (index) => index.facets()));
}

/** How far the index update under way for `dir` has come, or null when none is. */
export function indexProgress(dir: string): IndexProgress | null {
  return updating.get(dir) ?? null;
}
