// The archive's tables in PostgreSQL, and the one version number that says which layout a database holds. Every
// pusher and server checks it before reading or writing: a database made by another version of the viewer is
// refused with how to go on, never read half-right.
import type pg from "pg";
import { factLexemesUpgrade } from "../library-index/postgres/fact-lexemes";
import { ENTRIES_SEQ_RANGES, libraryIndexTables } from "../library-index/postgres/index-tables";
import { ARCHIVE_CHANNEL } from "./archive-changes";

/** Bumped whenever a table or column changes meaning; written in `meta` when the schema is made. */
export const ARCHIVE_SCHEMA_VERSION = 4;

/** Everything lives in one schema of its own, so the archive can share a database with other things. */
export const SCHEMA = "pi_archive";

/** Version 3's table, the one version 2 lacks (ensureArchiveSchema adds it to a version-2 archive). */
const SUMMARIES = `
-- how the library describes each file (archived-summaries.ts), made by the first server to list it and kept for
-- every server after it: describing a file reads up to a megabyte of its lines
create table ${SCHEMA}.summaries (
  file_id bigint primary key references ${SCHEMA}.files (id),
  -- the file described: as it was then (its size, mtime and generation), and how (SUMMARY_FORMAT)
  size bigint not null,
  mtime_ms double precision not null,
  generation int not null,
  format int not null,
  -- a SessionSummary as JSON text (jsonb holds no NUL, which a header may)
  summary text not null
);
`;

const TABLES = `
create table ${SCHEMA}.meta (
  key text primary key,
  value text not null
);
create table ${SCHEMA}.machines (
  id serial primary key,
  name text not null unique,
  first_push timestamptz not null default now(),
  last_push timestamptz not null default now()
);
-- one row per session file of one machine, known by (machine, path)
create table ${SCHEMA}.files (
  id bigserial primary key,
  machine_id int not null references ${SCHEMA}.machines (id),
  -- relative to the machine's sessions directory, as the local viewer names it: --<cwd>--/<file>.jsonl
  path text not null,
  -- that sessions directory, absolute, as the machine named it at the file's last push (a fork's header names its
  -- source by an absolute path of that machine)
  root text not null,
  -- replaced files count up, so a reader holding an older generation knows to start again
  generation int not null default 1,
  -- the whole lines held: their bytes (each with its newline) and their count
  size bigint not null default 0,
  line_count int not null default 0,
  -- the bytes after the last newline, held as they are (a line pi is still writing): not a line yet, so not
  -- indexed, but part of the file's bytes
  pending bytea not null default '',
  -- what the file looked like at its last push: unchanged, it is not read again
  seen_size bigint not null default 0,
  seen_mtime_ms double precision not null default 0,
  seen_ino numeric not null default 0,
  -- the first and last bytes held (up to 64 KiB each): a grown file must still begin and end its held part so
  head_sha256 bytea,
  tail_sha256 bytea,
  pushed_at timestamptz not null default now(),
  -- what the library index keeps of the file (lib/server/library-index/postgres/): its project (header cwd, else
  -- folder), header time (else the file's mtime), and leaf
  project text,
  header_time text,
  leaf text,
  unique (machine_id, path)
);
-- a file no push of this machine holds yet is looked for among the other machines' by its path
create index files_path on ${SCHEMA}.files (path);
-- a file's lines, and the library index's rows of each line, name it without a foreign key: checking one a row
-- cost a first push much of its time on the server, and only the push holding the file's row writes them
create table ${SCHEMA}.lines (
  file_id bigint not null,
  -- 1-based, as problems name lines
  line int not null,
  -- where the line starts in the file
  at bigint not null,
  -- the line as written, without its newline
  bytes bytea not null,
  primary key (file_id, line)
);
-- a byte range of a file is read by where its lines start
create index lines_at on ${SCHEMA}.lines (file_id, at);
-- a file whose bytes changed is announced when its push commits (archive-changes.ts): the serving processes' tails
-- hear it from the database, whoever wrote it
create function ${SCHEMA}.announce_file() returns trigger language plpgsql as $$
begin
  perform pg_notify('${ARCHIVE_CHANNEL}', new.id::text);
  return null;
end $$;
create trigger files_changed after update on ${SCHEMA}.files for each row
  when (old.size is distinct from new.size or old.generation is distinct from new.generation or old.pending is distinct from new.pending)
  execute function ${SCHEMA}.announce_file();
${SUMMARIES}
${libraryIndexTables(SCHEMA)}
`;

export class ArchiveSchemaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ArchiveSchemaError";
  }
}

