// The index's tables and their version (PRAGMA user_version): a file of another version (an older release's) is
// emptied and made again, and a damaged one is made anew. The index is a cache: nothing in it is lost for good.
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import type { LibraryIndexTuning } from "../library-index-tuning";
import { Connection, removeStaleLock } from "./database";
import { USAGE_SCHEMA } from "./usage-store";

// the indexes a first index makes at its end rather than keeps through a million inserts
export const LATE_INDEXES = "CREATE INDEX IF NOT EXISTS entries_copy ON entries(entry_id, hash); CREATE INDEX IF NOT EXISTS entries_time ON entries(time);";
/** Bumped whenever the tables, or what a row holds, change: an index of another version is emptied and built again. */
const SCHEMA_VERSION = 9;
const SCHEMA = `
CREATE TABLE files(id INTEGER PRIMARY KEY, path TEXT UNIQUE NOT NULL, size INTEGER, mtime REAL, ino INTEGER,
  indexed_to INTEGER, lines INTEGER, header_time TEXT, project TEXT, leaf TEXT,
  -- the ids and times its entries span: where a search within dates looks
  first_id INTEGER, last_id INTEGER, first_time INTEGER, last_time INTEGER);
CREATE TABLE entries(id INTEGER PRIMARY KEY AUTOINCREMENT, file_id INTEGER NOT NULL, entry_id TEXT, parent_id TEXT,
  hash INTEGER, time INTEGER, role TEXT, model TEXT, tools TEXT, off INTEGER, len INTEGER, on_active INTEGER NOT NULL,
  -- 1: the line repeats an earlier line of its file (same id, same content): its usage counts, as pi counts it, but
  -- it has no words and no search reads it (a file repeating one line thousands of times filled every capped page)
  echo INTEGER NOT NULL DEFAULT 0);
CREATE INDEX entries_file ON entries(file_id);
${LATE_INDEXES}
-- the lines a search cannot find, and why; indexed = 1: a line read all the same, suspect (an id used again)
CREATE TABLE unreadable(file_id INTEGER NOT NULL, line INTEGER, message TEXT, indexed INTEGER NOT NULL DEFAULT 0);
-- the values the filters can take (facets()), kept as entries go in: a scan of every entry took a second
CREATE TABLE facets(kind TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (kind, value)) WITHOUT ROWID;
CREATE VIRTUAL TABLE words USING fts5(body, tokenize="ascii tokenchars '_'", content='', contentless_delete=1);
-- FTS5 writes its pending words out as a segment when they pass hashsize (1 MB by default): fewer, larger
-- segments to merge on a first index of a gigabyte
INSERT INTO words(words, rank) VALUES('hashsize', 67108864);
${USAGE_SCHEMA}
PRAGMA user_version = ${SCHEMA_VERSION};
`;

/**
 * Opens (or creates) the index file with its tables, as SqliteLibraryIndex.open does; a lock left by a process that
 * died mid-write is removed first, and a file that cannot be read is made anew.
 */
export async function openIndexFile(file: string, tuning: LibraryIndexTuning): Promise<Connection> {
  mkdirSync(path.dirname(file), { recursive: true });
  removeStaleLock(file);
  for (let attempt = 0; ; attempt++) {
    const conn = await Connection.open(file, tuning);
    try {
      await prepare(conn);
      return conn;
    } catch (error) {
      conn.close();
      // the index is a cache: one that cannot be read is made anew
      if (attempt > 0 || !(error instanceof Error) || !/malformed|not a database/i.test(error.message)) throw error;
      for (const stale of [file, `${file}-journal`]) rmSync(stale, { force: true });
    }
  }
}

/** Creates the tables, or empties an index of another schema version (an older release's) and creates them. */
async function prepare(conn: Connection): Promise<void> {
  // page size and vacuuming take effect on a new file only (8 KB pages: fewer, fuller FTS5 leaves; nothing is
  // ever moved to shrink the file, its free pages are used again)
  await conn.retry(() =>
    conn.db.exec(
      `PRAGMA page_size=8192; PRAGMA auto_vacuum=NONE; PRAGMA journal_mode=DELETE; PRAGMA synchronous=NORMAL; PRAGMA cache_size=${cacheSize(conn.tuning.cacheKiB)};`,
    ),
  );
  await conn.transaction(() => {
    if (conn.db.get("PRAGMA user_version")!.user_version === SCHEMA_VERSION) {
      // dropped during a first index that did not finish
      conn.db.exec(LATE_INDEXES);
      return;
    }
    const objects = conn.db.all("SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%'");
    // FTS5's own tables go with its virtual table, and may be gone by the time their turn comes
    for (const { type, name } of objects) conn.db.exec(`DROP ${type === "view" ? "VIEW" : "TABLE"} IF EXISTS "${String(name).replaceAll('"', '""')}"`);
    conn.db.exec(SCHEMA);
  });
}

/** PRAGMA cache_size's value for `kib` KiB (negative: in KiB rather than pages). */
export function cacheSize(kib: number): number {
  return -Math.max(1, Math.round(kib));
}
