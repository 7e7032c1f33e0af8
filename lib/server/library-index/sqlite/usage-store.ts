// The library's usage, kept in the search index's database beside its words: every entry's usage as pi 1.6's
// /session counts it (lib/library/usage.ts), and its sums by file, UTC day and model, split into what the file
// counts and what it copied from an older file (a fork's inherited history, counted there). A library's usage is
// then read from a few thousand sums, not from its files.
//
// An entry is counted in the oldest file holding it: by header time, then path (compared as SQLite compares text).
// When a file is indexed or dropped, the sums are made again for it and for every file that shares an entry with
// it, so a fork indexed before its source moves the copies' cost to the source when the source comes.
//
// Which file holds an entry first is asked once per entry (its id and content hash), never once per row that holds
// it: a file that repeats one line a hundred thousand times would otherwise have every row compared with every
// other (8,000 rows took 20 s), and the whole library wait on it.
import { branchUsage, zeroUsage, type BranchUsage, type UsageBucket, type UsageRecord, type UsageTotals } from "@/lib/library/usage";
import { addUsageInto } from "@/lib/session/usage";
import { dayOf } from "@/lib/library/usage";
import type { StoredUsage } from "../library-index";

interface Db {
  exec(sql: string): void;
  prepare(sql: string): { run(values?: unknown[]): unknown; finalize(): void };
  all(sql: string, values?: unknown[]): Record<string, unknown>[];
  run(sql: string, values?: unknown[]): unknown;
}

export const USAGE_SCHEMA = `
CREATE TABLE usage(entry INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, time REAL, day TEXT NOT NULL,
  model TEXT NOT NULL, source TEXT NOT NULL, input REAL, output REAL, cache_read REAL, cache_write REAL, cost REAL);
CREATE INDEX usage_file ON usage(file_id);
CREATE TABLE usage_sums(file_id INTEGER NOT NULL, day TEXT NOT NULL, model TEXT NOT NULL, counted INTEGER NOT NULL,
  input REAL, output REAL, cache_read REAL, cache_write REAL, cost REAL, calls INTEGER);
CREATE INDEX usage_sums_file ON usage_sums(file_id);
CREATE TABLE usage_branches(file_id INTEGER PRIMARY KEY, branches TEXT NOT NULL);
`;

/** The row an entry's usage is kept in, beside its entry's row (the same rowid). */
export function usageValues(entryRowId: number, fileId: number, record: UsageRecord): unknown[] {
  return [
    entryRowId,
    fileId,
    Number.isNaN(record.time) ? null : record.time,
    dayOf(record.time),
    record.model,
    record.source,
    record.input,
    record.output,
    record.cacheRead,
    record.cacheWrite,
    record.cost,
  ];
}

export const INSERT_USAGE =
  "INSERT INTO usage(entry, file_id, time, day, model, source, input, output, cache_read, cache_write, cost) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

/**
 * Fills the temporary table `owners` with, for each entry (id and content hash) held by the rows `rows` selects (a
 * FROM … WHERE over entries `e`, its values `values`), the oldest file holding it. A hash is made once two rows share
 * an id, so a row without one is nobody's copy and has no owner; nor has a line without an id. A file whose header
 * time is not written yet (mid-update) is older than none and counts what it holds. A table with a key rather than a
 * WITH clause: SQLite scanned a WITH clause's rows once per row joined to it.
 */
function findOwners(db: Db, rows: string, values: unknown[]): void {
  db.exec("CREATE TEMP TABLE IF NOT EXISTS owners(entry_id TEXT NOT NULL, hash INTEGER NOT NULL, owner INTEGER, PRIMARY KEY (entry_id, hash)) WITHOUT ROWID");
  db.run("DELETE FROM temp.owners");
  db.run(
    `INSERT INTO temp.owners SELECT entry_id, hash, (SELECT c.file_id FROM entries c JOIN files g ON g.id = c.file_id
       WHERE c.entry_id = k.entry_id AND c.hash = k.hash AND g.header_time IS NOT NULL ORDER BY g.header_time, g.path LIMIT 1)
     FROM (SELECT DISTINCT e.entry_id, e.hash ${rows} AND e.entry_id IS NOT NULL AND e.hash IS NOT NULL) k`,
    values,
  );
}
/** Whether the row `e` of file `f` counts its usage: no older file holds its entry (owners `o`, LEFT JOINed). */
const COUNTED = "(f.header_time IS NULL OR o.owner IS NULL OR o.owner = f.id)";
const OWNER_OF_E = "LEFT JOIN temp.owners o ON o.entry_id = e.entry_id AND o.hash = e.hash";

/** The files whose sums depend on `fileIds`' entries: theirs, and those of every file sharing an entry with them. */
export function sharingFiles(db: Db, fileIds: Iterable<number>): Set<number> {
  const ids = [...new Set(fileIds)];
  const out = new Set(ids);
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    // each entry once, however many rows hold it (a row of the chunk's own files adds nothing: they are in `out`)
    const rows = db.all(
      `SELECT DISTINCT c.file_id FROM (SELECT DISTINCT e.entry_id, e.hash FROM usage u JOIN entries e ON e.id = u.entry
         WHERE u.file_id IN (${chunk.map(() => "?").join(",")}) AND e.entry_id IS NOT NULL) k
       CROSS JOIN entries c ON c.entry_id = k.entry_id AND c.hash IS k.hash`,
      chunk,
    );
    for (const row of rows) out.add(row.file_id as number);
  }
  return out;
}

