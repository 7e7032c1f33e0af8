// The index's database file and its lock. node-sqlite3-wasm locks the file with a directory (`<file>.lock`) for
// the length of a statement or transaction, shared and exclusive alike, and SQLite's own busy handler is not used
// (it would block the event loop): a transaction that meets the lock of another process (the CLI searching while
// the server indexes) is retried from its start, with backoff, for the busy timeout; then a LibraryIndexBusyError
// names the file. A statement that failed is never run again: each retry prepares its own.
//
// Not responsible for the tables (schema.ts) nor for keeping a file open between questions (kept-indexes.ts).
import { rmSync, statSync } from "node:fs";
import { LibraryIndexBusyError } from "../library-index-busy-error";
import type { LibraryIndexTuning } from "../library-index-tuning";

export interface Statement {
  run(values?: unknown[]): { changes: number; lastInsertRowid: number };
  all(values?: unknown[]): Record<string, unknown>[];
  get(values?: unknown[]): Record<string, unknown> | null;
  finalize(): void;
}
export interface Database {
  exec(sql: string): void;
  prepare(sql: string): Statement;
  all(sql: string, values?: unknown[]): Record<string, unknown>[];
  get(sql: string, values?: unknown[]): Record<string, unknown> | null;
  run(sql: string, values?: unknown[]): { changes: number; lastInsertRowid: number };
  close(): void;
  readonly inTransaction: boolean;
}

/**
 * SQLite, loaded when an index is first opened: the module instantiates its WebAssembly as it loads, which the
 * CLI's other commands need not wait for. Rows are typed as this module reads them (the package's own types
 * describe expanded rows and bigints it never returns here).
 */
export async function openDatabase(file: string): Promise<Database> {
  // a CommonJS module: its exports are the namespace or, loaded as ESM, its default
  const loaded = (await import("node-sqlite3-wasm")) as unknown as { Database?: unknown; default?: { Database: unknown } };
  const Sqlite = (loaded.Database ?? loaded.default!.Database) as new (file: string) => Database;
  return new Sqlite(file);
}

const STALE_LOCK_MS = 10 * 60_000;

const isBusy = (error: unknown) => error instanceof Error && /database is locked|SQLITE_BUSY/i.test(error.message);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Removes a lock left by a process that died holding it: node-sqlite3-wasm locks with a directory beside the file
 * for the length of a statement or transaction, and one older than any of ours was left by a process killed mid-write.
 */
export function removeStaleLock(file: string): void {
  const lock = `${file}.lock`;
  try {
    if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
  } catch {
    // no lock
  }
}

/** An open index file, with the ways to run statements on it that wait out another process's lock, and its tuning. */
export class Connection {
  private constructor(
    readonly db: Database,
    readonly file: string,
    readonly tuning: LibraryIndexTuning,
  ) {}

  static async open(file: string, tuning: LibraryIndexTuning): Promise<Connection> {
    return new Connection(await openDatabase(file), file, tuning);
  }

  close(): void {
    this.db.close();
  }

  /**
   * Runs `run` (synchronous: no other statement of this connection comes between) in a transaction, again from
   * the start while another process holds the file, until the busy timeout.
   */
  async transaction<T>(run: () => T): Promise<T> {
    // within a search's own transaction (reading), a step runs as part of it
    if (this.db.inTransaction) return run();
    return this.retry(() => {
      this.db.exec("BEGIN");
      try {
        const result = run();
        this.db.exec("COMMIT");
        return result;
      } catch (error) {
        if (this.db.inTransaction) this.db.exec("ROLLBACK");
        throw error;
      }
    });
  }

  /**
   * Runs `run` in one read transaction, its steps (transaction()) within it: the lock is taken once, not per step
   * (a directory made and removed each time), and every step sees the same index. Held while lines are read.
   */
  async reading<T>(run: () => Promise<T>): Promise<T> {
    await this.retry(() => {
      this.db.exec("BEGIN");
      try {
        // a deferred transaction locks at its first read
        this.db.get("SELECT 1 FROM files LIMIT 1");
      } catch (error) {
        this.db.exec("ROLLBACK");
        throw error;
      }
    });
    try {
      const result = await run();
      this.db.exec("COMMIT");
      return result;
    } catch (error) {
      if (this.db.inTransaction) this.db.exec("ROLLBACK");
      throw error;
    }
  }

  async retry<T>(run: () => T): Promise<T> {
    const start = Date.now();
    for (let wait = 5; ; wait = Math.min(wait * 2, 250)) {
      try {
        return run();
      } catch (error) {
        if (!isBusy(error)) throw error;
        if (Date.now() - start >= this.tuning.busyTimeoutMs)
          throw new LibraryIndexBusyError(`the search index ${this.file} is locked by another process (an index being built?): try again when it is done`);
      }
      await sleep(wait);
    }
  }
}

/** Errors that are the index's, whichever file was being read: they end the update, never one file's part in it. */
export function isIndexError(error: unknown): boolean {
  return error instanceof LibraryIndexBusyError || error instanceof WebAssembly.RuntimeError || (error instanceof Error && error.name === "SQLite3Error");
}

/** Lets the rest of the process run (another request) between two steps of a question. */
export const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));