/**
 * Makes the archive's tables in an empty database, or checks that the database holds this version's, bringing an
 * older one up in place (`onUpgrade` told first: it may take minutes). Two processes starting at once: an advisory
 * lock lets one make or upgrade the tables, the other waits and then finds them.
 */
export async function ensureArchiveSchema(client: pg.ClientBase, onUpgrade?: (from: number, to: number) => void): Promise<void> {
  const found = await schemaVersion(client);
  if (found === ARCHIVE_SCHEMA_VERSION) return;
  if (found !== null && !(found >= OLDEST_UPGRADED && found < ARCHIVE_SCHEMA_VERSION)) throw versionError(found);
  await client.query("begin");
  try {
    // a serving pool stops statements after a minute; an upgrade rewrites rows for minutes, and waits for another's
    await client.query("select set_config('statement_timeout', '0', true)");
    await client.query("select pg_advisory_xact_lock(hashtext($1))", [SCHEMA]);
    const again = await schemaVersion(client);
    if (again === null) {
      await client.query(`create schema if not exists ${SCHEMA}`);
      await client.query(TABLES);
      // lz4 compresses the lines several times faster than the default pglz, at a little more room; a server built
      // without it keeps pglz
      const { rows } = await client.query<{ lz4: boolean }>("select 'lz4' = any(enumvals) as lz4 from pg_settings where name = 'default_toast_compression'");
      if (rows[0]?.lz4) await client.query(`alter table ${SCHEMA}.lines alter column bytes set compression lz4`);
      await client.query(`insert into ${SCHEMA}.meta (key, value) values ('schema_version', $1)`, [String(ARCHIVE_SCHEMA_VERSION)]);
    } else if (again >= OLDEST_UPGRADED && again < ARCHIVE_SCHEMA_VERSION) {
      onUpgrade?.(again, ARCHIVE_SCHEMA_VERSION);
      for (let version = again; version < ARCHIVE_SCHEMA_VERSION; version++) await client.query(UPGRADES[version - OLDEST_UPGRADED]!);
      await client.query(`update ${SCHEMA}.meta set value = $1 where key = 'schema_version'`, [String(ARCHIVE_SCHEMA_VERSION)]);
    } else if (again !== ARCHIVE_SCHEMA_VERSION) throw versionError(again);
    await client.query("commit");
  } catch (error) {
    await client.query("rollback");
    throw error;
  }
}

/** What a pusher or server says before it brings an archive up in place. */
export const upgradeNotice = (from: number, to: number) =>
  `bringing the archive from schema version ${from} up to ${to} in place: on a large archive this takes minutes, and other pushers and servers wait for it`;

/** The oldest version an archive is brought up from in place, by UPGRADES in turn. */
const OLDEST_UPGRADED = 2;

/** What brings an archive of version OLDEST_UPGRADED + i up by one. */
const UPGRADES = [
  // 2 -> 3: the summaries kept
  SUMMARIES,
  // 3 -> 4: the entries' role, model and tools among their words (every row with words written again, once), and
  // their seq by ranges of pages
  `${factLexemesUpgrade(`${SCHEMA}.entries`)} ${ENTRIES_SEQ_RANGES(SCHEMA)}`,
];

/** The version the database holds, or null when it holds no archive yet. */
export async function schemaVersion(client: pg.ClientBase): Promise<number | null> {
  const exists = await client.query<{ found: string | null }>("select to_regclass($1) as found", [`${SCHEMA}.meta`]);
  if (!exists.rows[0]?.found) return null;
  const { rows } = await client.query<{ value: string }>(`select value from ${SCHEMA}.meta where key = 'schema_version'`);
  const version = Number(rows[0]?.value);
  if (!Number.isSafeInteger(version)) throw new ArchiveSchemaError(`the database's ${SCHEMA} schema has no version: it was not made by pi-session-viewer`);
  return version;
}

function versionError(found: number): ArchiveSchemaError {
  return found > ARCHIVE_SCHEMA_VERSION
    ? new ArchiveSchemaError(
        `this archive has schema version ${found}, newer than this pi-session-viewer's (${ARCHIVE_SCHEMA_VERSION}): ` +
          `upgrade pi-session-viewer (npm install -g pi-session-viewer@latest) on this machine`,
      )
    : new ArchiveSchemaError(
        `this archive has schema version ${found}, older than this pi-session-viewer's (${ARCHIVE_SCHEMA_VERSION}): ` +
          `its sessions can be pushed again into a new database (pi-session-viewer push --to NEW_URL from each machine), ` +
          `or read with the pi-session-viewer version that made it`,
      );
}
