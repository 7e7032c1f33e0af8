// A query with a prefix, answered without letting FTS5 expand a common one. FTS5 answers a prefix by reading every
// word it begins, with all their places, before its first hit, whatever the LIMIT ("the" begins five thousand words
// of a gigabyte: half a second; a last word shorter than three characters is no prefix, see library-search.ts). So
// a query with a prefix is first tried on the newest entries, read from the files and checked here: a common query
// has its hits there. Otherwise FTS5 is asked for its other terms alone and the common prefixes are checked on the
// entries it finds. FTS5's own prefix index (prefix='3') would have spared this, but it made a first index 20-40%
// slower and serves three letters only.
import { ftsPhrase, ftsQuery, isPrefixWord, termsChecker } from "@/lib/library/library-search";
import type { LineReader } from "../../line-reader";
import { breathe, type Connection, type Database } from "./database";
import { drive, scan, SCAN_CHUNK, SCAN_WINDOW } from "./newest-scan";
import { cappedPage } from "./ranked-plan";
import { byRank, copyKey, ENTRY_FROM, FTS_FROM, ftsCondition, page, type Found, type Search, type Terms } from "./search-rows";

/** The fewest entries of a sample that tell how common a prefix is. */
const MIN_SAMPLE = 64;
/** A prefix the sample holds this often or more is common: checked here, not expanded by FTS5. */
const COMMON = 0.1;

/**
 * A query with a prefix, answered without letting FTS5 expand a common one: FTS5 reads every word a prefix
 * begins, with all their places, before its first hit ("the" begins five thousand words of a gigabyte library:
 * half a second), even for a rare phrase that ends in it ("function and"). Null when FTS5's own plan is the better
 * one.
 *
 * First the newest entries that pass the filters are read and checked here, up to a budget of them: enough
 * when the query is common. Otherwise a sample of the newest entries tells which prefixes are common in the
 * library (COMMON of them or more): the terms ending in one are checked here, on the entries FTS5 finds for the
 * others (and for the words before the prefix, of a phrase), newest first, or on the newest entries when that
 * leaves FTS5 nothing. When the query with those prefixes taken as whole words has more than `cap` hits, so has
 * the query, and the `limit` it shows lie no further back than its: only entries from there are read, and the
 * page's total is the whole-word query's.
 */
export async function findNewest(conn: Connection, search: Search): Promise<Found | null> {
  const { terms, cap } = search;
  const isPrefix = (term: readonly string[]) => isPrefixWord(term[term.length - 1]!);
  if (!terms.some(isPrefix)) return null;
  const scanned = await scan(conn, search);
  if (scanned.length > cap) return cappedPage(conn, scanned, search);
  // the newest lines were too long to check within the allowance: FTS5's plan reads none
  if (search.lines.spent) return null;
  // each prefix alone is counted: a phrase may be rare and its prefix common
  const prefixes = terms.filter(isPrefix).map((term) => term[term.length - 1]!);
  const sample = await sampleCounts(conn, prefixes, search.lines);
  if (sample.size < MIN_SAMPLE) return null;
  const checked = terms.filter((term) => isPrefix(term) && sample.counts.get(term[term.length - 1]!)! >= COMMON * sample.size);
  if (checked.length === 0) return null;
  const indexed = terms.flatMap((term) => (!checked.includes(term) ? [ftsQuery([term])] : term.length > 1 ? [ftsPhrase(term.slice(0, -1), false)] : []));
  const match = indexed.length ? indexed.join(" AND ") : null;
  const known = await conn.transaction(() => wholeWordFloor(conn.db, indexed, checked, search));
  await breathe();
  // with nothing for FTS5 to find, every entry is a candidate: only from a floor
  if (match === null && known === null) return null;
  const hits = await drive(conn, match, checked, known?.floor ?? null, search);
  if (hits === null) return null;
  if (known !== null || hits.length > search.cap) return cappedPage(conn, hits, search, known?.entries ?? 0);
  if (hits.length === 0 || match === null) return { shown: [], total: 0, capped: false };
  // every hit is known: ranked by bm25 over what FTS5 answered (a common word weighs next to nothing in it)
  const scores = await conn.transaction(
    () =>
      new Map(
        conn.db
          .all(`SELECT rowid AS id, bm25(words) AS score FROM words WHERE words MATCH ? AND rowid >= ?`, [match, hits.at(-1)!.id])
          .map((row) => [row.id as number, row.score as number]),
      ),
  );
  for (const row of hits) row.score = scores.get(row.id as number) ?? 0;
  return page(hits.sort(byRank), search.limit, false);
}

/** How many of the newest SCAN_CHUNK entries of the library (unfiltered) hold each prefix. */
async function sampleCounts(conn: Connection, prefixes: readonly string[], lines: LineReader): Promise<{ size: number; counts: Map<string, number> }> {
  const rows = await conn.transaction(() => conn.db.all(`SELECT e.off, f.path, e.len ${ENTRY_FROM} WHERE e.echo = 0 ORDER BY e.id DESC LIMIT ${SCAN_CHUNK}`));
  await breathe();
  const checker = termsChecker(prefixes.map((prefix) => [prefix]));
  const counts = new Map(prefixes.map((prefix) => [prefix, 0]));
  let size = 0;
  for (const text of await lines.read(rows)) {
    const held = text === null ? null : checker.each(text);
    if (held === null) continue;
    size++;
    held.forEach((yes, i) => yes && counts.set(prefixes[i]!, counts.get(prefixes[i]!)! + 1));
  }
  return { size, counts };
}

/**
 * The lowest entry id the shown hits of a capped page can lie at, known from the query with its checked prefixes
 * taken as whole words (FTS5 finds those without expanding them, newest first): when that has more than `cap`
 * hits, so has the query, and the newest `limit` entries it holds are among its hits from where that holds
 * `limit` and one. Null when that has no more than `cap` hits (among the newest SCAN_WINDOW entries, when
 * filters other than dates narrow the search: FTS5 would walk every hit of the words to find those passing).
 */
function wholeWordFloor(db: Database, indexed: readonly string[], checked: Terms, search: Search): { floor: number; entries: number } | null {
  const match = [...indexed, ...checked.map((term) => ftsPhrase(term, false))].join(" AND ");
  const narrowed = search.where.some((clause) => !clause.startsWith("e.time"));
  const top = search.ids?.high ?? (db.get("SELECT max(id) AS id FROM entries")?.id as number | null) ?? 0;
  const rows = db.all(
    `SELECT words.rowid AS id, e.entry_id, e.hash, e.file_id, e.off ${FTS_FROM} WHERE ${ftsCondition(search)} AND words.rowid > ?
     ORDER BY words.rowid DESC LIMIT ${search.cap + 1}`,
    [match, ...search.values, narrowed ? top - SCAN_WINDOW : 0],
  );
  if (rows.length <= search.cap) return null;
  const keys = rows.slice(0, search.cap).map(copyKey);
  const entries = new Set<string>();
  const at = keys.findIndex((key) => entries.add(key).size > search.limit);
  return { floor: rows[at === -1 ? search.cap : at]!.id as number, entries: new Set(keys).size };
}
