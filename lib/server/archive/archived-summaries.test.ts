// The library's summaries kept in the archive, against a real PostgreSQL: the first server to list the archive
// keeps what it made, a server after it (a fresh module graph: no summary in memory) takes them instead of reading
// the files, a file changed since or a summary of another format is described again, a server whose role may not
// write still lists, and an archive of version 2 is brought up to 3 in place.
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { SessionListing } from "@/lib/library/session-listing";
import { SUMMARY_FORMAT } from "../read-summary";
import { ARCHIVE_SCHEMA_VERSION, ensureArchiveSchema, SCHEMA, schemaVersion } from "./archive-schema";
import { pushLibrary } from "./push-library";
import { testArchive, type TestArchive } from "./testing/test-archive";

const MACHINE = "desk";
const SAVED = { ...process.env };
let archive: TestArchive;
let root: string;
let dir: string;

const header = (id: string, cwd: string) => JSON.stringify({ type: "session", version: 3, id, timestamp: "2026-12-01T10:00:00.000Z", cwd });
const message = (id: string, parentId: string | null, text: string) =>
  JSON.stringify({ type: "message", id, parentId, timestamp: "2026-12-01T10:00:01.000Z", message: { role: "user", content: text } });
const FILES = [
  "--home-u-a--/2026-12-01T10-00-00-000Z_a.jsonl",
  "--home-u-a--/2026-12-02T10-00-00-000Z_b.jsonl",
  "--home-u-c--/2026-12-03T10-00-00-000Z_c.jsonl",
];

/** A server as a fresh process has it: nothing described in memory yet. */
async function server(): Promise<{ list: () => Promise<SessionListing[]>; close: () => Promise<void> }> {
  vi.resetModules();
  const library = await import("../library");
  const served = await import("./served-archive");
  return { list: async () => (await library.loadLibrary()).sessions, close: () => served.closeServedArchive() };
}

async function listedBy(url: string = archive.url): Promise<Map<string, string | null>> {
  process.env.PI_VIEWER_DATABASE_URL = url;
  const one = await server();
  try {
    return new Map((await one.list()).map((listing) => [listing.path.slice(MACHINE.length + 1), listing.name]));
  } finally {
    await one.close();
  }
}

const keptRows = async () =>
  (
    await archive.pool.query<{ path: string; size: string; summary: string }>(
      `select f.path, s.size, s.summary from ${SCHEMA}.summaries s join ${SCHEMA}.files f on f.id = s.file_id order by f.path`,
    )
  ).rows;

const push = async () => pushLibrary(archive.pool, dir, { machine: MACHINE, machineId: await archive.machine(MACHINE) });

beforeAll(async () => {
  archive = await testArchive();
  root = mkdtempSync(path.join(os.tmpdir(), "archived-summaries-"));
  process.env.PI_VIEWER_CACHE_DIR = path.join(root, "cache");
});
afterAll(async () => {
  process.env = SAVED;
  await archive?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});
beforeEach(async () => {
  await archive.clear();
  dir = mkdtempSync(path.join(root, "sessions-"));
  for (const [i, rel] of FILES.entries()) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), [header(`s${i}`, "/home/u"), message("m1", null, `question ${i}`)].join("\n") + "\n");
  }
  await push();
});

describe("summaries kept in the archive", () => {
  it("are kept by the first server to list the archive, and shown by the next without reading the files", async () => {
    expect([...(await listedBy()).values()].sort()).toEqual(["question 0", "question 1", "question 2"]);
    const rows = await keptRows();
    expect(rows.map((row) => row.path)).toEqual(FILES);
    expect(rows.map((row) => JSON.parse(row.summary).firstMessage)).toEqual(["question 0", "question 1", "question 2"]);
    // what the archive keeps is what the next server shows: changed there, the change shows
    await archive.pool.query(`update ${SCHEMA}.summaries set summary = $1 where file_id = (select id from ${SCHEMA}.files where path = $2)`, [
      JSON.stringify({ ...JSON.parse(rows[1]!.summary), sessionName: "kept in the archive" }),
      FILES[1],
    ]);
    expect((await listedBy()).get(FILES[1]!)).toBe("kept in the archive");
  });

  it("are made again for a file that changed since, when kept in another format, or when not JSON", async () => {
    await listedBy();
    const tamper = (rel: string) =>
      archive.pool.query(
        `update ${SCHEMA}.summaries set summary = replace(summary, 'question', 'stale') where file_id = (select id from ${SCHEMA}.files where path = $1)`,
        [rel],
      );
    await tamper(FILES[0]!);
    await tamper(FILES[2]!);
    appendFileSync(path.join(dir, FILES[0]!), message("m2", "m1", "more") + "\n");
    await push();
    await archive.pool.query(`update ${SCHEMA}.summaries set format = $1 where file_id = (select id from ${SCHEMA}.files where path = $2)`, [
      SUMMARY_FORMAT + 1,
      FILES[2],
    ]);
    // and a kept summary that is no longer JSON
    await archive.pool.query(`update ${SCHEMA}.summaries set summary = '{broken' where file_id = (select id from ${SCHEMA}.files where path = $1)`, [FILES[1]]);
    const listed = await listedBy();
    expect([listed.get(FILES[0]!), listed.get(FILES[1]!), listed.get(FILES[2]!)]).toEqual(["question 0", "question 1", "question 2"]);
    // the grown file's summary is kept anew, for its new size
    const grown = (await keptRows()).find((row) => row.path === FILES[0])!;
    expect(JSON.parse(grown.summary)).toMatchObject({ firstMessage: "question 0", entryCount: 2 });
    expect(Number(grown.size)).toBeGreaterThan(0);
  });

  it("are made by a server whose role may not write, which lists all the same", async () => {
    const role = `reader_${randomBytes(4).toString("hex")}`;
    await archive.pool.query(`create role ${role} login`);
    try {
      await archive.pool.query(`grant usage on schema ${SCHEMA} to ${role}; grant select on all tables in schema ${SCHEMA} to ${role}`);
      const url = archive.url.replace("postgres@", `${role}@`);
      expect([...(await listedBy(url)).values()].sort()).toEqual(["question 0", "question 1", "question 2"]);
      expect(await keptRows()).toEqual([]);
    } finally {
      await archive.pool.query(`drop owned by ${role}; drop role ${role}`);
    }
  });

  it("bring an archive of version 2 up to this version in place", async () => {
    await archive.pool.query(
      `drop table ${SCHEMA}.summaries; drop index ${SCHEMA}.entries_seq_ranges; update ${SCHEMA}.meta set value = '2' where key = 'schema_version'`,
    );
    const client = await archive.pool.connect();
    try {
      await ensureArchiveSchema(client);
      expect(await schemaVersion(client)).toBe(ARCHIVE_SCHEMA_VERSION);
    } finally {
      client.release();
    }
    expect([...(await listedBy()).values()].sort()).toEqual(["question 0", "question 1", "question 2"]);
    expect(await keptRows()).toHaveLength(3);
  });
});
