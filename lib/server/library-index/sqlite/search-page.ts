// A search's page, as every plan makes it. Every hit is ranked by bm25 when a query has at most `rankedHits`
// (LibraryIndexTuning) of them,
// or when `limit` is Infinity. Past the cap, scoring every hit costs seconds on a gigabyte, so the page is `capped`:
// its hits are the newest (highest rowids: the newest sessions, what was appended last), newest first, with score 0,
// and `total` is a lower bound (the entries among the newest `rankedHits` hits). Lines are read (to check a query's
// terms, to cut snippets) a chunk at a time within a byte allowance (line-reader.ts).
import { librarySearchTerms } from "@/lib/library/library-search";
import { LineReader } from "../../line-reader";
import type { ResolvedSessionFile } from "../../safe-path";
import { hitSnippet } from "../hit-page";
import type { SearchFilters, SearchPage } from "../library-index";
import { breathe, type Connection, type Database } from "./database";
import { findNewest } from "./newest-plan";
import { countCopies, findRanked } from "./ranked-plan";
import { conditions, PER_BREATH, type Search } from "./search-rows";

/**
 * The first `limit` hits and how many there are in all (copies counted once; see `capped`). `files`: the library's
 * files as listed, by path, so that lines are read without resolving their paths again.
 */
export async function searchPage(
  conn: Connection,
  query: string,
  filters: SearchFilters,
  dir: string,
  limit = 100,
  files?: ReadonlyMap<string, ResolvedSessionFile>,
): Promise<SearchPage> {
  // Infinity ranks every hit (tests, benches); what comes from outside is checked to 1–500 (library-params.ts)
  if (limit !== Infinity && !(Number.isInteger(limit) && limit > 0)) throw new RangeError(`a search's limit is a whole number above 0, not ${limit}`);
  const terms = librarySearchTerms(query);
  // a directory's sessions were pushed by no machine
  if (terms.length === 0 || filters.machine !== undefined) return { hits: [], total: 0, capped: false };
  const { tuning } = conn;
  // a few lines near the line limit are not checked within the allowance
  const lines = new LineReader(dir, files, tuning.checkedBytes);
  try {
    const found = await conn.reading(async () => {
      const ids = idsWithin(conn.db, filters);
      if (ids === "none") return { shown: [], total: 0, capped: false };
      const search: Search = { terms, limit, cap: Math.max(tuning.rankedHits, limit), ...conditions(filters), filters, ids, lines };
      const found = (Number.isFinite(limit) ? await findNewest(conn, search) : null) ?? (await findRanked(conn, search));
      // a line repeating one of its file is no hit (it has no words) but is a copy all the same (a capped page
      // counts copies from the entries already)
      if (!found.capped)
        for (const [i, located] of found.shown.entries()) {
          if (located.key?.hash != null) countCopies(conn.db, located, search);
          if (i % PER_BREATH === PER_BREATH - 1) await breathe();
        }
      return found;
    });
    lines.allow(tuning.snippetBytes);
    const texts = await lines.read(found.shown);
    for (const [i, located] of found.shown.entries()) {
      located.hit.snippet = hitSnippet(texts[i] ?? null, terms);
    }
    return { hits: found.shown.map((located) => located.hit), total: found.total, capped: found.capped };
  } finally {
    lines.close();
  }
}

/**
 * The entry ids a date filter leaves: from the first of the files whose entries reach into the dates to the last
 * ("none" when no file's do). FTS5 then seeks there rather than walk back through every later hit.
 */
function idsWithin(db: Database, filters: SearchFilters): Search["ids"] | "none" {
  if (filters.from === undefined && filters.to === undefined) return null;
  const row = db.get("SELECT min(first_id) AS low, max(last_id) AS high FROM files WHERE last_time >= ? AND first_time < ?", [
    filters.from ?? -Infinity,
    filters.to ?? Infinity,
  ]);
  return row?.low === null || row?.low === undefined ? "none" : { low: row.low as number, high: row.high as number };
}
