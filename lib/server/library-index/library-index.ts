// The library's index as the routes, the CLI and the pages ask it: brought up to the library's files, then searched,
// its facets and usage sums read. What any implementation answers (SQLite's, ./sqlite/, over a sessions directory;
// PostgreSQL's, ./postgres/, over the archive), opened by openLibraryIndex (open-library-index.ts). Types only. A
// question that cannot get its turn in time (another writer holds the index) fails with LibraryIndexBusyError
// (library-index-busy-error.ts), whichever implementation.
//
// Not responsible for fork families: they come from each file's digest (lib/server/library-families.ts, over
// file-digest.ts), not from the index. An implementation that keeps entries' copy keys could answer them later.
import type { IndexProgress, LibrarySearchHit, SearchFacets, SearchStatus, UnreadableLine } from "@/lib/library/search-api";
import type { BranchUsage, UsageBucket, UsageTotals } from "@/lib/library/usage";
import type { ResolvedSessionFile } from "../safe-path";

// Questions may be asked at once, by any number of callers: the index takes them in turn as it must (the caller
// neither queues nor locks), and one that fails leaves the index fit for the next.
export interface LibraryIndex {
  /**
   * Brings the index up to `files` (the library's, as listed): a file new or changed since it was indexed is read
   * (a grown one from where it was read to), one no longer listed dropped; `onProgress` as each file is read.
   */
  update(files: readonly LibraryFile[], onProgress?: (progress: IndexProgress) => void): Promise<IndexReport>;
  /**
   * How far the update under way has come (null when none is), and what the last update found it could not read
   * (its report's `unreadable`; null when no update is known yet). Answered at once, never after the update.
   */
  status(): Promise<SearchStatus>;
  /** The lines of the indexed files it could not read, or read but doubts (the last update's `unreadable`, less the unopened files). */
  problems(): Promise<UnreadableLine[]>;
  /**
   * The first `limit` entries holding every term of `query` that pass `filters`, and how many there are in all
   * (a fork's copy of an entry is one hit, in the oldest file). `dir`: the sessions directory the snippets are read
   * from; `files`: its files as listed, by path, so that their paths are not resolved again. An index that holds
   * the lines itself (the archive's) reads its snippets there and takes neither.
   */
  searchPage(query: string, filters: SearchFilters, dir: string, limit?: number, files?: ReadonlyMap<string, ResolvedSessionFile>): Promise<SearchPage>;
  /** What the filters can be set to: the models, tools and roles the index holds, sorted. */
  facets(): Promise<SearchFacets>;
  /** The library's usage sums: what each file counts by day and model, and what it copied from older files. */
  usageSums(): Promise<StoredUsage>;
  /** A file's usage (what it counts, from `since`) split by branch. */
  usageBranches(file: string, since: number | null): Promise<BranchUsage[]>;
  /** Done with it for now (each open is released once): it may be kept open for the next question a while. */
  release(): void;
  /** Closed for good once the questions already asked are answered; the next open opens it anew. */
  close(): void;
}

export interface SearchFilters {
  /** the file's project (its header cwd, else its folder) */
  project?: string;
  /** entry time from (ms, inclusive) and to (ms, exclusive) */
  from?: number;
  to?: number;
  /** message role (user, assistant, toolResult, bashExecution…) or entry type (compaction, label…) */
  role?: string;
  /** a tool the entry calls or answers */
  tool?: string;
  /** an assistant message's model as every view names it: "provider/model" (modelLabel, lib/session/model-label.ts) */
  model?: string;
  /** only entries on the path to their session's leaf */
  activeOnly?: boolean;
  /** the machine that pushed the file (an archive's index; a directory's files have none, so none passes) */
  machine?: string;
}

export interface SearchPage {
  hits: LibrarySearchHit[];
  /** hits in all (copies counted once); a lower bound when `capped` */
  total: number;
  /** more hits than the index ranks: `hits` are the newest of them, unranked, newest first (score 0) */
  capped: boolean;
}

export interface IndexReport {
  /** files read (whole or from where they grew) */
  indexed: number;
  /** files unchanged since they were indexed */
  unchanged: number;
  removed: number;
  entries: number;
  /**
   * every line of the library's files that could not be read, this time or before: none is searched; and those
   * read all the same but suspect (`indexed`: an id used again with other content)
   */
  unreadable: UnreadableLine[];
}

/** What the index keeps of a file's header. */
export interface FileDescription {
  project: string;
  headerTime: string;
}

/**
 * A file of the library as `update` takes it: described, or with a way to describe it that is asked only when the
 * file is to be read (describing reads the file's start; most files are unchanged most of the time).
 */
export type LibraryFile = { resolved: ResolvedSessionFile } & (FileDescription | { describe: () => Promise<FileDescription> });

/** The library's usage as the index keeps it summed. */
export interface StoredUsage {
  /** what each file counts, by day and model */
  buckets: UsageBucket[];
  /** per file: what it copied from older files, counted there */
  copied: Map<string, UsageTotals & { calls: number }>;
}
