// What the library index keeps of a pushed file, written by the push (lib/server/archive/push-file.ts) in the
// transaction that writes its lines: per entry line its row (entry-facts.ts, as SQLite's index keeps it) and its
// words, its usage, the lines it cannot read; per file its project, header time and leaf; the facets; the usage
// sums of the file and of every file sharing an entry with it. A push stopped anywhere rolls back lines and rows
// together.
//
// On-path flags are set when the file's end is known: the entries off the path are listed apart (off_path), so
// that a moved leaf rewrites none of the entries' rows. When a file grows, its earlier rows change only if the leaf left the branch it was on (the new
// entries do not continue from the old leaf), or a new line holds an id an earlier one held: then the file's rows
// are read back and set again, as SQLite's index does (sqlite/index-file.ts).
//
// Facets and usage sums are written last, under one advisory lock for the whole archive: every push writes the
// sums of other files too (a fork's copies move to its source when the source comes), and taking that lock last
// and alone keeps two pushes from waiting on each other's rows.
import type pg from "pg";
import { entryFingerprint } from "@/lib/library/inherited-entries";
import { entrySearchText, searchWords } from "@/lib/library/library-search";
import { usageRecordOf, dayOf } from "@/lib/library/usage";
import type { SessionEntry } from "@/lib/session/types";
import { SCHEMA } from "../../archive/archive-schema";
import type { FileLine } from "../../file-lines";
import { parseLine } from "../../parse-line";
import { SummaryScanner } from "../../session-summary";
import { activePath, entryFacts, entryIdOf, isIndexedEntry, leafAfter, reusedIdMessage } from "../entry-facts";
import { factLexemes } from "./fact-lexemes";
import { writeFacets } from "./facets";
import { pairBloom } from "./pair-bloom";
import { fitsTsvector, ON_PATH } from "./search-query";
import { filesHolding, refreshUsageSums, sharingFiles, writeOwnUsageSums } from "./usage-sums";

/** PostgreSQL keeps no more than this of words in a tsvector */
const MAX_WORDS_BYTES = 1_000_000;
/** A word this long in UTF-16 units or shorter is at most 3 bytes a unit in UTF-8: within fitsTsvector's limit. */
const SURELY_FITS = 682;

/** What the archive's row of the file says before this push (push-file.ts reads it). */
export interface HeldFile {
  fileId: string;
  /** the path on its machine */
  path: string;
  /** the first line this push writes (1 when the file is new or replaced) */
  firstLine: number;
  replaced: boolean;
  leaf: string | null;
  /** whether the header was read (project and header time) by an earlier push */
  described: boolean;
  /** the file's mtime, the header time of a file without a header */
  mtimeMs: number;
  maxLine: number;
}

interface Queued {
  line: number;
  at: number;
  entryId: string | null;
  hash: number | null;
  facts: ReturnType<typeof entryFacts>;
  /**
   * the words a tsvector holds of it, joined by spaces (null: none), made as the line is read: a batch waiting to be
   * written then holds a string a row, not every word
   */
  words: string | null;
  partial: boolean;
  /** which words stand side by side (pair-bloom.ts) */
  pairs: Buffer | null;
}

/** PostgreSQL's text holds no NUL: one a line's string holds is kept as U+FFFD. */
const text = (value: string | null): string | null => (value !== null && value.includes("\0") ? value.replaceAll("\0", "\uFFFD") : value);

export class DerivedRows {
  private queued: Queued[] = [];
  private usage: unknown[][] = [];
  /** the id and content hash of each entry with usage this push read: what another file may hold a copy of */
  private readonly usageIds: string[] = [];
  private readonly usageHashes: number[] = [];
  private unreadable: [number, string, boolean][] = [];
  /** the entry ids this push read, with the line last holding each and its hash */
  private readonly ids = new Map<string, { line: number; hash: number | null }>();
  /** new lines' ids that earlier pushes' lines hold too */
  private readonly heldBefore = new Set<string>();
  /** this push's entry rows: (line, id, parent) */
  private readonly mine: { line: number; entryId: string | null; parentId: string | null }[] = [];
  private leaf: string | null = null;
  private header: { project: string; headerTime: string } | null = null;
  private readonly facets = new Set<string>();
  private formerSharers = new Set<string>();

