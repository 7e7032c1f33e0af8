// Which file holds an entry first: by header time, then `<machine>/<path>`, compared byte by byte (as SQLite
// compares text, so both indexes pick the same file). A fork's copy of an entry is shown, and counted, there.
import { SCHEMA } from "../../archive/archive-schema";

/** The file's name as the index gives it, `<machine>/<path>`, for files `f` of machines `m`. */
export const relOf = (m: string, f: string) => `(${m}.name || '/' || ${f}.path)`;

/** Files `f` (of machines `m`) in the order their copies of an entry are shown in: oldest first. */
export const OLDEST_FIRST = (f: string, m: string) => `${f}.header_time collate "C", ${relOf(m, f)} collate "C"`;

/**
 * Whether a file older than `f` (of machine `m`) holds the entry of row `e`: its usage then counts there, and its
 * hit is shown there. An entry without an id is nobody's copy.
 */
export function olderCopyExists(e: string, f: string, m: string): string {
  return `(${e}.entry_id is not null and exists (select 1 from ${SCHEMA}.entries c join ${SCHEMA}.files g on g.id = c.file_id
    join ${SCHEMA}.machines n on n.id = g.machine_id
    where c.entry_id = ${e}.entry_id and c.hash = ${e}.hash and c.file_id <> ${e}.file_id
      and (g.header_time collate "C" < ${f}.header_time collate "C"
        or (g.header_time = ${f}.header_time and ${relOf("n", "g")} collate "C" < ${relOf(m, f)} collate "C"))))`;
}
