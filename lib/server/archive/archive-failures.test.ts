// What a serving process answers when a question to the archive fails after the archive opened: a statement
// stopped past its time, or a server that no longer answers, is a 503 saying so (the URL without its password) on
// every route; a file's own error stays the generic 500, archive or not.
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { errorResponse } from "../serve-session";
import { isDatabaseFailure } from "./archive-error";
import { openArchive, type Archive } from "./open-archive";
import { closeServedArchive, SERVING_STATEMENT_TIMEOUT_MS, servedArchive } from "./served-archive";
import { testDatabase, type TestDatabase } from "./testing/test-database";

const SAVED = process.env.PI_VIEWER_DATABASE_URL;
let db: TestDatabase;
let archive: Archive;

beforeAll(async () => {
  db = await testDatabase();
  archive = await openArchive(db.url, { statementTimeoutMs: 50 });
});
afterEach(() => {
  if (SAVED === undefined) delete process.env.PI_VIEWER_DATABASE_URL;
  else process.env.PI_VIEWER_DATABASE_URL = SAVED;
});
afterAll(async () => {
  await closeServedArchive();
  await archive?.close();
  await db?.drop();
});

async function answered(error: unknown): Promise<{ status: number; body: { error: string; code: string } }> {
  const response = errorResponse(error);
  return { status: response.status, body: (await response.json()) as { error: string; code: string } };
}

describe("a serving process's failed questions to the archive", () => {
  it("stop past their time, and are answered with 503 saying so", async () => {
    const stopped: unknown = await archive.pool.query("select pg_sleep(2)").catch((error: unknown) => error);
    expect(isDatabaseFailure(stopped)).toBe(true);
    process.env.PI_VIEWER_DATABASE_URL = db.url;
    const { status, body } = await answered(stopped);
    expect(status).toBe(503);
    expect(body.code).toBe("archive");
    expect(body.error).toMatch(/did not answer in time \(canceling statement due to statement timeout\): ask again, or ask less/);
    // a file's own error while the archive is served stays the file's
    expect((await answered(Object.assign(new Error("EACCES: permission denied, open '/cache/x'"), { code: "EACCES" }))).status).toBe(500);
    // with no archive served, nothing is said of one
    delete process.env.PI_VIEWER_DATABASE_URL;
    expect(await answered(stopped)).toEqual({ status: 500, body: { error: "the session file could not be read", code: "internal" } });
  });

  it("say when the server no longer answers, without the URL's password", async () => {
    const url = "postgres://team:s3cret@127.0.0.1:1/pi";
    const gone = new pg.Pool({ connectionString: url });
    const refused: unknown = await gone.query("select 1").catch((error: unknown) => error);
    await gone.end();
    process.env.PI_VIEWER_DATABASE_URL = url;
    const { status, body } = await answered(refused);
    expect(status).toBe(503);
    expect(body.error).toBe("postgres://team:***@127.0.0.1:1/pi: no PostgreSQL server answers there (is it running, and is the host, port or socket right?)");
  });

  it("are stopped by the server after the serving time, on the served archive's connections", async () => {
    process.env.PI_VIEWER_DATABASE_URL = db.url;
    const served = await servedArchive()!;
    const { rows } = await served.pool.query<{ ms: string }>("select setting as ms from pg_settings where name = 'statement_timeout'");
    expect(Number(rows[0]!.ms)).toBe(SERVING_STATEMENT_TIMEOUT_MS);
  });
});
