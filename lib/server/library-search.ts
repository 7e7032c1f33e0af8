// Search over every session of a sessions directory: the library's index (library-index/library-index.ts),
// brought up to date with the library, then asked. What the CLI's `search` and GET /api/search share.
import type pg from "pg";
import type { SearchParams } from "@/lib/library/library-params";
import { cacheDir } from "./light-index";
import { privateDir } from "./private-dir";
import { cachedSummary } from "./read-summary";
import { HEADER_LIMIT, SummaryScanner } from "./session-summary";
import { openSessionFile, type ResolvedSessionFile } from "./safe-path";
import type { IndexProgress, LibrarySearchHit, SearchFacets, SearchStatus } from "@/lib/library/search-api";
import type { IndexReport, LibraryFile, LibraryIndex, SearchFilters } from "./library-index/library-index";
import type { LibraryIndexTuning } from "./library-index/library-index-tuning";
import { openLibraryIndex } from "./library-index/open-library-index";

export interface LibrarySearch {
  hits: LibrarySearchHit[];
  /** hits in all, of which `hits` are the first; a lower bound when `capped` */
  total: number;
  /** more hits than the index ranks: `hits` are the newest, in time order (SearchPage) */
  capped: boolean;
  report: IndexReport;
}

export interface IndexOptions {
  cacheRoot?: string;
  /** the archive's pool when the library is the archive's: its index is the archive's own, kept by the pushes */
  archive?: pg.Pool | null;
  /** settings other than the defaults (tests, benches) */
  tuning?: Partial<LibraryIndexTuning>;
  onProgress?: (progress: IndexProgress) => void;
  /** what the update found (the lines it could not read among it), before the question is asked */
  onReport?: (report: IndexReport) => void;
}

/**
 * The files with how to describe them as the index keeps them: the project (cwd, else folder) and creation time,
 * the library's summary's (its cwd and timestamp), asked by the index only of a file it reads.
 */
function described(files: readonly ResolvedSessionFile[]): LibraryFile[] {
  return files.map((resolved) => ({
    resolved,
    describe: async () => {
      const header = await headerSummary(resolved).catch(() => null);
      const slash = resolved.rel.indexOf("/");
      return {
        project: header?.cwd ?? (slash === -1 ? "(top level)" : resolved.rel.slice(0, slash)),
        headerTime: header?.timestamp ?? new Date(resolved.mtimeMs).toISOString(),
      };
    },
  }));
}

/**
 * The summary's cwd and timestamp, which come from the header alone: its first line read, not the first megabyte
 * (a first index of a thousand files spent seconds summarizing them whole). A first line too long to be a header
 * is no header, as for the summary.
 */
async function headerSummary(resolved: ResolvedSessionFile): Promise<{ cwd: string | null; timestamp: string | null }> {
  const handle = await openSessionFile(resolved);
  try {
    const buffer = Buffer.alloc(HEADER_LIMIT + 2);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(buffer.subarray(0, bytesRead));
    // blank lines before the first are skipped, as the summary skips them; a first line longer than this read
    // (in bytes; the limit counts characters) is left to the summary
    const first = /\S[^\n]*(\n|$)/.exec(text);
    if (!first || (first[1] === "" && bytesRead === buffer.length)) return cachedSummary(resolved);
    const scanner = new SummaryScanner({ countBranches: false });
    scanner.push(text.slice(text.lastIndexOf("\n", first.index) + 1, first.index + first[0].length));
    return scanner.end();
  } finally {
    await handle.close();
  }
}

/** The cache folder the index is kept under, when it is the user's alone (private-dir.ts), else null. */
function privateCacheRoot(options: IndexOptions): string | null {
  const root = options.cacheRoot ?? cacheDir();
  return privateDir(root) ? root : null;
}

/**
 * Opens the index of `dir`, brings it up to `files` and hands it to `ask`. The index takes the questions asked at
 * once in turn, and is fit for the next after one failed: nothing here queues or closes.
 */
async function withIndex<T>(
  dir: string,
  files: readonly ResolvedSessionFile[],
  options: IndexOptions,
  ask: (index: LibraryIndex, report: IndexReport) => Promise<T>,
): Promise<T> {
  const index = await openIndex(dir, options);
  try {
    const report = await index.update(described(files), options.onProgress);
    options.onReport?.(report);
    return await ask(index, report);
  } finally {
    index.release();
  }
}

/** The archive's index, or the index of `dir` kept under the user's own cache folder. */
function openIndex(dir: string, options: IndexOptions): Promise<LibraryIndex> {
  if (options.archive) return openLibraryIndex(dir, { archive: options.archive, tuning: options.tuning });
  const root = privateCacheRoot(options);
  if (root === null)
    throw new Error(
      `the cache folder ${options.cacheRoot ?? cacheDir()} belongs to another user or cannot be made: the search index is not kept there (PI_VIEWER_CACHE_DIR names another)`,
    );
  return openLibraryIndex(dir, { cacheRoot: root, tuning: options.tuning });
}

/** A search's filters as the index takes them (what the CLI's options give too). */
export function searchFilters(params: Omit<SearchParams, "q" | "limit">): SearchFilters {
  const filters: SearchFilters = {};
  if (params.since !== undefined) filters.from = params.since;
  if (params.until !== undefined) filters.to = params.until;
  for (const key of ["project", "role", "tool", "model", "machine"] as const) if (params[key] !== undefined) filters[key] = params[key];
  if (params.active === "1") filters.activeOnly = true;
  return filters;
}

export function searchLibrary(
  dir: string,
  files: readonly ResolvedSessionFile[],
  query: string,
  filters: SearchFilters,
  options: IndexOptions & { limit?: number } = {},
): Promise<LibrarySearch> {
  return withIndex(dir, files, options, async (index, report) => ({
    ...(await index.searchPage(query, filters, dir, options.limit, new Map(files.map((file) => [file.rel, file])))),
    report,
  }));
}

/** The models, tools and roles the library's entries hold (the index brought up to date first). */
export function libraryFacets(dir: string, files: readonly ResolvedSessionFile[], options: IndexOptions = {}): Promise<SearchFacets> {
  return withIndex(dir, files, options, (index) => index.facets());
}

/**
 * The library's index of `dir` brought up to `files`, for another question than a search (the usage sums kept
 * beside the words: library-usage.ts).
 */
export function withLibraryIndex<T>(
  dir: string,
  files: readonly ResolvedSessionFile[],
  options: IndexOptions,
  ask: (index: LibraryIndex, report: IndexReport) => Promise<T>,
): Promise<T> {
  return withIndex(dir, files, options, ask);
}

/**
 * The index of `dir`'s status (LibraryIndex.status): the update under way, what the last one could not read. With
 * no cache folder of the user's there is no index, nor anything known of one.
 */
export async function libraryIndexStatus(dir: string, options: Pick<IndexOptions, "cacheRoot" | "tuning" | "archive"> = {}): Promise<SearchStatus> {
  if (!options.archive && privateCacheRoot(options) === null) return { progress: null, unreadable: null };
  const index = await openIndex(dir, options);
  try {
    return await index.status();
  } finally {
    index.release();
  }
}
