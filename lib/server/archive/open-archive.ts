// Connects to the archive: checks the URL, reaches the server, makes or checks the schema, and turns whatever
// fails on the way into a message that says what to change (archive-error.ts).
import pg from "pg";
import { archiveError, checkArchiveUrl } from "./archive-error";
import { ensureArchiveSchema, SCHEMA } from "./archive-schema";

export interface Archive {
  pool: pg.Pool;
  url: string;
  close: () => Promise<void>;
}

/**
 * A pool of `connections` to the archive at `url`, its schema ready (an older one brought up in place, `onUpgrade`
 * told first); each statement stopped by the server after `statementTimeoutMs` when given (a serving process's: a
 * request never holds a connection for good).
 */
export async function openArchive(
  url: string,
  {
    connections = 4,
    statementTimeoutMs,
    onUpgrade,
  }: { connections?: number; statementTimeoutMs?: number; onUpgrade?: (from: number, to: number) => void } = {},
): Promise<Archive> {
  checkArchiveUrl(url);
  const pool = new pg.Pool({
    connectionString: url,
    max: connections,
    connectionTimeoutMillis: 15_000,
    ...(statementTimeoutMs === undefined ? {} : { statement_timeout: statementTimeoutMs }),
  });
  // an idle connection the server drops (a restart, a proxy's timeout) must not end the process
  pool.on("error", () => undefined);
  try {
    const client = await pool.connect();
    try {
      await ensureArchiveSchema(client, onUpgrade);
    } finally {
      client.release();
    }
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw archiveError(error, url);
  }
  return { pool, url, close: () => pool.end() };
}

/** The machine's id, made on its first push. */
export async function machineId(pool: pg.Pool, name: string): Promise<number> {
  const { rows } = await pool.query<{ id: number }>(
    `insert into ${SCHEMA}.machines (name) values ($1) on conflict (name) do update set name = excluded.name returning id`,
    [name],
  );
  return rows[0]!.id;
}
