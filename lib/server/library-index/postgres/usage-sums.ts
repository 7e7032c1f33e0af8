// The library's usage in the archive: every entry's usage as pi counts it (lib/library/usage.ts), written by the
// push with the entry, and its sums by file, UTC day and model, split into what the file counts and what it copied
// from an older file (older-copy.ts), as SQLite's index keeps them (sqlite/usage-store.ts). A push makes the sums
// again for its file and for every file sharing an entry with what it wrote or dropped: a fork pushed before its
// source moves the copies' cost to the source when the source comes.
import type pg from "pg";
import { branchUsage, zeroUsage, type BranchUsage, type UsageBucket, type UsageTotals } from "@/lib/library/usage";
import { addUsageInto } from "@/lib/session/usage";
import { SCHEMA } from "../../archive/archive-schema";
import type { StoredUsage } from "../library-index";
import { olderCopyExists, relOf } from "./older-copy";

/** The other files holding an entry with usage that `fileId` holds from line `fromLine` on. */
export async function sharingFiles(client: pg.ClientBase, fileId: string, fromLine: number): Promise<Set<string>> {
  const { rows } = await client.query<{ file_id: string }>(
    `select distinct c.file_id from ${SCHEMA}.usage u join ${SCHEMA}.entries e on e.file_id = u.file_id and e.line = u.line
       join ${SCHEMA}.entries c on c.entry_id = e.entry_id and c.hash = e.hash
     where u.file_id = $1 and u.line >= $2 and e.entry_id is not null and c.file_id <> $1`,
    [fileId, fromLine],
  );
  return new Set(rows.map((row) => row.file_id));
}

