// `push` as a person runs it: what it prints, and what it says when the URL, the login, the database or its schema
// is wrong. Against a real PostgreSQL.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ARCHIVE_SCHEMA_VERSION, SCHEMA } from "@/lib/server/archive/archive-schema";
import { databaseUrl } from "@/scripts/test-postgres.cjs";
import { testDatabase, type TestDatabase } from "@/lib/server/archive/testing/test-database";
import { runPush } from "./push-command";

let db: TestDatabase;
let dir: string;
const out: string[] = [];

beforeAll(async () => {
  db = await testDatabase();
  dir = mkdtempSync(path.join(tmpdir(), "push-command-"));
  mkdirSync(path.join(dir, "--home-u-app--"));
  const header = JSON.stringify({ type: "session", version: 3, id: "a", timestamp: "2026-12-01T10:00:00.000Z", cwd: "/home/u/app" });
  writeFileSync(
    path.join(dir, "--home-u-app--", "a.jsonl"),
    `${header}\n${JSON.stringify({ type: "message", id: "m1", parentId: null, message: { role: "user", content: "hi" } })}\n`,
  );
  vi.spyOn(process.stdout, "write").mockImplementation((text) => (out.push(String(text)), true));
  vi.spyOn(process.stderr, "write").mockImplementation(() => true);
});
afterAll(async () => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
  await db?.drop();
});

async function withSchemaVersion(version: number, run: (url: string) => Promise<void>): Promise<void> {
  const name = `v${version}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: db.serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = databaseUrl(db.serverUrl, name);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`create schema ${SCHEMA}; create table ${SCHEMA}.meta (key text primary key, value text not null)`);
  await client.query(`insert into ${SCHEMA}.meta values ('schema_version', $1)`, [String(version)]);
  await client.end();
  await run(url);
}

describe("push", () => {
  it("pushes a directory, then finds nothing to send", async () => {
    out.length = 0;
    expect(await runPush([dir, "--to", db.url, "--machine", "ci-runner-7"])).toBe(0);
    expect(out.join("")).toMatch(/^ci-runner-7 → postgresql:\/\/postgres@.*: 1 files: 1 new, 0 grown, 0 replaced, 0 unchanged; 2 lines/);
    out.length = 0;
    expect(await runPush([dir, "--machine", "ci-runner-7"], { ...process.env, PI_VIEWER_DATABASE_URL: db.url })).toBe(0);
    expect(out.join("")).toContain("1 files: 0 new, 0 grown, 0 replaced, 1 unchanged; 0 lines");
  });

  it("says what is wrong with the URL, the server, the login or the database", async () => {
    await expect(runPush([dir])).rejects.toThrow("push needs --to URL (or PI_VIEWER_DATABASE_URL)");
    await expect(runPush([dir, "--to", "localhost:5432"])).rejects.toThrow(/only PostgreSQL URLs|not a database URL/);
    await expect(runPush([dir, "--to", "postgres://u@%2Fnowhere%2Fsocket/db"])).rejects.toThrow("no PostgreSQL server answers there");
    await expect(runPush([dir, "--to", db.url.replace("postgres@", "nobody_here@")])).rejects.toThrow(/refused the login: role "nobody_here" does not exist/);
    await expect(runPush([dir, "--to", databaseUrl(db.serverUrl, "no_such_db")])).rejects.toThrow(
      /database "no_such_db" does not exist \(create it with: createdb/,
    );
    for (const bad of ["", "a/b", "..", "-x", "tab\there", "x".repeat(101)])
      await expect(runPush([dir, "--to", db.url, "--machine", bad])).rejects.toThrow("--machine takes a name");
  });

  it("refuses a database of another schema version and says how to go on", async () => {
    await withSchemaVersion(ARCHIVE_SCHEMA_VERSION + 1, async (url) => {
      await expect(runPush([dir, "--to", url])).rejects.toThrow(/schema version \d+, newer than this pi-session-viewer's.*upgrade pi-session-viewer/);
    });
    // version 2 is brought up in place (archived-summaries.test.ts); 1 is older than that
    await withSchemaVersion(1, async (url) => {
      await expect(runPush([dir, "--to", url])).rejects.toThrow(/schema version \d+, older than this pi-session-viewer's.*pushed again into a new database/);
    });
  });
});
