// The library index's tuning, each with its default: the one place they are set. openLibraryIndex takes any of them
// (tests and benches set them there); an implementation reads those it has a use for.

export interface LibraryIndexTuning {
  /** how long a question waits for another writer (another process) to let go of the index (ms) */
  busyTimeoutMs: number;
  /** how many hits a search ranks all of; past it, a page is capped (SearchPage) */
  rankedHits: number;
  /** the archive's search: the most hits the planner may expect of its words for all to be read through their index */
  indexedHits: number;
  /** the archive's search: how many of the newest entries are walked to judge how far a walk would go */
  probedEntries: number;
  /** the archive's search: the share of the entries' pages (%, at most 100) sampled to find where hits lie when the newest hold too few */
  sampledPercent: number;
  /** how many bytes of lines a search reads to check its terms: a few thousand lines of a few kilobytes */
  checkedBytes: number;
  /** how many bytes of lines a search reads to cut its snippets */
  snippetBytes: number;
  /** entries written per transaction: a commit per file made a first index of a thousand small files crawl */
  batchEntries: number;
  /** the pages of the index kept in memory per open index (KiB) */
  cacheKiB: number;
  /** the same during a first index, which writes every page */
  bulkCacheKiB: number;
}

export const LIBRARY_INDEX_TUNING: Readonly<LibraryIndexTuning> = Object.freeze({
  busyTimeoutMs: 30_000,
  rankedHits: 500,
  indexedHits: 5000,
  probedEntries: 8000,
  sampledPercent: 0.25,
  checkedBytes: 64 * 1024 * 1024,
  snippetBytes: 64 * 1024 * 1024,
  batchEntries: 100_000,
  cacheKiB: 32 * 1024,
  bulkCacheKiB: 64 * 1024,
});

/** The defaults with `options` over them; a value that is not a positive number is refused, not used. */
export function libraryIndexTuning(options: Partial<LibraryIndexTuning> = {}): LibraryIndexTuning {
  const tuning = { ...LIBRARY_INDEX_TUNING };
  for (const [key, value] of Object.entries(options) as [keyof LibraryIndexTuning, number | undefined][]) {
    if (value === undefined) continue;
    if (!(key in tuning)) throw new RangeError(`the library index has no setting ${key}`);
    if (!(value > 0)) throw new RangeError(`the library index's ${key} is a number above 0, not ${value}`);
    if (key === "sampledPercent" && value > 100) throw new RangeError(`the library index's sampledPercent is a share of its pages, at most 100, not ${value}`);
    tuning[key] = value;
  }
  return tuning;
}