/** The files other than `fileId` holding an entry of these ids and content hashes. */
export async function filesHolding(client: pg.ClientBase, fileId: string, ids: readonly string[], hashes: readonly number[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const { rows } = await client.query<{ file_id: string }>(
    `select distinct c.file_id from unnest($2::text[], $3::float8[]) as u(id, hash) join ${SCHEMA}.entries c on c.entry_id = u.id and c.hash = u.hash
     where c.file_id <> $1`,
    [fileId, ids, hashes],
  );
  return new Set(rows.map((row) => row.file_id));
}

/** Makes the sums of `fileIds` again from their entries' usage. */
export async function refreshUsageSums(client: pg.ClientBase | pg.Pool, fileIds: readonly string[]): Promise<void> {
  await client.query(`delete from ${SCHEMA}.usage_sums where file_id = any($1::bigint[])`, [fileIds]);
  await client.query(
    `insert into ${SCHEMA}.usage_sums (file_id, day, model, counted, input, output, cache_read, cache_write, cost, calls)
     select u.file_id, u.day, u.model, not ${olderCopyExists("e", "f", "m")}, sum(u.input), sum(u.output), sum(u.cache_read),
       sum(u.cache_write), sum(u.cost), count(*)
     from ${SCHEMA}.usage u join ${SCHEMA}.entries e on e.file_id = u.file_id and e.line = u.line
       join ${SCHEMA}.files f on f.id = u.file_id join ${SCHEMA}.machines m on m.id = f.machine_id
     where u.file_id = any($1::bigint[]) group by 1, 2, 3, 4`,
    [fileIds],
  );
}

/**
 * Makes the sums of a file whose every line this push wrote, when no other file holds an entry of it with usage:
 * no older copy can exist, so all of it counts here, and no other file's sums change.
 */
export async function writeOwnUsageSums(client: pg.ClientBase, fileId: string): Promise<void> {
  await client.query(`delete from ${SCHEMA}.usage_sums where file_id = $1`, [fileId]);
  await client.query(
    `insert into ${SCHEMA}.usage_sums (file_id, day, model, counted, input, output, cache_read, cache_write, cost, calls)
     select file_id, day, model, true, sum(input), sum(output), sum(cache_read), sum(cache_write), sum(cost), count(*)
     from ${SCHEMA}.usage where file_id = $1 group by 1, 2, 3`,
    [fileId],
  );
}

interface SumRow {
  rel: string;
  machine: string;
  project: string;
  day: string;
  model: string;
  counted: boolean;
  input: number;
  output: number;
  cache_read: number;
  cache_write: number;
  cost: number;
  calls: number;
}

/** The archive's usage sums, files named `<machine>/<path>`, each bucket with its machine. */
export async function readUsageSums(pool: pg.Pool): Promise<StoredUsage> {
  const { rows } = await pool.query<SumRow>(
    `select ${relOf("m", "f")} as rel, m.name as machine, f.project, s.day, s.model, s.counted, s.input, s.output, s.cache_read, s.cache_write, s.cost, s.calls
     from ${SCHEMA}.usage_sums s join ${SCHEMA}.files f on f.id = s.file_id join ${SCHEMA}.machines m on m.id = f.machine_id`,
  );
  const buckets: UsageBucket[] = [];
  const copied = new Map<string, UsageTotals & { calls: number }>();
  for (const row of rows) {
    const totals = totalsOf(row);
    if (row.counted) {
      buckets.push({ file: row.rel, project: row.project, machine: row.machine, day: row.day, model: row.model, ...totals, calls: row.calls });
      continue;
    }
    let sum = copied.get(row.rel);
    if (!sum) copied.set(row.rel, (sum = { ...zeroUsage(), calls: 0 }));
    addUsageInto(sum, totals);
    sum.calls += row.calls;
  }
  return { buckets, copied };
}

/**
 * Files' branch splits as last read, by file id: what decides a split (the file's lines, its generation, what it
 * copied) is in the key, so a split is read again when any of it changed, by whichever push. A cache only: every
 * serving process makes its own and gives the same answers.
 */
const branchesRead = new Map<string, { key: string; branches: BranchUsage[] }>();
const MOST_BRANCHES_KEPT = 20_000;

/** A file's usage (what it counts, from `since`) split by branch; `rel`: `<machine>/<path>`. */
export async function fileBranches(pool: pg.Pool, rel: string, since: number | null): Promise<BranchUsage[]> {
  const slash = rel.indexOf("/");
  const [machine, path] = slash > 0 ? [rel.slice(0, slash), rel.slice(slash + 1)] : ["", rel];
  const file = await pool.query<{ id: string; generation: number; line_count: number; copied: string | null }>(
    `select f.id, f.generation, f.line_count,
       (select sum(s.calls) || ' ' || sum(s.cost) from ${SCHEMA}.usage_sums s where s.file_id = f.id and not s.counted) as copied
     from ${SCHEMA}.files f join ${SCHEMA}.machines m on m.id = f.machine_id where m.name = $1 and f.path = $2`,
    [machine, path],
  );
  const found = file.rows[0];
  if (!found) return branchUsage([], null);
  const key = `${found.generation} ${found.line_count} ${found.copied} ${since}`;
  const kept = branchesRead.get(`${found.id} ${since}`);
  if (kept?.key === key) return kept.branches;
  const branches = await readBranches(pool, found.id, found.copied !== null, since);
  if (branchesRead.size >= MOST_BRANCHES_KEPT) branchesRead.delete(branchesRead.keys().next().value!);
  branchesRead.set(`${found.id} ${since}`, { key, branches });
  return branches;
}

/**
 * Reads a file's split. A file whose sums count every entry (no sum of copies) holds no entry an older file holds:
 * its entries are not looked for one by one (a look per entry made usage by session take seconds on a large archive).
 */
async function readBranches(pool: pg.Pool, fileId: string, copies: boolean, since: number | null): Promise<BranchUsage[]> {
  const { rows } = await pool.query<{
    entry_id: string | null;
    parent_id: string | null;
    at: string;
    time: number | null;
    counted: boolean | null;
    leaf: string | null;
    input: number;
    output: number;
    cache_read: number;
    cache_write: number;
    cost: number;
  }>(
    `select e.entry_id, e.parent_id, e.at, u.time, f.leaf, u.input, u.output, u.cache_read, u.cache_write, u.cost,
       case when u.line is null then false else ${copies ? `not ${olderCopyExists("e", "f", "m")}` : "true"} end as counted
     from ${SCHEMA}.files f join ${SCHEMA}.machines m on m.id = f.machine_id join ${SCHEMA}.entries e on e.file_id = f.id
       left join ${SCHEMA}.usage u on u.file_id = e.file_id and u.line = e.line
     where f.id = $1 order by e.line`,
    [fileId],
  );
  // a v1 file's entries have no ids: pi's migration chains them in file order, so they are one branch here too
  let previous: string | null = null;
  const entries = rows.map((row) => {
    const id = row.entry_id ?? `line@${row.at}`;
    const parentId = row.entry_id === null ? previous : row.parent_id;
    previous = id;
    const inRange = since === null || (row.time !== null && row.time >= since);
    return { id, parentId, usage: row.counted && inRange ? totalsOf(row) : null };
  });
  return branchUsage(entries, rows[0]?.leaf ?? entries.at(-1)?.id ?? null);
}

function totalsOf(row: { input: number; output: number; cache_read: number; cache_write: number; cost: number }): UsageTotals {
  return { input: row.input, output: row.output, cacheRead: row.cache_read, cacheWrite: row.cache_write, cost: row.cost };
}
