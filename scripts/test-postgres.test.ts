// The throwaway PostgreSQL the archive's tests run against: it starts, answers, runs as an unprivileged user,
// and leaves nothing behind.
import { existsSync, statSync } from "node:fs";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { databaseUrl, startPostgres } from "./test-postgres.cjs";

describe("startPostgres", () => {
  it("starts a server on a private socket that a fresh database can be made on, and removes it all on stop", async () => {
    const server = await startPostgres();
    try {
      expect(statSync(server.dir).mode & 0o077).toBe(0); // the socket's folder is the server's alone
      if (process.getuid?.() === 0) expect(statSync(server.dir).uid).not.toBe(0);
      const admin = new pg.Client({ connectionString: server.url });
      await admin.connect();
      await admin.query("create database made_here");
      await admin.end();
      const client = new pg.Client({ connectionString: databaseUrl(server.url, "made_here") });
      await client.connect();
      const { rows } = await client.query("select current_database() as db, current_setting('listen_addresses') as tcp");
      expect(rows[0]).toEqual({ db: "made_here", tcp: "" });
      await client.end();
    } finally {
      await server.stop();
    }
    expect(existsSync(server.dir)).toBe(false);
  });
});