/** Makes the sums of `fileIds` again from their entries' usage. */
export function refreshUsageSums(db: Db, fileIds: Iterable<number>): void {
  const ids = [...new Set(fileIds)];
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const marks = chunk.map(() => "?").join(",");
    db.run(`DELETE FROM usage_sums WHERE file_id IN (${marks})`, chunk);
    db.run(`DELETE FROM usage_branches WHERE file_id IN (${marks})`, chunk);
    findOwners(db, `FROM usage u JOIN entries e ON e.id = u.entry WHERE u.file_id IN (${marks})`, chunk);
    db.run(
      `INSERT INTO usage_sums(file_id, day, model, counted, input, output, cache_read, cache_write, cost, calls)
       SELECT u.file_id, u.day, u.model, ${COUNTED}, sum(u.input), sum(u.output), sum(u.cache_read), sum(u.cache_write),
         sum(u.cost), count(*)
       FROM usage u JOIN entries e ON e.id = u.entry JOIN files f ON f.id = u.file_id ${OWNER_OF_E}
       WHERE u.file_id IN (${marks}) GROUP BY 1, 2, 3, 4`,
      chunk,
    );
  }
}

/**
 * Forgets a file's usage, its entries still there: what returns are the other files that shared entries with it,
 * whose sums the caller makes again once the file is gone.
 */
export function dropUsage(db: Db, fileId: number): Set<number> {
  const sharing = sharingFiles(db, [fileId]);
  sharing.delete(fileId);
  db.run("DELETE FROM usage WHERE file_id = ?", [fileId]);
  db.run("DELETE FROM usage_sums WHERE file_id = ?", [fileId]);
  db.run("DELETE FROM usage_branches WHERE file_id = ?", [fileId]);
  return sharing;
}

/** The library's usage sums. */
export function readUsageSums(db: Db): StoredUsage {
  const buckets: UsageBucket[] = [];
  const copied = new Map<string, UsageTotals & { calls: number }>();
  const rows = db.all(
    `SELECT f.path, f.project, s.day, s.model, s.counted, s.input, s.output, s.cache_read, s.cache_write, s.cost, s.calls
     FROM usage_sums s JOIN files f ON f.id = s.file_id`,
  );
  for (const row of rows) {
    const totals = totalsOf(row);
    const file = row.path as string;
    if (row.counted) {
      buckets.push({ file, project: row.project as string, day: row.day as string, model: row.model as string, ...totals, calls: row.calls as number });
      continue;
    }
    let sum = copied.get(file);
    if (!sum) copied.set(file, (sum = { ...zeroUsage(), calls: 0 }));
    addUsageInto(sum, totals);
    sum.calls += row.calls as number;
  }
  return { buckets, copied };
}

/**
 * A file's usage split by branch (what it counts, from `since`). The split of all its usage is kept until the file
 * or one sharing entries with it changes: reading a file's tree costs a query over its entries, and a library's
 * rows by session ask it of every file.
 */
export function fileBranches(db: Db, path: string, since: number | null): BranchUsage[] {
  if (since !== null) {
    const tree = fileUsageTree(db, path, since);
    return branchUsage(tree.entries, tree.leaf);
  }
  const kept = db.all("SELECT b.branches FROM usage_branches b JOIN files f ON f.id = b.file_id WHERE f.path = ?", [path])[0];
  if (kept) return JSON.parse(kept.branches as string) as BranchUsage[];
  const tree = fileUsageTree(db, path, null);
  const branches = branchUsage(tree.entries, tree.leaf);
  db.run("INSERT OR REPLACE INTO usage_branches(file_id, branches) SELECT id, ? FROM files WHERE path = ?", [JSON.stringify(branches), path]);
  return branches;
}

/** A file's entries as the branch split takes them: its tree, and the usage it counts from `since`. */
function fileUsageTree(
  db: Db,
  path: string,
  since: number | null,
): { entries: { id: string; parentId: string | null; usage: UsageTotals | null }[]; leaf: string | null } {
  findOwners(db, "FROM files f JOIN entries e ON e.file_id = f.id WHERE f.path = ?", [path]);
  const rows = db.all(
    `SELECT e.entry_id, e.parent_id, e.off, u.time, u.input, u.output, u.cache_read, u.cache_write, u.cost,
       u.entry IS NOT NULL AND ${COUNTED} AS counted
     FROM files f JOIN entries e ON e.file_id = f.id LEFT JOIN usage u ON u.entry = e.id ${OWNER_OF_E}
     WHERE f.path = ? ORDER BY e.id`,
    [path],
  );
  const leaf = (db.all("SELECT leaf FROM files WHERE path = ?", [path])[0]?.leaf as string | null | undefined) ?? null;
  // a v1 file's entries have no ids: pi's migration chains them in file order, so they are one branch here too
  let previous: string | null = null;
  const entries = rows.map((row) => {
    const id = (row.entry_id as string | null) ?? `line@${row.off as number}`;
    const parentId = row.entry_id === null ? previous : (row.parent_id as string | null);
    previous = id;
    const inRange = since === null || (row.time !== null && (row.time as number) >= since);
    return { id, parentId, usage: row.counted && inRange ? totalsOf(row) : null };
  });
  return { entries, leaf: leaf ?? entries.at(-1)?.id ?? null };
}

function totalsOf(row: Record<string, unknown>): UsageTotals {
  return {
    input: row.input as number,
    output: row.output as number,
    cacheRead: row.cache_read as number,
    cacheWrite: row.cache_write as number,
    cost: row.cost as number,
  };
}
