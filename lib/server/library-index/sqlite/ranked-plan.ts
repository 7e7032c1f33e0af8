// FTS5's own plan: every hit ranked by bm25, or the newest past the cap, each hit in its oldest copy.
import { ftsQuery } from "@/lib/library/library-search";
import { breathe, type Connection, type Database } from "./database";
import { and, ENTRY_FROM, FTS_FROM, ftsCondition, HIT_COLUMNS, page, PER_BREATH, type Found, type LocatedHit, type Search } from "./search-rows";

/** FTS5's plan: every hit, ranked by bm25, or (`limit` finite) the newest past the cap. */
export async function findRanked(conn: Connection, search: Search): Promise<Found> {
  const condition = ftsCondition(search);
  const args = [ftsQuery(search.terms), ...search.values];
  const ranked = (range: string) =>
    conn.db.all(`SELECT ${HIT_COLUMNS}, bm25(words) AS score ${FTS_FROM} WHERE ${condition}${range} ORDER BY score, f.header_time, f.path, e.id`, args);
  if (!Number.isFinite(search.limit)) return page(ranked(""), search.limit, false);
  // the newest hits first, unscored: FTS5 walks its lists from the end and stops past the cap (scoring them here
  // made FTS5 read every hit's places: a common word's capped page took twice as long)
  const newest = conn.db.all(`SELECT ${HIT_COLUMNS}, 0 AS score ${FTS_FROM} WHERE ${condition} ORDER BY words.rowid DESC LIMIT ${search.cap + 1}`, args);
  if (newest.length > search.cap) return cappedPage(conn, newest, search);
  if (newest.length === 0) return { shown: [], total: 0, capped: false };
  await breathe();
  // every hit is known: scored, FTS5 seeking to the oldest
  return page(ranked(` AND words.rowid >= ${newest.at(-1)!.id as number}`), search.limit, false);
}

/**
 * The newest `cap` of `rows` (newest first) as a capped page, each hit in its oldest copy; `known`: how many
 * entries the query is known to hold at least, when `rows` are not all of its newest.
 */
export async function cappedPage(conn: Connection, rows: readonly Record<string, unknown>[], search: Search, known = 0): Promise<Found> {
  const found = page(rows.slice(0, search.cap), search.limit, true);
  found.total = Math.max(found.total, known);
  // only the newest hits were seen: an entry's oldest copy passing the filters may lie among the others
  for (const [i, located] of found.shown.entries()) {
    await conn.transaction(() => oldestCopy(conn.db, located, search.where, search.values));
    if (i % PER_BREATH === PER_BREATH - 1) await breathe();
  }
  return found;
}

/** Shows the hit in the oldest file holding its entry that passes the filters, counting the others. */
function oldestCopy(db: Database, located: LocatedHit, where: readonly string[], values: readonly unknown[]): void {
  if (located.key === null) return;
  const copies = db.all(
    `SELECT e.off, e.len, e.on_active, f.path FROM entries e JOIN files f ON f.id = e.file_id
     WHERE e.entry_id = ? AND e.hash IS ?${where.map((clause) => ` AND ${clause}`).join("")} ORDER BY f.header_time, f.path, e.id`,
    [located.key.entryId, located.key.hash, ...values],
  );
  const first = copies[0];
  if (!first) return;
  located.hit.file = first.path as string;
  located.hit.onActivePath = first.on_active === 1;
  located.hit.alsoIn = copies.length - 1;
  located.path = first.path as string;
  located.off = first.off as number;
  located.len = first.len as number;
}

/** Counts the rows holding the hit's entry that pass the filters, but its own. */
export function countCopies(db: Database, located: LocatedHit, search: Search): void {
  const row = db.get(`SELECT count(*) AS n ${ENTRY_FROM} WHERE e.entry_id = ? AND e.hash IS ?${and(search.where)}`, [
    located.key!.entryId,
    located.key!.hash,
    ...search.values,
  ]);
  located.hit.alsoIn = Math.max(0, (row?.n as number) - 1);
}
