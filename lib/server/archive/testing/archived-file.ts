// What the archive holds of a file, read back as the file's bytes: what every test compares with the file itself.
import type pg from "pg";
import { SCHEMA } from "../archive-schema";

/** The bytes the archive holds for (machine, path): its lines, each with its newline, then the pending bytes; null if none. */
export async function archivedBytes(pool: pg.Pool, machine: string, rel: string): Promise<Buffer | null> {
  const file = await pool.query<{ id: string; pending: Buffer }>(
    `select f.id, f.pending from ${SCHEMA}.files f join ${SCHEMA}.machines m on m.id = f.machine_id where m.name = $1 and f.path = $2`,
    [machine, rel],
  );
  const row = file.rows[0];
  if (!row) return null;
  const { rows } = await pool.query<{ bytes: Buffer }>(`select bytes from ${SCHEMA}.lines where file_id = $1 order by line`, [row.id]);
  return Buffer.concat([...rows.flatMap((line) => [line.bytes, Buffer.from("\n")]), row.pending]);
}

/**
 * Where two byte strings first differ, or null when they are equal (null and null too). Compared with
 * Buffer.equals: a test runner's deep equality goes byte by byte through its generic code, seconds a megabyte.
 */
export function firstDifference(actual: Buffer | null, expected: Buffer | null): string | null {
  if (actual === null || expected === null)
    return actual === expected
      ? null
      : `${actual === null ? "nothing" : `${actual.length} bytes`} held, ${expected === null ? "nothing" : `${expected.length} bytes`} expected`;
  if (actual.equals(expected)) return null;
  let at = 0;
  while (at < actual.length && at < expected.length && actual[at] === expected[at]) at++;
  return `${actual.length} bytes held, ${expected.length} expected; first difference at byte ${at}`;
}
