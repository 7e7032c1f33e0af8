// A database of its own for each test file, on a real PostgreSQL: the one `npm test` started
// (PI_VIEWER_TEST_POSTGRES_URL, scripts/test.sh), or else a server this file starts and stops itself, so that
// `npx vitest run <one file>` works as well as the whole suite.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { databaseUrl, startPostgres } from "../../../../scripts/test-postgres.cjs";

export interface TestDatabase {
  /** the URL of a fresh, empty database */
  url: string;
  /** the server's URL (its `postgres` database): for making more databases */
  serverUrl: string;
  /** drops the database, and stops the server if this file started it */
  drop: () => Promise<void>;
}

/** Makes a fresh database; call `drop` in afterAll. */
export async function testDatabase(): Promise<TestDatabase> {
  const shared = process.env.PI_VIEWER_TEST_POSTGRES_URL;
  const own = shared ? null : await startPostgres();
  const serverUrl = shared ?? own!.url;
  const name = `test_${randomBytes(6).toString("hex")}`;
  await adminQuery(serverUrl, `create database ${name}`);
  return {
    url: databaseUrl(serverUrl, name),
    serverUrl,
    drop: async () => {
      if (own) return own.stop();
      await adminQuery(serverUrl, `drop database if exists ${name} with (force)`);
    },
  };
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