  private constructor(
    private readonly client: pg.ClientBase,
    private readonly file: HeldFile,
  ) {}

  /** Ready for the push's lines; a replaced file's rows are dropped first. */
  static async start(client: pg.ClientBase, file: HeldFile): Promise<DerivedRows> {
    const rows = new DerivedRows(client, file);
    if (file.replaced) {
      rows.formerSharers = await sharingFiles(client, file.fileId, 1);
      for (const table of ["entries", "off_path", "usage", "unreadable"])
        await client.query(`delete from ${SCHEMA}.${table} where file_id = $1`, [file.fileId]);
    }
    return rows;
  }

  /** A complete line of the file, numbered from 1. */
  line(number: number, line: FileLine): void {
    const parsed = parseLine(line, this.file.maxLine);
    if ("blank" in parsed) return;
    if (!this.file.described && this.header === null) this.describe(line.bytes);
    if ("problem" in parsed) {
      this.unreadable.push([number, parsed.problem, false]);
      return;
    }
    const value = parsed.value;
    if (!isIndexedEntry(value)) return;
    const entryId = entryIdOf(value);
    this.leaf = leafAfter(value, entryId, this.leaf);
    const facts = entryFacts(value);
    const hash = entryId === null ? null : (entryFingerprint(value)?.hash ?? null);
    const usage = usageRecordOf(value);
    if (usage) {
      if (entryId !== null && hash !== null) {
        this.usageIds.push(text(entryId)!);
        this.usageHashes.push(hash);
      }
      const time = Number.isNaN(usage.time) ? null : usage.time;
      this.usage.push([
        number,
        time,
        dayOf(usage.time),
        text(usage.model),
        text(usage.source),
        usage.input,
        usage.output,
        usage.cacheRead,
        usage.cacheWrite,
        usage.cost,
      ]);
    }
    const all = searchWords(entrySearchText(value as SessionEntry));
    const words = fitWords(all);
    this.queued.push({
      line: number,
      at: line.offset,
      entryId,
      hash,
      facts,
      words: words.words.length ? words.words.join(" ") : null,
      partial: words.partial,
      pairs: pairBloom(all),
    });
    this.mine.push({ line: number, entryId, parentId: facts.parentId });
  }

