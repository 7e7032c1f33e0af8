// Search over every session of a sessions directory: the library's index (library-index/library-index.ts),
// brought up to date with the library, then asked. What the CLI's `search` and GET /api/search share.
import type { SearchParams } from "@/lib/library/library-params";
import { cacheDir } from "./light-index";
import { privateDir } from "./private-dir";
import { cachedSummary } from "./read-summary";
import { HEADER_LIMIT, SummaryScanner } from "./session-summary";
import { openSessionFile, type ResolvedSessionFile } from "./safe-path";
import type { IndexProgress, LibrarySearchHit, SearchFacets } from "@/lib/library/search-api";
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

// one index file is used by one connection at a time (node-sqlite3-wasm locks it for a statement or transaction):
// the searches of this process take turns
let turn: Promise<unknown> = Promise.resolve();
// what the update under way has done, per sessions directory: read by a page waiting for its first search
const updating = new Map<string, IndexProgress>();
// the last update's report per sessions directory, whichever question asked for it: for a page that shows what
// could not be read
const reports = new Map<string, IndexReport>();

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
  ask: (index: LibraryIndex, report: IndexReport) => Promise<T>,
): Promise<T> {
  const root = options.cacheRoot ?? cacheDir();
  if (!privateDir(root))
    throw new Error(
      `the cache folder ${root} belongs to another user or cannot be made: the search index is not kept there (PI_VIEWER_CACHE_DIR names another)`,
    );
  const index = await openLibraryIndex(dir, { cacheRoot: root, tuning: options.tuning });
  try {
    const report = await index.update(described(files), (progress) => {
      updating.set(dir, progress);
      options.onProgress?.(progress);
    });
    updating.delete(dir);
    reports.set(dir, report);
    options.onReport?.(report);
    return await ask(index, report);
  } catch (error) {
    // an index that failed is not trusted with the next search
    index.close();
    throw error;
  } finally {
    updating.delete(dir);
    index.release();
  }
}

/** A search's filters as the index takes them (what the CLI's options give too). */
export function searchFilters(params: Omit<SearchParams, "q" | "limit">): SearchFilters {
  const filters: SearchFilters = {};
  if (params.since !== undefined) filters.from = params.since;
  if (params.until !== undefined) filters.to = params.until;
  for (const key of ["project", "role", "tool", "model"] as const) if (params[key] !== undefined) filters[key] = params[key];
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
  return inTurn(() =>
    withIndex(dir, files, options, async (index, report) => ({
      ...(await index.searchPage(query, filters, dir, options.limit, new Map(files.map((file) => [file.rel, file])))),
      report,
    })),
  );
}

/** The models, tools and roles the library's entries hold (the index brought up to date first). */
export function libraryFacets(dir: string, files: readonly ResolvedSessionFile[], options: IndexOptions = {}): Promise<SearchFacets> {
  return inTurn(() => withIndex(dir, files, options, async (index) => index.facets()));
}

/**
 * The library's index of `dir` brought up to `files`, in this process's turn, for another question than a search
 * (the usage sums kept beside the words: library-usage.ts).
 */
export function withLibraryIndex<T>(
  dir: string,
  files: readonly ResolvedSessionFile[],
  options: IndexOptions,
  ask: (index: LibraryIndex, report: IndexReport) => Promise<T>,
): Promise<T> {
  return inTurn(() => withIndex(dir, files, options, ask));
}

/** What the last index update of `dir` in this process found, or null before the first. */
export function lastIndexReport(dir: string): IndexReport | null {
  return reports.get(dir) ?? null;
}

/** How far the index update under way for `dir` has come, or null when none is. */
export function indexProgress(dir: string): IndexProgress | null {
  return updating.get(dir) ?? null;
}
