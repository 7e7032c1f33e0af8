// The search index over every session of a library, kept on disk under the cache directory. The engine is SQLite's
// FTS5 through node-sqlite3-wasm: SQLite compiled to WebAssembly with a file system of Node's, so the index is one
// file, installed from the npm registry alone (no native build, no prebuilt binary fetched at install time), and
// SQLite is as well kept as software gets. The words (lib/library/library-search.ts) are made here, not by FTS5,
// and the table keeps no text of its own (contentless): snippets are read from the session files.
//
// A file is indexed again only when it changed: by (path, size, mtime, inode); a file that grew is read from the
// last line it was indexed to, one that shrank or was replaced is indexed again whole.
import { mkdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { entryFingerprint } from "@/lib/library/inherited-entries";
import { entrySearchText, ftsQuery, librarySearchTerms, searchSnippet, searchWords } from "@/lib/library/library-search";
import { isObject } from "@/lib/session/json";
import type { SessionEntry } from "@/lib/session/types";
import { fileLines } from "./file-digest";
import { openSessionFile, resolveSessionPath, type ResolvedSessionFile } from "./safe-path";

interface Statement {
  run(values?: unknown[]): { changes: number; lastInsertRowid: number };
  all(values?: unknown[]): Record<string, unknown>[];
  get(values?: unknown[]): Record<string, unknown> | null;
  finalize(): void;
}
interface Database {
  exec(sql: string): void;
  prepare(sql: string): Statement;
  all(sql: string, values?: unknown[]): Record<string, unknown>[];
  get(sql: string, values?: unknown[]): Record<string, unknown> | null;
  run(sql: string, values?: unknown[]): { changes: number; lastInsertRowid: number };
  close(): void;
}

/**
 * SQLite, loaded when an index is first opened: the module instantiates its WebAssembly as it loads, which the
 * CLI's other commands need not wait for. Rows are typed as this module reads them (the package's own types
 * describe expanded rows and bigints it never returns here).
 */
async function openDatabase(file: string): Promise<Database> {
  // a CommonJS module: its exports are the namespace or, loaded as ESM, its default
  const loaded = (await import("node-sqlite3-wasm")) as unknown as { Database?: unknown; default?: { Database: unknown } };
  const Sqlite = (loaded.Database ?? loaded.default!.Database) as new (file: string) => Database;
  return new Sqlite(file);
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS files(id INTEGER PRIMARY KEY, path TEXT UNIQUE NOT NULL, size INTEGER, mtime REAL, ino INTEGER,
  indexed_to INTEGER, lines INTEGER, header_time TEXT, project TEXT, leaf TEXT);
CREATE TABLE IF NOT EXISTS entries(id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, entry_id TEXT, parent_id TEXT, hash INTEGER,
  time INTEGER, role TEXT, model TEXT, tools TEXT, off INTEGER, len INTEGER);
CREATE INDEX IF NOT EXISTS entries_file ON entries(file_id);
CREATE INDEX IF NOT EXISTS entries_copy ON entries(entry_id, hash);
CREATE TABLE IF NOT EXISTS unreadable(file_id INTEGER NOT NULL, line INTEGER, message TEXT);
CREATE VIRTUAL TABLE IF NOT EXISTS words USING fts5(body, tokenize="unicode61 remove_diacritics 0 tokenchars '_'", content='', contentless_delete=1);
`;

const STALE_LOCK_MS = 10 * 60_000;

export interface SearchFilters {
  /** the file's project (its header cwd, else its folder) */
  project?: string;
  /** entry time from (ms, inclusive) and to (ms, exclusive) */
  from?: number;
  to?: number;
  /** message role (user, assistant, toolResult, bashExecution…) or entry type (compaction, label…) */
  role?: string;
  /** a tool the entry calls or answers */
  tool?: string;
  /** "provider/model" of an assistant message */
  model?: string;
  /** only entries on the path to their session's leaf */
  activeOnly?: boolean;
}

export interface LibrarySearchHit {
  /** library path of the file the hit is shown in (the oldest holding it) */
  file: string;
  entryId: string;
  onActivePath: boolean;
  snippet: string;
  /** bm25: lower is better */
  score: number;
  /** other files holding the same entry (a fork's copies) */
  alsoIn: number;
}

export interface SearchFacets {
  models: string[];
  tools: string[];
  roles: string[];
}

export interface UnreadableLine {
  file: string;
  line: number;
  message: string;
}

export interface IndexReport {
  /** files read (whole or from where they grew) */
  indexed: number;
  /** files unchanged since they were indexed */
  unchanged: number;
  removed: number;
  entries: number;
  /** every line of the library's files that could not be read, this time or before: none is searched */
  unreadable: UnreadableLine[];
}

export interface IndexProgress {
  done: number;
  total: number;
  file: string;
}

/** The index's place for the sessions directory `dir` under `cacheRoot`. */
export function indexFileFor(cacheRoot: string, dir: string): string {
  let h = 2166136261;
  for (let i = 0; i < dir.length; i++) h = Math.imul(h ^ dir.charCodeAt(i), 16777619);
  return path.join(cacheRoot, "search", `${(h >>> 0).toString(16)}.sqlite`);
}

export class SearchIndex {
  private constructor(private readonly db: Database) {}

  /** Opens (or creates) the index file; a lock left by a process that died mid-write is removed first. */
  static async open(file: string): Promise<SearchIndex> {
    mkdirSync(path.dirname(file), { recursive: true });
    // node-sqlite3-wasm locks with a directory beside the file for the length of a statement or transaction; one
    // older than any of ours was left by a process that was killed holding it
    const lock = `${file}.lock`;
    try {
      if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
    } catch {
      // no lock
    }
    const db = await openDatabase(file);
    db.exec("PRAGMA journal_mode=DELETE; PRAGMA synchronous=NORMAL;");
    db.exec(SCHEMA);
    return new SearchIndex(db);
  }

  close(): void {
    this.db.close();
  }

  /** Brings the index up to `files` (a library's, with their projects and header times). */
  async update(
    files: readonly { resolved: ResolvedSessionFile; project: string; headerTime: string }[],
    onProgress?: (progress: IndexProgress) => void,
  ): Promise<IndexReport> {
    const report: IndexReport = { indexed: 0, unchanged: 0, removed: 0, entries: 0, unreadable: [] };
    const present = new Set(files.map((f) => f.resolved.rel));
    for (const row of this.db.all("SELECT id, path FROM files")) {
      if (!present.has(row.path as string)) {
        this.dropFile(row.id as number);
        report.removed++;
      }
    }
    for (const [i, file] of files.entries()) {
      onProgress?.({ done: i, total: files.length, file: file.resolved.rel });
      const { resolved } = file;
      const row = this.db.get("SELECT id, size, mtime, ino, indexed_to, lines FROM files WHERE path = ?", [resolved.rel]);
      if (row && row.size === resolved.size && row.mtime === resolved.mtimeMs && row.ino === resolved.ino) {
        report.unchanged++;
        continue;
      }
      let fileId: number;
      let from = 0;
      let lines = 0;
      if (row && row.ino === resolved.ino && resolved.size >= (row.indexed_to as number)) {
        fileId = row.id as number;
        from = row.indexed_to as number;
        lines = row.lines as number;
      } else {
        if (row) this.dropFile(row.id as number);
        fileId = this.db.run("INSERT INTO files(path, indexed_to, lines) VALUES (?, 0, 0)", [resolved.rel]).lastInsertRowid;
      }
      const read = await this.indexFile(fileId, resolved, from, lines, report);
      this.db.run(
        "UPDATE files SET size = ?, mtime = ?, ino = ?, indexed_to = ?, lines = ?, header_time = ?, project = ?, leaf = COALESCE(?, leaf) WHERE id = ?",
        [resolved.size, resolved.mtimeMs, resolved.ino, read.indexedTo, read.lines, file.headerTime, file.project, read.leaf, fileId],
      );
      report.indexed++;
    }
    onProgress?.({ done: files.length, total: files.length, file: "" });
    report.unreadable = this.db
      .all("SELECT f.path, u.line, u.message FROM unreadable u JOIN files f ON f.id = u.file_id ORDER BY f.path, u.line")
      .map((row) => ({ file: row.path as string, line: row.line as number, message: row.message as string }));
    return report;
  }

  private dropFile(fileId: number): void {
    this.db.exec("BEGIN");
    const del = this.db.prepare("DELETE FROM words WHERE rowid = ?");
    for (const row of this.db.all("SELECT id FROM entries WHERE file_id = ?", [fileId])) del.run([row.id]);
    del.finalize();
    this.db.run("DELETE FROM entries WHERE file_id = ?", [fileId]);
    this.db.run("DELETE FROM unreadable WHERE file_id = ?", [fileId]);
    this.db.run("DELETE FROM files WHERE id = ?", [fileId]);
    this.db.exec("COMMIT");
  }

  /** Indexes the file's complete lines from byte `from` (line number `lines` before it). */
  private async indexFile(
    fileId: number,
    resolved: ResolvedSessionFile,
    from: number,
    lines: number,
    report: IndexReport,
  ): Promise<{ indexedTo: number; lines: number; leaf: string | null }> {
    const handle = await openSessionFile(resolved);
    const insertEntry = this.db.prepare(
      "INSERT INTO entries(file_id, entry_id, parent_id, hash, time, role, model, tools, off, len) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    );
    const insertWords = this.db.prepare("INSERT INTO words(rowid, body) VALUES (?, ?)");
    const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
    let leaf: string | null = null;
    let line = lines;
    let indexedTo = from;
    const take = (bytes: Uint8Array, offset: number, complete: boolean): boolean => {
      const text = decoder.decode(bytes);
      if (!text.trim()) {
        line++;
        return true;
      }
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        // a last line without its newline may still be being written: it is read again when the file grows
        if (!complete) return false;
        line++;
        this.db.run("INSERT INTO unreadable(file_id, line, message) VALUES (?, ?, ?)", [fileId, line, error instanceof Error ? error.message : String(error)]);
        return true;
      }
      line++;
      if (!isObject(value) || value.type === "session" || (value.kind !== undefined && value.kind !== "entry")) return true;
      const fingerprint = entryFingerprint(value);
      if (value.type === "leaf") leaf = typeof value.targetId === "string" ? value.targetId : null;
      else if (fingerprint) leaf = fingerprint.id;
      const words = searchWords(entrySearchText(value as SessionEntry));
      const message = isObject(value.message) ? value.message : null;
      const role = message && typeof message.role === "string" ? message.role : typeof value.type === "string" ? value.type : null;
      const model = message?.role === "assistant" && typeof message.model === "string" ? `${String(message.provider)}/${message.model}` : null;
      const time = typeof value.timestamp === "string" ? Date.parse(value.timestamp) : typeof value.timestamp === "number" ? value.timestamp : NaN;
      const { lastInsertRowid } = insertEntry.run([
        fileId,
        fingerprint?.id ?? null,
        typeof value.parentId === "string" ? value.parentId : null,
        fingerprint?.hash ?? null,
        Number.isNaN(time) ? null : time,
        role,
        model,
        toolsOf(message),
        offset,
        bytes.length,
      ]);
      if (words.length) insertWords.run([lastInsertRowid, words.join(" ")]);
      report.entries++;
      return true;
    };
    this.db.exec("BEGIN");
    try {
      for await (const { bytes, offset, complete } of fileLines(handle, from)) {
        if (take(bytes, offset, complete)) indexedTo = offset + bytes.length + (complete ? 1 : 0);
      }
      this.db.exec("COMMIT");
    } catch (error) {
      this.db.exec("ROLLBACK");
      throw error;
    } finally {
      insertEntry.finalize();
      insertWords.finalize();
      await handle.close();
    }
    return { indexedTo, lines: line, leaf };
  }

  /**
   * Entries that hold every term of `query`, best first; an entry a fork copied (same id and content in several
   * files) is one hit, in the oldest file. `dir`: the sessions directory, where snippets are read from.
   */
  async search(query: string, filters: SearchFilters, dir: string, limit = 100): Promise<LibrarySearchHit[]> {
    return (await this.searchPage(query, filters, dir, limit)).hits;
  }

  /** The first `limit` hits and how many there are in all (copies counted once). */
  async searchPage(query: string, filters: SearchFilters, dir: string, limit = 100): Promise<{ hits: LibrarySearchHit[]; total: number }> {
    const terms = librarySearchTerms(query);
    if (terms.length === 0) return { hits: [], total: 0 };
    const where: string[] = [];
    const values: unknown[] = [];
    const and = (clause: string, value: unknown) => {
      where.push(clause);
      values.push(value);
    };
    and("words MATCH ?", ftsQuery(terms));
    if (filters.project !== undefined) and("f.project = ?", filters.project);
    if (filters.from !== undefined) and("e.time >= ?", filters.from);
    if (filters.to !== undefined) and("e.time < ?", filters.to);
    if (filters.role !== undefined) and("e.role = ?", filters.role);
    if (filters.model !== undefined) and("e.model = ?", filters.model);
    if (filters.tool !== undefined) and("(' ' || e.tools || ' ') LIKE ?", `% ${filters.tool} %`);
    const rows = this.db.all(
      `SELECT e.id, e.file_id, e.entry_id, e.hash, e.off, e.len, f.path, f.header_time, bm25(words) AS score
       FROM words JOIN entries e ON e.id = words.rowid JOIN files f ON f.id = e.file_id
       WHERE ${where.join(" AND ")} ORDER BY score, f.header_time, f.path, e.id`,
      values,
    );
    // a copy is the same entry in several files: shown once, in the oldest
    const seen = new Map<string, LibrarySearchHit>();
    const hits: LibrarySearchHit[] = [];
    const lineOf = new Map<LibrarySearchHit, { off: number; len: number }>();
    const active = new Map<number, Set<string>>();
    for (const row of rows) {
      const fileId = row.file_id as number;
      const entryId = (row.entry_id as string | null) ?? `line@${row.off as number}`;
      let onPath = active.get(fileId);
      if (!onPath) active.set(fileId, (onPath = this.activePath(fileId)));
      const onActivePath = onPath.has(entryId);
      if (filters.activeOnly && !onActivePath) continue;
      const key = row.entry_id === null ? `${fileId} ${row.off as number}` : `${entryId} ${row.hash as number}`;
      const first = seen.get(key);
      if (first) {
        first.alsoIn++;
        continue;
      }
      const hit: LibrarySearchHit = { file: row.path as string, entryId, onActivePath, snippet: "", score: row.score as number, alsoIn: 0 };
      seen.set(key, hit);
      hits.push(hit);
      lineOf.set(hit, { off: row.off as number, len: row.len as number });
    }
    const shown = hits.slice(0, limit);
    for (const hit of shown) {
      const line = lineOf.get(hit)!;
      hit.snippet = await snippetAt(dir, hit.file, line.off, line.len, terms);
    }
    return { hits: shown, total: hits.length };
  }

  /** What the filters can be set to: the models, tools and roles the index holds, sorted. */
  facets(): SearchFacets {
    const column = (sql: string) => this.db.all(sql).map((row) => row.v as string);
    const tools = new Set(column("SELECT DISTINCT tools AS v FROM entries WHERE tools IS NOT NULL").flatMap((t) => t.split(" ")));
    return {
      models: column("SELECT DISTINCT model AS v FROM entries WHERE model IS NOT NULL ORDER BY v"),
      tools: [...tools].sort(),
      roles: column("SELECT DISTINCT role AS v FROM entries WHERE role IS NOT NULL ORDER BY v"),
    };
  }

  /** The entries on the path from the file's leaf to its root. */
  private activePath(fileId: number): Set<string> {
    const leaf = this.db.get("SELECT leaf FROM files WHERE id = ?", [fileId])?.leaf as string | null;
    const parents = new Map<string, string | null>();
    for (const row of this.db.all("SELECT entry_id, parent_id FROM entries WHERE file_id = ? AND entry_id IS NOT NULL", [fileId]))
      parents.set(row.entry_id as string, row.parent_id as string | null);
    const out = new Set<string>();
    for (let at = leaf; at !== null && at !== undefined && parents.has(at) && !out.has(at); at = parents.get(at)!) out.add(at);
    return out;
  }
}

function toolsOf(message: Record<string, unknown> | null): string | null {
  if (!message) return null;
  if (message.role === "toolResult" && typeof message.toolName === "string") return message.toolName;
  if (message.role === "bashExecution") return "bash";
  if (message.role !== "assistant" || !Array.isArray(message.content)) return null;
  const names = message.content.flatMap((block) => (isObject(block) && block.type === "toolCall" && typeof block.name === "string" ? [block.name] : []));
  return names.length ? names.join(" ") : null;
}

async function snippetAt(dir: string, rel: string, offset: number, length: number, terms: readonly (readonly string[])[]): Promise<string> {
  try {
    const resolved = await resolveSessionPath(dir, rel);
    const handle = await openSessionFile(resolved);
    try {
      const buffer = Buffer.alloc(length);
      await handle.read(buffer, 0, length, offset);
      const entry = JSON.parse(new TextDecoder().decode(buffer)) as SessionEntry;
      return searchSnippet(entrySearchText(entry), terms);
    } finally {
      await handle.close();
    }
  } catch {
    return ""; // the file changed since it was indexed: the hit stands, without its words
  }
}