  /** The header's project and time, from the file's first line that is not blank (as the library's summary reads it). */
  private describe(bytes: Buffer | null): void {
    const scanner = new SummaryScanner({ countBranches: false });
    if (bytes) scanner.push(new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes));
    const summary = scanner.end();
    const slash = this.file.path.indexOf("/");
    this.header = {
      project: summary.cwd ?? (slash === -1 ? "(top level)" : this.file.path.slice(0, slash)),
      headerTime: summary.timestamp ?? new Date(this.file.mtimeMs).toISOString(),
    };
  }

  /**
   * Writes the rows of the lines read since the last flush. What it writes is taken before its first wait, so the
   * next lines may be read while it writes; the next flush must wait for this one (it reads the ids this one sets).
   */
  async flush(): Promise<void> {
    const batch = this.queued;
    const usageRows = this.usage;
    const unreadable = this.unreadable;
    this.queued = [];
    this.usage = [];
    this.unreadable = [];
    if (!this.file.replaced && this.file.firstLine > 1) await this.lookUpEarlier(batch);
    const columns: unknown[][] = Array.from({ length: 12 }, () => []);
    const filters: Buffer[] = [];
    const pairLengths: number[] = [];
    for (const row of batch) {
      let echo = false;
      if (row.entryId !== null) {
        const earlier = this.ids.get(row.entryId);
        if (earlier && earlier.hash === row.hash) echo = true;
        else if (earlier) unreadable.push([row.line, reusedIdMessage(row.entryId, earlier.line), true]);
        this.ids.set(row.entryId, { line: row.line, hash: row.hash });
      }
      const { parentId, time, role, model, tools } = row.facts;
      const toolsText = tools.length ? text(tools.join(" ")) : null;

      const values: unknown[] = [row.line, row.at, text(row.entryId), text(parentId), row.hash, time, text(role), text(model), toolsText];
      // the facts' lexemes as the columns keep them (the tools split where the insert splits them)
      const facts = row.words === null ? [] : factLexemes(text(role), text(model), toolsText?.split(" ") ?? null);
      const words = row.words === null ? null : [row.words, ...(facts ?? [])].join(" ");
      values.push(echo, echo ? null : words, !echo && (row.partial || facts === null));
      values.forEach((value, i) => columns[i]!.push(value));
      // the filters go as one bytea cut by lengths (0: none), as the lines do (push-file.ts)
      const pairs = echo ? null : row.pairs;
      if (pairs) filters.push(pairs);
      pairLengths.push(pairs?.length ?? 0);
      if (role !== null) this.facets.add(`role ${role}`);
      if (model !== null) this.facets.add(`model ${model}`);
      for (const tool of tools.length ? tools.join(" ").split(" ") : []) this.facets.add(`tool ${tool}`);
    }
    if (batch.length)
      await this.client.query(
        `insert into ${SCHEMA}.entries (file_id, line, at, entry_id, parent_id, hash, time, role, model, tools, echo, words, partial, pairs)
         select $1, l, a, i, p, h, t, r, m, string_to_array(tl, ' '), ec, array_to_tsvector(string_to_array(w, ' ')), pa,
           case when pl > 0 then substr($14::bytea, (sum(pl) over (order by n) - pl + 1)::int, pl) end
         from unnest($2::int[], $3::bigint[], $4::text[], $5::text[], $6::float8[], $7::float8[], $8::text[], $9::text[], $10::text[], $11::bool[],
           $12::text[], $13::bool[], $15::int[]) with ordinality as u(l, a, i, p, h, t, r, m, tl, ec, w, pa, pl, n)`,
        [this.file.fileId, ...columns, Buffer.concat(filters), pairLengths],
      );
    if (usageRows.length) {
      const usage: unknown[][] = Array.from({ length: 10 }, (_, i) => usageRows.map((row) => row[i]));
      await this.client.query(
        `insert into ${SCHEMA}.usage (file_id, line, time, day, model, source, input, output, cache_read, cache_write, cost)
         select $1, * from unnest($2::int[], $3::float8[], $4::text[], $5::text[], $6::text[], $7::float8[], $8::float8[], $9::float8[], $10::float8[], $11::float8[])`,
        [this.file.fileId, ...usage],
      );
    }
    if (unreadable.length)
      await this.client.query(
        `insert into ${SCHEMA}.unreadable (file_id, line, message, indexed) select $1, * from unnest($2::int[], $3::text[], $4::bool[])`,
        [this.file.fileId, unreadable.map((row) => row[0]), unreadable.map((row) => text(row[1])), unreadable.map((row) => row[2])],
      );
  }

  /** The last earlier line of the file holding each id of `batch` that this push has not read yet. */
  private async lookUpEarlier(batch: readonly Queued[]): Promise<void> {
    const wanted = [...new Set(batch.flatMap((row) => (row.entryId !== null && !this.ids.has(row.entryId) ? [text(row.entryId)] : [])))];
    if (wanted.length === 0) return;
    const { rows } = await this.client.query<{ entry_id: string; line: number; hash: number | null }>(
      `select distinct on (entry_id) entry_id, line, hash from ${SCHEMA}.entries
       where file_id = $1 and entry_id = any($2::text[]) and line < $3 order by entry_id, line desc`,
      [this.file.fileId, wanted, this.file.firstLine],
    );
    for (const row of rows) {
      this.ids.set(row.entry_id, { line: row.line, hash: row.hash });
      this.heldBefore.add(row.entry_id);
    }
  }

  /** Once every line is written: the on-path flags, the file's own facts, the facets and the usage sums. */
  async finish(): Promise<void> {
    await this.flush();
    const leaf = this.leaf ?? this.file.leaf;
    if (this.mine.length) await this.markActivePath(leaf);
    const header = this.header;
    await this.client.query(`update ${SCHEMA}.files set leaf = $2, project = coalesce($3, project), header_time = coalesce($4, header_time) where id = $1`, [
      this.file.fileId,
      text(leaf),
      text(header?.project ?? null),
      text(header?.headerTime ?? null),
    ]);
    await this.client.query("select pg_advisory_xact_lock(hashtext($1))", [`${SCHEMA}.library-index`]);
    await writeFacets(this.client, [...this.facets].sort(), this.file.replaced);
    // this push's lines are every line from firstLine on: their copies are looked up by the ids read, not by its rows
    const sharers = await filesHolding(this.client, this.file.fileId, this.usageIds, this.usageHashes);
    for (const other of this.formerSharers) sharers.add(other);
    if (sharers.size === 0 && this.file.firstLine === 1) return writeOwnUsageSums(this.client, this.file.fileId);
    sharers.add(this.file.fileId);
    await refreshUsageSums(this.client, [...sharers]);
  }

  private async markActivePath(leaf: string | null): Promise<void> {
    const grown = !this.file.replaced && this.file.firstLine > 1;
    const parents = new Map<string, string | null>();
    for (const row of this.mine) if (row.entryId !== null) parents.set(row.entryId, row.parentId);
    let before: { line: number; entry_id: string | null; parent_id: string | null; on_active: boolean }[] = [];
    if (grown && !this.continuesFrom(parents, leaf)) {
      before = (
        await this.client.query<{ line: number; entry_id: string | null; parent_id: string | null; on_active: boolean }>(
          `select e.line, e.entry_id, e.parent_id, ${ON_PATH} as on_active from ${SCHEMA}.entries e where e.file_id = $1 and e.line < $2 order by e.line`,
          [this.file.fileId, this.file.firstLine],
        )
      ).rows;
      // the last line of an id counts: this push's lines come after the earlier ones
      parents.clear();
      for (const row of before) if (row.entry_id !== null) parents.set(row.entry_id, row.parent_id);
      for (const row of this.mine) if (row.entryId !== null) parents.set(row.entryId, row.parentId);
    }
    // from a leaf that continues the old one, the walk ends there: only this push's entries are in `parents`
    const onPath = activePath(parents, leaf);
    const active = (id: string | null) => id !== null && onPath.has(id);
    const on: number[] = [];
    const off: number[] = [];
    for (const row of before) if (row.on_active !== active(row.entry_id)) (row.on_active ? off : on).push(row.line);
    for (const row of this.mine) if (!active(row.entryId)) off.push(row.line);
    if (on.length) await this.client.query(`delete from ${SCHEMA}.off_path where file_id = $1 and line = any($2::int[])`, [this.file.fileId, on]);
    if (off.length) await this.client.query(`insert into ${SCHEMA}.off_path (file_id, line) select $1, * from unnest($2::int[])`, [this.file.fileId, off]);
  }

  /**
   * Whether the grown file's path runs from the new leaf through new entries alone to the old leaf, no new line
   * holding an id an earlier one held: the earlier rows' flags then stand.
   */
  private continuesFrom(parents: ReadonlyMap<string, string | null>, leaf: string | null): boolean {
    if (this.heldBefore.size > 0 || this.file.leaf === null) return false;
    const seen = new Set<string>();
    let at = leaf;
    while (at !== null && parents.has(at) && !seen.has(at)) {
      seen.add(at);
      at = parents.get(at)!;
    }
    return at === this.file.leaf;
  }
}

/** The words as a tsvector can hold them, each once; `partial` when some could not be. */
function fitWords(words: readonly string[]): { words: string[]; partial: boolean } {
  const distinct = new Set(words);
  // most entries' words fit by their lengths alone, with no word's UTF-8 measured
  let most = 0;
  let short = true;
  for (const word of distinct) {
    most += 3 * word.length;
    short &&= word.length <= SURELY_FITS;
  }
  if (short && most <= MAX_WORDS_BYTES) return { words: [...distinct], partial: false };
  const kept: string[] = [];
  let bytes = 0;
  let partial = false;
  for (const word of distinct) {
    const size = Buffer.byteLength(word, "utf8");
    if (!fitsTsvector(word) || bytes + size > MAX_WORDS_BYTES) {
      partial = true;
      continue;
    }
    bytes += size;
    kept.push(word);
  }
  return { words: kept, partial };
}
