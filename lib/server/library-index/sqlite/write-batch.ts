// The write transactions of an update, and what it keeps up as it writes: the facets, the late indexes of a first
// index, the usage sums of the files it touched.
import type { LibraryIndexTuning } from "../library-index-tuning";
import { breathe, type Database, type Statement } from "./database";
import type { EntryRow } from "./entry-row";
import { cacheSize, LATE_INDEXES } from "./schema";
import { refreshUsageSums, sharingFiles } from "./usage-store";

export const INSERT_UNREADABLE = "INSERT INTO unreadable(file_id, line, message, indexed) VALUES (?, ?, ?, ?)";

/**
 * The write transactions of one update: `batchEntries` (LibraryIndexTuning) entries each, then a commit and a new transaction. Entry
 * ids are handed out here (words and row go in under the same id, the row later). A first index does not wait for
 * the disk (synchronous=OFF): a process that dies is still rolled back by the journal, and only a machine losing
 * power mid-index can damage the file, which openIndexFile (schema.ts) then makes anew.
 */
export class WriteBatch {
  /** entries in the open transaction */
  entries = 0;
  private next = 0;
  private readonly statements = new Map<string, Statement>();
  /** facet values written in this update */
  private readonly facets = new Set<string>();
  /** a file's entries were dropped: the facets are counted again at the end */
  dropped = false;
  /** files read or dropped, or sharing entries with a dropped one: their usage sums are made again at the end */
  readonly touched = new Set<number>();

  constructor(
    private readonly db: Database,
    private readonly retry: (run: () => void) => Promise<void>,
    private readonly bulk: boolean,
    private readonly tuning: Pick<LibraryIndexTuning, "batchEntries" | "cacheKiB" | "bulkCacheKiB">,
  ) {}

  async begin(): Promise<void> {
    if (this.bulk) this.db.exec(`PRAGMA synchronous=OFF; PRAGMA cache_size=${cacheSize(this.tuning.bulkCacheKiB)};`);
    await this.retry(() => this.db.exec("BEGIN IMMEDIATE"));
    // a first index looks no copy up (CopyKeys keeps them in memory) and searches nothing: the indexes on copies
    // and times are made once, at the end (openIndexFile makes them again after a crash)
    if (this.bulk) this.db.exec("DROP INDEX IF EXISTS entries_copy; DROP INDEX IF EXISTS entries_time;");
    // AUTOINCREMENT: an id is never handed out twice, even after its entry was dropped, so rowids keep to time
    this.next = ((this.db.get("SELECT seq FROM sqlite_sequence WHERE name = 'entries'")?.seq as number | undefined) ?? 0) + 1;
  }

  get full(): boolean {
    return this.entries >= this.tuning.batchEntries;
  }

  nextId(): number {
    this.entries++;
    return this.next++;
  }

  run(sql: string, values: unknown[]): void {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.db.prepare(sql)));
    statement.run(values);
  }

  insertWords(id: number, body: Uint8Array): void {
    this.run("INSERT INTO words(rowid, body) VALUES (?, ?)", [id, body]);
  }

  insertEntry(entry: EntryRow, active: boolean): void {
    this.run(
      "INSERT INTO entries(id, file_id, entry_id, parent_id, hash, time, role, model, tools, off, len, echo, on_active) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      [...entry.values, active ? 1 : 0],
    );
    const [role, model, tools] = entry.values.slice(6, 9) as [string | null, string | null, string | null];
    if (role !== null) this.facet("role", role);
    if (model !== null) this.facet("model", model);
    if (tools !== null) for (const tool of tools.split(" ")) this.facet("tool", tool);
  }

  private facet(kind: string, value: string): void {
    const key = `${kind} ${value}`;
    if (this.facets.has(key)) return;
    this.facets.add(key);
    this.run("INSERT OR IGNORE INTO facets(kind, value) VALUES (?, ?)", [kind, value]);
  }

  /** The facets from every entry: a dropped file may have held a model no other does. */
  private countFacets(): void {
    this.db.exec("DELETE FROM facets");
    for (const [kind, column] of [
      ["role", "role"],
      ["model", "model"],
      ["tool", "tools"],
    ] as const) {
      const values = this.db.all(`SELECT DISTINCT ${column} AS v FROM entries WHERE ${column} IS NOT NULL`).flatMap((row) => (row.v as string).split(" "));
      for (const value of new Set(values)) this.run("INSERT OR IGNORE INTO facets(kind, value) VALUES (?, ?)", [kind, value]);
    }
  }

  async commit(): Promise<void> {
    this.db.exec("COMMIT");
    this.entries = 0;
    await this.begin();
  }

  async end(): Promise<void> {
    if (this.bulk) {
      // one index at a time, the process's other work between them
      for (const index of LATE_INDEXES.split(";").filter((sql) => sql.trim())) {
        this.db.exec(index);
        await breathe();
      }
    }
    if (this.dropped) this.countFacets();
    // with the copies' index in place: whether an entry is a copy is looked up per entry with usage; a first index
    // touched every file, and needs not ask which others share their entries
    refreshUsageSums(this.db, this.bulk ? this.touched : sharingFiles(this.db, this.touched));
    this.db.exec("COMMIT");
    this.close();
  }

  abort(): void {
    if (this.db.inTransaction) this.db.exec("ROLLBACK");
    this.close();
  }

  private close(): void {
    for (const statement of this.statements.values()) statement.finalize();
    this.statements.clear();
    if (this.bulk) this.db.exec(`PRAGMA synchronous=NORMAL; PRAGMA cache_size=${cacheSize(this.tuning.cacheKiB)};`);
  }
}
