// The values the search filters can take (models, tools, roles), kept as pushes write entries: reading them from
// every entry would take seconds on a large archive.
import type pg from "pg";
import type { SearchFacets } from "@/lib/library/search-api";
import { SCHEMA } from "../../archive/archive-schema";

/**
 * Adds `values` ("kind value", sorted: pushes add theirs in one order) and, after a file was replaced, drops the
 * values no entry holds any more. Called under the archive's index lock (derived-rows.ts).
 */
export async function writeFacets(client: pg.ClientBase, values: readonly string[], replaced: boolean): Promise<void> {
  const split = values.map((value) => [value.slice(0, value.indexOf(" ")), value.slice(value.indexOf(" ") + 1)]);
  if (split.length)
    await client.query(`insert into ${SCHEMA}.facets (kind, value) select * from unnest($1::text[], $2::text[]) on conflict do nothing`, [
      split.map(([kind]) => kind),
      split.map(([, value]) => value),
    ]);
  if (!replaced) return;
  await client.query(
    `delete from ${SCHEMA}.facets f where not exists (select 1 from ${SCHEMA}.entries e where
       case f.kind when 'role' then e.role = f.value when 'model' then e.model = f.value else f.value = any(e.tools) end)`,
  );
}

/** The facets, each sorted as SQLite's index sorts them (by code unit). */
export async function readFacets(pool: pg.Pool): Promise<SearchFacets> {
  const { rows } = await pool.query<{ kind: string; value: string }>(`select kind, value from ${SCHEMA}.facets order by value collate "C"`);
  const of = (kind: string) => rows.filter((row) => row.kind === kind).map((row) => row.value);
  return { models: of("model"), tools: of("tool"), roles: of("role") };
}
