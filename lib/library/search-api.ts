// What GET /api/search and its companions send, as the browser reads it: the shapes the server's index
// (lib/server/library-index/library-index.ts) returns, defined here so the page need not import server code. Types only.

export interface LibrarySearchHit {
  /** library path of the file the hit is shown in (the oldest holding it) */
  file: string;
  entryId: string;
  onActivePath: boolean;
  snippet: string;
  /** bm25: lower is better (0 on a capped page, which is in time order) */
  score: number;
  /** other files holding the same entry (a fork's copies) */
  alsoIn: number;
  /** the message's role, else the entry's type */
  role: string | null;
  /** the entry's time (ms) */
  time: number | null;
}

/** What the filters can be set to: the models, tools and roles the index holds, sorted. */
export interface SearchFacets {
  models: string[];
  tools: string[];
  roles: string[];
}

export interface IndexProgress {
  done: number;
  total: number;
  file: string;
}

/** A line of the library the index names: one it could not read (not searched), or one it read but doubts. */
export interface UnreadableLine {
  file: string;
  /** 0: the file itself could not be opened */
  line: number;
  message: string;
  /** the line was read, searched and counted all the same (an id used again with other content) */
  indexed?: true;
}

/** GET /api/search/status */
export interface SearchStatus {
  /** the index update under way, or null */
  progress: IndexProgress | null;
  /** what the last update could not read, or null before the first */
  unreadable: UnreadableLine[] | null;
}
