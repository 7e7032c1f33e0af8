// What the search plans share: a search as they take it, the filters as SQL, the rows of a hit (and, from
// ../hit-page.ts, how rows make a page).
import type { LineReader } from "../../line-reader";
export { copyKey, page, type Found, type LocatedHit } from "../hit-page";
import type { SearchFilters } from "../library-index";

export const HIT_COLUMNS = "e.id, e.file_id, e.entry_id, e.hash, e.off, e.len, e.on_active, e.role, e.time, f.path, f.header_time";
// CROSS JOIN keeps the first table the outer loop: the planner otherwise may walk a project's entries and ask FTS5
// about each one
export const FTS_FROM = "FROM words CROSS JOIN entries e ON e.id = words.rowid CROSS JOIN files f ON f.id = e.file_id";
export const ENTRY_FROM = "FROM entries e CROSS JOIN files f ON f.id = e.file_id";

/** Hits looked up (their oldest copy, their copies) between two breaths. */
export const PER_BREATH = 32;

export type Terms = readonly (readonly string[])[];

/** A search as its plans take it. */
export interface Search {
  terms: Terms;
  limit: number;
  /** how many hits are ranked: more make the page capped */
  cap: number;
  filters: SearchFilters;
  /** the filters as SQL over entries `e` and files `f` */
  where: string[];
  values: unknown[];
  /** the entry ids the date filters leave, or null */
  ids: { low: number; high: number } | null;
  lines: LineReader;
}

/** The MATCH (its query the first value) and the filters, over FTS_FROM; rowids kept within the dates' ids. */
export function ftsCondition(search: Search): string {
  const ids = search.ids ? ` AND words.rowid >= ${search.ids.low} AND words.rowid <= ${search.ids.high}` : "";
  return `words MATCH ?${ids}${and(search.where)}`;
}

export const and = (clauses: readonly string[]) => clauses.map((clause) => ` AND ${clause}`).join("");

/** The filters as SQL over entries `e` and files `f`. */
export function conditions(filters: SearchFilters): { where: string[]; values: unknown[] } {
  const where: string[] = [];
  const values: unknown[] = [];
  const add = (clause: string, value?: unknown) => {
    where.push(clause);
    if (value !== undefined) values.push(value);
  };
  if (filters.project !== undefined) add("f.project = ?", filters.project);
  if (filters.from !== undefined) add("e.time >= ?", filters.from);
  if (filters.to !== undefined) add("e.time < ?", filters.to);
  if (filters.role !== undefined) add("e.role = ?", filters.role);
  if (filters.model !== undefined) add("e.model = ?", filters.model);
  if (filters.tool !== undefined) add("(' ' || e.tools || ' ') LIKE ?", `% ${filters.tool} %`);
  if (filters.activeOnly) add("e.on_active = 1");
  return { where, values };
}

/** Best first: bm25, then the oldest file, then file order (SQL's ORDER BY of the ranked query). */
export function byRank(a: Record<string, unknown>, b: Record<string, unknown>): number {
  const text = (x: unknown, y: unknown) => ((x as string) < (y as string) ? -1 : (x as string) > (y as string) ? 1 : 0);
  return (a.score as number) - (b.score as number) || text(a.header_time, b.header_time) || text(a.path, b.path) || (a.id as number) - (b.id as number);
}
