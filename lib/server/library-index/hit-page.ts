// How the rows a search found make a page, whatever index found them: a copy of an entry is one hit, in the first
// file of the rows' order (the oldest: header time, then path); `alsoIn` counts the others. A row is a record with
// the columns entry_id, hash, file_id, off (where its line starts), len, path, on_active, role, time and score.
// A hit's snippet is cut from its line here too.
import { nestsDeeperThan } from "@/lib/library/json-depth";
import { entrySearchText, searchSnippet } from "@/lib/library/library-search";
import type { LibrarySearchHit } from "@/lib/library/search-api";
import { isObject } from "@/lib/session/json";
import type { SessionEntry } from "@/lib/session/types";

/** A page of hits: the shown ones, how many in all, and whether that is a lower bound. */
export interface Found {
  shown: LocatedHit[];
  total: number;
  capped: boolean;
}

/** A hit with where its line is, and its entry's copy key (null for a line without an id: it has no copies). */
export interface LocatedHit {
  hit: LibrarySearchHit;
  path: string;
  off: number;
  len: number;
  key: { entryId: string; hash: number | null } | null;
}

/** What tells an entry's copies from other entries: its id and content hash, or its file and line. */
export function copyKey(row: Record<string, unknown>): string {
  const id = row.entry_id as string | null;
  return id === null ? `${row.file_id as number} ${row.off as number}` : `${id} ${row.hash as number | null}`;
}

/** Rows (best first, copies of an entry in file age order) as a page: a copy is one hit, in the first file. */
export function page(rows: readonly Record<string, unknown>[], limit: number, capped: boolean): Found {
  const seen = new Map<string, LocatedHit>();
  const distinct: LocatedHit[] = [];
  for (const row of rows) {
    const off = row.off as number;
    const id = row.entry_id as string | null;
    const key = copyKey(row);
    const first = seen.get(key);
    if (first) {
      first.hit.alsoIn++;
      continue;
    }
    const located: LocatedHit = {
      hit: {
        file: row.path as string,
        entryId: id ?? `line@${off}`,
        onActivePath: row.on_active === 1,
        snippet: "",
        score: row.score as number,
        alsoIn: 0,
        role: row.role as string | null,
        time: row.time as number | null,
      },
      path: row.path as string,
      off,
      len: row.len as number,
      key: id === null ? null : { entryId: id, hash: row.hash as number | null },
    };
    seen.set(key, located);
    distinct.push(located);
  }
  return { shown: distinct.slice(0, limit), total: distinct.length, capped };
}

/** A hit's snippet, cut from its line as it reads now ("" when it no longer reads as an entry: its file changed). */
export function hitSnippet(line: string | null, terms: readonly (readonly string[])[]): string {
  const words = line === null ? null : lineText(line);
  return words === null ? "" : searchSnippet(words, terms);
}

/** What an entry line is searched by, or null when it no longer reads as an entry (its file changed since). */
function lineText(line: string): string | null {
  try {
    const value: unknown = JSON.parse(line);
    return isObject(value) && !nestsDeeperThan(value) ? entrySearchText(value as SessionEntry) : null;
  } catch {
    return null;
  }
}
