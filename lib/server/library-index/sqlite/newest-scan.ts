// The newest entries passing a search's filters, read a chunk at a time and checked against its terms: what
// newest-plan.ts answers a query with a prefix from, within a budget of lines read per hit.
import { termsChecker } from "@/lib/library/library-search";
import type { SearchFilters } from "../library-index";
import { breathe, type Connection, type Database } from "./database";
import { and, copyKey, ENTRY_FROM, FTS_FROM, ftsCondition, HIT_COLUMNS, type Search, type Terms } from "./search-rows";

/**
 * How many entry lines a query with a prefix reads, at most, per hit it needs (the cap and one), before leaving the
 * query to FTS5: four thousand lines, at the cap of 500, take about what FTS5's expansion of a common prefix does.
 */
const READ_PER_HIT = 8;
/** Lines read per step: entry rows are asked a chunk at a time, and read together */
export const SCAN_CHUNK = 256;
const DRIVE_CHUNK = 1024;
/** How far back (entry ids) the newest entries are looked for: filters that pass few leave the query to FTS5. */
export const SCAN_WINDOW = 50_000;

/**
 * The newest entries passing the filters, up to the budget, checked against the terms. The scan stops early
 * when its hits so far promise no more than the cap.
 */
export async function scan(conn: Connection, search: Search): Promise<Record<string, unknown>[]> {
  const { cap } = search;
  const hits: Record<string, unknown>[] = [];
  const checker = termsChecker(search.terms);
  let seen = 0;
  const budget = READ_PER_HIT * (cap + 1);
  const windows = await conn.transaction(() => scanWindows(conn.db, search.filters));
  scanning: for (const window of windows) {
    for (let before = window.to; seen < budget && hits.length <= cap;) {
      const rows = await conn.transaction(() =>
        conn.db.all(
          `SELECT ${HIT_COLUMNS}, 0 AS score ${ENTRY_FROM} WHERE e.id < ? AND e.id >= ? AND e.echo = 0${and(search.where)} ORDER BY e.id DESC LIMIT ${SCAN_CHUNK}`,
          [before, window.from, ...search.values],
        ),
      );
      if (rows.length === 0) break;
      const texts = await search.lines.read(rows);
      if (search.lines.spent) break scanning;
      for (const [i, row] of rows.entries()) {
        const text = texts[i] ?? null;
        if (text !== null && checker.holds(text)) hits.push(row);
      }
      seen += rows.length;
      before = rows.at(-1)!.id as number;
      await breathe();
      if (hits.length * budget < (cap + 1) * seen) break scanning;
    }
    if (seen >= budget || hits.length > cap) break;
  }
  return hits;
}

/**
 * Where the newest entries passing the filters lie: entry ids from `from` to before `to`, newest first, SCAN_WINDOW
 * ids in all. Within a project or dates, the spans of the files of the project whose entries reach into the
 * dates (rowids follow time only roughly, and the newest entries may all be one session's).
 */
function scanWindows(db: Database, filters: SearchFilters): { from: number; to: number }[] {
  // a file whose entries have no time holds none within dates, and may hold the newest without
  const dated = filters.from !== undefined || filters.to !== undefined;
  const where = ["first_id IS NOT NULL", "(? IS NULL OR project = ?)", "(? = 0 OR (last_time >= ? AND first_time < ?))"];
  const values = [filters.project ?? null, filters.project ?? null, dated ? 1 : 0, filters.from ?? -Infinity, filters.to ?? Infinity];
  const spans = db
    .all(`SELECT first_id AS low, last_id AS high FROM files WHERE ${where.join(" AND ")} ORDER BY last_id DESC`, values)
    .map((row) => ({ from: row.low as number, to: (row.high as number) + 1 }));
  // overlapping spans as one, newest first, until the window is spent
  const windows: { from: number; to: number }[] = [];
  let left = SCAN_WINDOW;
  for (const span of spans) {
    const last = windows.at(-1);
    if (last && span.to >= last.from) last.from = Math.min(last.from, span.from);
    else windows.push({ ...span });
  }
  for (const window of windows) {
    window.from = Math.max(window.from, window.to - left);
    left -= window.to - window.from;
  }
  return windows.filter((window) => window.to > window.from);
}

/**
 * The entries FTS5 finds for `match` (every entry passing the filters when null), newest first, that hold the
 * `checked` terms too (read here): until more than the cap or, from a `floor` (wholeWordFloor), until one more
 * entry than the limit. Null when more than READ_PER_HIT for each hit of the cap would have to be read.
 */
export async function drive(
  conn: Connection,
  match: string | null,
  checked: Terms,
  floor: number | null,
  search: Search,
): Promise<Record<string, unknown>[] | null> {
  const { cap, limit } = search;
  const budget = READ_PER_HIT * (cap + 1);
  const checker = termsChecker(checked);
  const hits: Record<string, unknown>[] = [];
  const entries = new Set<string>();
  const found = () => (floor === null ? hits.length : entries.size);
  const needed = floor === null ? cap + 1 : limit + 1;
  let before = Number.MAX_SAFE_INTEGER;
  for (let seen = 0; ;) {
    // as many as the hits so far say are needed
    const rate = seen ? Math.max(found() / seen, 0.05) : 1;
    const chunk = Math.min(DRIVE_CHUNK, Math.max(128, Math.ceil((needed - found()) / rate) + 32));
    const rows = await conn.transaction(() =>
      match === null
        ? conn.db.all(
            `SELECT ${HIT_COLUMNS}, 0 AS score ${ENTRY_FROM} WHERE e.id < ? AND e.id >= ? AND e.echo = 0${and(search.where)} ORDER BY e.id DESC LIMIT ${chunk}`,
            [before, floor ?? 0, ...search.values],
          )
        : conn.db.all(
            `SELECT ${HIT_COLUMNS}, 0 AS score ${FTS_FROM} WHERE ${ftsCondition(search)} AND words.rowid < ? AND words.rowid >= ?
             ORDER BY words.rowid DESC LIMIT ${chunk}`,
            [match, ...search.values, before, floor ?? 0],
          ),
    );
    const texts = await search.lines.read(rows);
    if (search.lines.spent) return null;
    for (const [i, row] of rows.entries()) {
      const text = texts[i] ?? null;
      if (text === null || !checker.holds(text)) continue;
      hits.push(row);
      entries.add(copyKey(row));
    }
    seen += rows.length;
    await breathe();
    if (found() >= needed || rows.length < chunk) return hits;
    // from a floor the hits are known to be there: the rate so far says whether the budget reaches them
    const projected = seen + (needed - found()) / Math.max(found() / seen, 1 / (seen + 1));
    if (seen >= budget || (floor !== null && projected > budget)) return null;
    before = rows.at(-1)!.id as number;
  }
}
