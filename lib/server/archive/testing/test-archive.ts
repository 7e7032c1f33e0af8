// An archive of its own for a test file: a fresh database (test-database.ts) with the archive's schema made, what
// every archive test starts from.
import type pg from "pg";
import { SCHEMA } from "../archive-schema";
import { machineId, openArchive } from "../open-archive";
import { testDatabase } from "./test-database";

/** The tables of files and of what they hold (machines and the schema's version stay). */
const TABLES = ["files", "summaries", "lines", "entries", "off_path", "usage", "usage_sums", "unreadable", "facets"];

export interface TestArchive {
  pool: pg.Pool;
  /** the archive's URL, for a push command or a server started by the test */
  url: string;
  /** the machine's id, made on first use */
  machine: (name: string) => Promise<number>;
  /** forgets every file and facet (machines stay): for a beforeEach */
  clear: () => Promise<void>;
  /** closes the pool and drops the database: for an afterAll */
  close: () => Promise<void>;
}

/** Makes the archive; call `close` in afterAll. */
export async function testArchive(): Promise<TestArchive> {
  const db = await testDatabase();
  const archive = await openArchive(db.url).catch(async (error: unknown) => {
    await db.drop();
    throw error;
  });
  return {
    pool: archive.pool,
    url: db.url,
    machine: (name) => machineId(archive.pool, name),
    clear: async () => {
      await archive.pool.query(`truncate ${TABLES.map((table) => `${SCHEMA}.${table}`).join(", ")}`);
    },
    close: async () => {
      await archive.close();
      await db.drop();
    },
  };
}
