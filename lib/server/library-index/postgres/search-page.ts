// A search's page from the archive, answered as SQLite's index answers it (../sqlite/search-page.ts): every hit
// ranked when a query has at most `rankedHits` (LibraryIndexTuning) of them or `limit` is Infinity; past the cap
// the page is capped: the newest hits (pushed last), newest first, score 0, `total` the entries among the newest
// `rankedHits` hits. A copy of an entry is one hit, in the oldest file holding it that passes the filters
// (older-copy.ts). The ranking is PostgreSQL's ts_rank over the words (negated: lower is better, as bm25 reads),
// not FTS5's bm25: a ranked page holds the same hits, in an order of its own. Snippets are cut from the archive's
// lines, so a hit's `file` is `<machine>/<path>`; every question of one search reads one snapshot.
import type pg from "pg";
import { librarySearchTerms, termsChecker } from "@/lib/library/library-search";
import { SCHEMA } from "../../archive/archive-schema";
import { hitSnippet, page, type Found, type LocatedHit } from "../hit-page";
import type { SearchFilters, SearchPage } from "../library-index";
import type { LibraryIndexTuning } from "../library-index-tuning";
import { filterLexemes } from "./fact-lexemes";
import { OLDEST_FIRST, relOf } from "./older-copy";
import { asTsquery, filterConditions, isPrefixLexeme, needsCheck, ON_PATH, pairsCondition, wordLexemes, wordsQuery } from "./search-query";

type TermsChecker = ReturnType<typeof termsChecker>;

/**
 * A search's words and its filters' lexemes as a tsquery (null: no word a tsvector holds), whether every row found
 * is checked on its line, and the condition on its pairs.
 */
interface WordsQuery {
  words: string | null;
  checkAll: boolean;
  pairs: string;
}

/** Rows picked per step when each must be checked on its line. */
const CHECKED_CHUNK = 1000;

const FROM = `from ${SCHEMA}.entries e join ${SCHEMA}.files f on f.id = e.file_id join ${SCHEMA}.machines m on m.id = f.machine_id`;

interface HitRow {
  file_id: string;
  line: number;
  seq: string;
  entry_id: string | null;
  hash: number | null;
  at: string;
  on_active: boolean;
  role: string | null;
  time: number | null;
  header_time: string;
  path: string;
  bytes: Buffer | null;
}

/** Where a shown hit's line is in the archive, by its path and offset as the page names it. */
type Lines = Map<string, { fileId: string; line: number }>;
const place = (path: string, off: number) => `${path}\n${off}`;

export async function searchPage(pool: pg.Pool, query: string, filters: SearchFilters, limit: number, tuning: LibraryIndexTuning): Promise<SearchPage> {
  if (limit !== Infinity && !(Number.isInteger(limit) && limit > 0)) throw new RangeError(`a search's limit is a whole number above 0, not ${limit}`);
  const terms = librarySearchTerms(query);
  if (terms.length === 0) return { hits: [], total: 0, capped: false };
  const cap = Math.max(tuning.rankedHits, limit);
  const client = await pool.connect();
  try {
    await client.query("begin isolation level repeatable read read only");
    // past work_mem a common word's bitmap of rows turns lossy by page, and every row of such a page has its
    // words read again: kept exact, a project's common word went from 168 to 94 ms. And a common word's hits are
    // visited by two processes, which PostgreSQL's default costs kept to one (`api:*` 66-72 ms alone, 49-55 shared).
    await client.query(
      "select set_config('work_mem', '64MB', true), set_config('parallel_setup_cost', '100', true), set_config('parallel_tuple_cost', '0.01', true)",
    );
    const filter = filterConditions(filters, 3);
    const lines: Lines = new Map();
    const hits = await findHits(client, terms, filters, filter, Number.isFinite(limit) ? cap + 1 : Infinity, tuning);
    for (const row of hits) lines.set(place(row.path, Number(row.at)), { fileId: row.file_id, line: row.line });
    let found: Found;
    if (hits.length > cap) {
      found = page(
        hits.slice(0, cap).map((row) => asPageRow(row, 0)),
        limit,
        true,
      );
      await oldestCopies(client, found.shown, filter, lines);
    } else {
      const ranks = await ranksOf(client, hits, terms);
      const ranked = hits.map((row, i) => asPageRow(row, -ranks[i]!)).sort(byRank);
      found = page(ranked, limit, false);
      await countCopies(client, found.shown, filter);
    }
    const texts = await lineTexts(client, found.shown, lines);
    for (const [i, located] of found.shown.entries()) located.hit.snippet = hitSnippet(texts[i] ?? null, terms);
    await client.query("commit");
    return { hits: found.shown.map((located) => located.hit), total: found.total, capped: found.capped };
  } catch (error) {
    await client.query("rollback").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * The rows holding every term that pass the filters, newest first, up to `want` of them, picked one of two ways: a
 * walk back over the newest entries, which finds a common word's newest hits at once, or the hits read through
 * the words' index (those among the newest entries first when they are many), the newest kept. The planner makes
 * that choice itself, but takes the hits as spread evenly over the entries: a project's or a session's words
 * cluster where its files were pushed, and its walk back to an older cluster read every newer entry. So the choice is made here. Words the planner expects in few entries
 * (`indexedHits`) are read through the index. Otherwise the newest `probedEntries` are walked, and what they held
 * says how far the walk would go for the rest: it goes on if that is less than reading every hit (twice the
 * entries: a hit read through the index costs about two entries walked). A project or machine filter names its
 * files, which may lie anywhere among the entries: the walk, if it reads less, goes back over the files' own last
 * entries, newest file first (walkFiles); the index of each file's rows narrows the words' otherwise. Rows
 * found on words alone (a phrase's words whose pairs the row's filter may hold, or a word too long for the index)
 * count once their lines hold the terms.
 */
async function findHits(
  client: pg.ClientBase,
  terms: readonly (readonly string[])[],
  filters: SearchFilters,
  filter: { where: string; values: unknown[] },
  want: number,
  tuning: LibraryIndexTuning,
): Promise<HitRow[]> {
  const checker = termsChecker(terms);
  const files = await filesOf(client, filters);
  const estimate = (words: string | null) =>
    expectedRows(client, `e.words @@ $1::tsquery${files ? " and e.file_id = any($2::bigint[])" : ""}`, files ? [words, files] : [words]);
  const checkAll = needsCheck(terms);
  const lexemes = checkAll ? await lighterWords(terms, estimate) : wordLexemes(terms);
  // the words alone, for estimates asked with the filters' own conditions (their lexemes would count twice)
  const plain = asTsquery(lexemes);
  const query: WordsQuery = { words: lexemes.length ? asTsquery([...lexemes, ...filterLexemes(filters)]) : null, checkAll, pairs: pairsCondition(terms) };
  // with the files named, their project and machine are not asked again: joined to each row, the planner walked
  // every entry of the files instead of meeting the words' index with the index of each file's rows
  const rest = filterConditions({ ...filters, project: undefined, machine: undefined }, 3);
  const narrowed = files ? { where: `${rest.where} and e.file_id = any($${3 + rest.values.length}::bigint[])`, values: [...rest.values, files] } : filter;
  const hits: HitRow[] = [];
  let picks = 0;
  // a row checked on its line may not hold: rows are picked until `want` hold. Picking again costs more than
  // picking too many: read through the index, every row the words find is visited again, where a row picked too
  // many costs its line read. So a checked search picks twice what it wants at first (a phrase's pair filter lets by
  // rows of common words that do not hold it), then half again what the share of rows that held says it needs.
  const gather = async (path: Path, chunk: number, from: string | null = null, before: string | null = null) => {
    while (hits.length < want) {
      const left = want - hits.length;
      const needed = !query.checkAll ? left : picks === 0 ? 2 * left : hits.length === 0 ? chunk : Math.ceil((1.5 * left * picks) / hits.length);
      const picked = await pickHits(client, query, checker, narrowed, { from, before, path, limit: Math.min(chunk, needed) });
      hits.push(...picked.hits);
      picks += picked.picked;
      if (picked.last === null) return;
      before = picked.last;
    }
  };
  // rows whose lines are read are picked a chunk at a time, so that no more are read than `want` need
  const chunk = query.checkAll ? CHECKED_CHUNK : Infinity;
  const words = await estimate(query.words);
  // read through the index, the newest first: the words' bitmap met with a range of the newest entries', only rows in
  // both are visited (every hit of `"git status"`: 13,044 rows on 12,054 pages; its newest 1,000: 1,298 pages), then
  // the rest if the range held too few. The range is sized by what the newest entries walked held (or a sample,
  // where they held none), else by the rarest word's estimate (the planner takes words as independent: `git` and
  // `status` together in 427 rows). Where it would span much of the entries, all is read at once: each read builds
  // the words' bitmap again.
  const gatherNewest = async (before: string | null, probed?: number) => {
    if (want === Infinity || query.words === null) return gather("indexed", chunk, null, before);
    const { rows } = await client.query<{ low: string | null; high: string | null }>(
      `select (select seq from ${SCHEMA}.entries order by seq limit 1) as low, (select seq from ${SCHEMA}.entries order by seq desc limit 1) as high`,
    );
    if (rows[0]!.low === null) return;
    const low = Number(rows[0]!.low);
    const high = before === null ? Number(rows[0]!.high) + 1 : Number(before);
    let span = probed ?? (2 * (want - hits.length) * (high - low)) / Math.max(await rarest(client, lexemes, filter), 1);
    let sampled = false;
    // the newest entries held too few hits to tell where the rest are: where reading them all would visit several
    // times the rows a sample of the pages reads, the sample tells, and its range is read however wide it is
    // (entries_seq_ranges meets any range at little cost). Not for a phrase: the sample would count rows whose
    // lines are yet to be read, most of which do not hold it.
    const sampledRows = ((high - low) * tuning.sampledPercent) / 100;
    const sample = probed !== undefined && before !== null && !query.checkAll && words > SAMPLE_PAYS * sampledRows;
    if (sample && !(span <= RANGED_SHARE * (high - low))) {
      span = await sampledSpan(client, query, filter, before, want, tuning.sampledPercent);
      sampled = true;
    }
    if (!(high - span > low) || (!sampled && span > RANGED_SHARE * (high - low))) return gather("indexed", chunk, null, before);
    const from = String(Math.ceil(high - span));
    await gather("ranged", chunk, from, String(high));
    if (hits.length < want) await gather("indexed", chunk, null, from);
  };
  if (want === Infinity || words <= tuning.indexedHits) {
    await gatherNewest(null);
    return hits;
  }
  if (files && !query.checkAll) {
    // the newest entries tell nothing of a project's files: their own last entries do
    const named = await newestFirst(client, files);
    const entries = Math.max(
      named.reduce((sum, file) => sum + file.lines, 0),
      1,
    );
    if ((want * entries) / words < 2 * words) {
      const walked = await walkFiles(client, query, checker, rest, named, want, words / entries);
      if (walked) return walked;
    }
    await gatherNewest(null);
    return hits;
  }
  const probed = tuning.probedEntries;
  const { rows } = await client.query<{ seq: string }>(`select seq from ${SCHEMA}.entries order by seq desc offset ${probed - 1} limit 1`);
  const floor = rows[0]?.seq ?? null;
  await gather("walk", chunk, floor);
  if (floor === null || hits.length >= want) return hits;
  let walk = Infinity;
  if (hits.length > 0) walk = ((want - hits.length) * probed) / hits.length;
  else if (filter.where !== "" && !query.checkAll) {
    // no hit among the newest, and a filter that may rule out the newest entries themselves (dates above all): the
    // walk is judged by how many entries hold the words and pass the filters. Without a filter the words are not
    // spread evenly: the planner expects a walk's words to fill the newest entries, and a walk back to where they
    // are would read every newer entry (`api`: 627,000 entries for 501 hits). Of a search checked on its lines the
    // planner knows the words, not the phrase: it is read through the index.
    const all = await expectedRows(client, "true", []);
    const found = await filteredRows(client, plain, filter);
    walk = (want * all) / Math.max(found, 1);
  }
  if (walk < 2 * words) await gather("walk", chunk, null, floor);
  else await gatherNewest(floor, 1.5 * walk);
  return hits;
}

/**
 * How far back from `before` the newest `want` hits lie, by a sample of the entries' pages (Infinity: too few hits
 * there to tell). For words whose hits cluster where the newest entries hold none (`api`: 60,984 hits in an early
 * project's files), the newest entries tell nothing, and reading every hit to keep the newest visited them all.
 */
async function sampledSpan(
  client: pg.ClientBase,
  query: WordsQuery,
  filter: { where: string; values: unknown[] },
  before: string,
  want: number,
  percent: number,
): Promise<number> {
  const { rows } = await client.query<{ seq: string }>(
    `select e.seq from ${SCHEMA}.entries e tablesample system (${percent}) repeatable (0)
     where (${FOUND})${query.pairs} and e.seq < $2::bigint${filter.where} order by e.seq desc`,
    [query.words, before, ...filter.values],
  );
  // above any seq the sample holds about `percent` of the hits: the span holds half again the hits wanted
  const at = Math.ceil((1.5 * want * percent) / 100);
  return rows.length < at ? Infinity : Number(before) - Number(rows[at - 1]!.seq);
}

/** The largest share of the entries a range of the newest may span, but a sampled one. */
const RANGED_SHARE = 0.25;

/** How many times the rows a sample reads the hits must be for the sample to pay. */
const SAMPLE_PAYS = 4;

/**
 * The fewest rows the planner expects of any one of the words passing the filters: it takes words as independent,
 * and no fewer rows hold them all.
 */
async function rarest(client: pg.ClientBase, lexemes: readonly string[], filter: { where: string; values: unknown[] }): Promise<number> {
  let fewest = Infinity;
  for (const lexeme of lexemes) fewest = Math.min(fewest, await filteredRows(client, lexeme, filter));
  return fewest;
}

/** How many rows the planner expects to hold `words` and pass the filters (numbered from $3, as a pick's are). */
const filteredRows = (client: pg.ClientBase, words: string | null, filter: { where: string; values: unknown[] }) =>
  expectedRows(client, `e.words @@ $1::tsquery and $2::bigint is null${filter.where}`, [words, null, ...filter.values]);

/** A visit to a row found costs about as much as this many rows of a prefix's bitmap (measured: 2-3 µs against 0.17). */
const VISIT_PER_PREFIX_ROW = 15;

/**
 * The word lexemes a search checked on its lines picks its rows by: its words, but for a prefix whose bitmap costs
 * more than the rows it rules out. A prefix's rows are all gathered into a bitmap, never skipped as a word's are: `the:*`
 * (nearly every entry) took 111 ms where `vovari` alone found 2,558 rows, of which it ruled out 239; the lines
 * (and the pair filter before them) tell a row that does not hold the phrase all the same.
 */
async function lighterWords(terms: readonly (readonly string[])[], estimate: (words: string | null) => Promise<number>): Promise<string[]> {
  let lexemes = wordLexemes(terms);
  for (const prefix of lexemes.filter(isPrefixLexeme)) {
    const rest = lexemes.filter((lexeme) => lexeme !== prefix);
    if (rest.length === 0) continue;
    const own = await estimate(prefix);
    if (own > VISIT_PER_PREFIX_ROW * ((await estimate(asTsquery(rest))) - (await estimate(asTsquery(lexemes))))) lexemes = rest;
  }
  return lexemes;
}

/** The files a project or machine filter allows (null: no such filter). */
async function filesOf(client: pg.ClientBase, filters: SearchFilters): Promise<string[] | null> {
  if (filters.project === undefined && filters.machine === undefined) return null;
  const { where, values } = filterConditions({ project: filters.project, machine: filters.machine }, 1);
  const { rows } = await client.query<{ id: string }>(
    `select f.id from ${SCHEMA}.files f join ${SCHEMA}.machines m on m.id = f.machine_id where true${where}`,
    values,
  );
  return rows.map((row) => row.id);
}

/** How many rows the planner expects of the entries (joined to their files and machines) where `where` holds. */
async function expectedRows(client: pg.ClientBase, where: string, values: unknown[]): Promise<number> {
  const { rows } = await client.query<{ "QUERY PLAN": [{ Plan: { "Plan Rows": number } }] }>(`explain (format json) select 1 ${FROM} where ${where}`, values);
  return rows[0]!["QUERY PLAN"][0].Plan["Plan Rows"];
}

/**
 * How rows are picked: a walk back over entries_seq; every hit read through the words' index (the seq hidden
 * from the planner as `e.seq + 0`, which would otherwise take entries_seq for the range and read every row in it);
 * or the hits in a range of seq, the words' bitmap met with the range's (the order hidden, not the range).
 */
type Path = "walk" | "indexed" | "ranged";

interface Range {
  /** the rows from this seq on, and before that one */
  from: string | null;
  before: string | null;
  path: Path;
  limit: number;
}

/**
 * The rows of `range` the query finds, newest first, those a tsvector cannot answer for checked on their lines;
 * `last`: the seq of the last row picked when `range.limit` were (more may follow).
 */
async function pickHits(
  client: pg.ClientBase,
  query: WordsQuery,
  checker: TermsChecker,
  filter: { where: string; values: unknown[] },
  range: Range,
): Promise<{ hits: HitRow[]; picked: number; last: string | null }> {
  const from = `$${3 + filter.values.length}::bigint`;
  const limit = Number.isFinite(range.limit) ? ` limit ${range.limit}` : "";
  const values = [query.words, range.before, ...filter.values, range.from];
  let picked: string;
  if (range.path === "ranged") {
    // an `or` of the words and partial rows is one bitmap the range's cannot meet: the two are picked apart
    const rest = `e.seq >= ${from} and e.seq < $2::bigint${query.pairs}${filter.where}`;
    picked = `select x.file_id, x.line, x.seq from (
       select e.file_id, e.line, e.seq from ${SCHEMA}.entries e where e.words @@ $1::tsquery and ${rest}
       union all
       select e.file_id, e.line, e.seq from ${SCHEMA}.entries e where e.partial and (e.words @@ $1::tsquery) is not true and ${rest}
     ) x order by x.seq + 0 desc${limit}`;
  } else {
    const seq = range.path === "walk" ? "e.seq" : "e.seq + 0";
    picked = `select e.file_id, e.line, e.seq from ${SCHEMA}.entries e
     where (${FOUND})${query.pairs} and ($2::bigint is null or ${seq} < $2::bigint)${filter.where} and (${from} is null or ${seq} >= ${from})
     order by ${seq} desc${limit}`;
  }
  const { hits, rows } = await hitsOf(client, query, checker, picked, values);
  return { hits, picked: rows.length, last: rows.length === range.limit ? rows.at(-1)!.seq : null };
}

/** What a row must hold to be picked: the words, or words that did not all fit (checked on the line). */
const FOUND = "e.words @@ $1::tsquery or e.partial";

/**
 * The rows `picked` names (a query of entries' file_id, line and seq, its values `values`), with what a hit shows,
 * newest first; `hits`: those that hold, the rows a tsvector cannot answer for checked on their lines. The rows are
 * picked first, on what picks them alone: their lines are read for those taken, not for every entry holding a
 * common word before the newest are kept.
 */
async function hitsOf(
  client: pg.ClientBase,
  query: WordsQuery,
  checker: TermsChecker,
  picked: string,
  values: unknown[],
): Promise<{ hits: HitRow[]; rows: HitRow[] }> {
  const checked = `${query.checkAll} or e.partial`;
  const { rows } = await client.query<HitRow>(
    `with picked as (${picked})
     select e.file_id, e.line, e.seq, e.entry_id, e.hash, e.at, ${ON_PATH} as on_active, e.role, e.time, f.header_time, ${relOf("m", "f")} as path,
       case when ${checked} then (select l.bytes from ${SCHEMA}.lines l where l.file_id = e.file_id and l.line = e.line) end as bytes
     from picked p join ${SCHEMA}.entries e on e.file_id = p.file_id and e.line = p.line
       join ${SCHEMA}.files f on f.id = e.file_id join ${SCHEMA}.machines m on m.id = f.machine_id
     order by p.seq desc`,
    values,
  );
  return { hits: rows.filter((row) => row.bytes === null || checker.holds(row.bytes.toString("utf8"))), rows };
}

interface NamedFile {
  id: string;
  /** its lines: about as many entries */
  lines: number;
  /** the seq of its last line's entry, the newest of its entries (null: none) */
  last: string | null;
}

/** The files, newest entries first. */
async function newestFirst(client: pg.ClientBase, files: readonly string[]): Promise<NamedFile[]> {
  const { rows } = await client.query<NamedFile>(
    `select f.id, f.line_count as lines, (select e.seq from ${SCHEMA}.entries e where e.file_id = f.id order by e.line desc limit 1) as last
     from ${SCHEMA}.files f where f.id = any($1::bigint[]) order by last desc nulls last`,
    [files],
  );
  return rows;
}

/**
 * The newest `want` hits in `files` (newest first, from newestFirst), each file's entries walked back from its
 * last, a batch of files at a time: as many as `rate` (hits per entry) says hold what is still wanted. A file's
 * entries are numbered in the order its lines were written, so its newest hits are its last; files are walked on
 * while one may hold a hit newer than the `want`th found. Null when a row picked did not hold on its line (a word
 * too long for the index): the walk then cannot tell it took each file's newest, and the caller reads the index.
 */
async function walkFiles(
  client: pg.ClientBase,
  query: WordsQuery,
  checker: TermsChecker,
  filter: { where: string; values: unknown[] },
  files: readonly NamedFile[],
  want: number,
  rate: number,
): Promise<HitRow[] | null> {
  let hits: HitRow[] = [];
  let next = 0;
  const newerThan = (file: NamedFile | undefined, seq: number) => file !== undefined && file.last !== null && Number(file.last) > seq;
  for (;;) {
    const floor = hits.length >= want ? Number(hits[want - 1]!.seq) : -1;
    if (!newerThan(files[next], floor)) return hits;
    const batch: string[] = [];
    let expected = 0;
    while (newerThan(files[next], floor) && (batch.length === 0 || expected < want - hits.length)) {
      expected += files[next]!.lines * rate;
      batch.push(files[next++]!.id);
    }
    const ids = `$${3 + filter.values.length}::bigint[]`;
    const found = await hitsOf(
      client,
      query,
      checker,
      `select x.file_id, x.line, x.seq from unnest(${ids}) as f(id) cross join lateral (
         select e.file_id, e.line, e.seq from ${SCHEMA}.entries e
         where e.file_id = f.id and (${FOUND}) and e.seq > $2::bigint${filter.where}
         order by e.line desc limit ${want}
       ) x`,
      [query.words, floor, ...filter.values, batch],
    );
    if (found.hits.length < found.rows.length) return null;
    hits = [...hits, ...found.hits].sort((a, b) => Number(b.seq) - Number(a.seq)).slice(0, want);
  }
}

/**
 * Each hit's rank, in the order of `hits`. Read apart from the hits, for a page that ranks them: a capped page
 * does not, and reading a tsvector to rank it cost a common word's 501 newest hits about a fifth of their time.
 */
async function ranksOf(client: pg.ClientBase, hits: readonly HitRow[], terms: readonly (readonly string[])[]): Promise<number[]> {
  const words = wordsQuery(terms);
  if (hits.length === 0 || words === null) return hits.map(() => 0);
  const { rows } = await client.query<{ file_id: string; line: number; rank: number }>(
    `select e.file_id, e.line, ts_rank(e.words, $1::tsquery) as rank
     from ${SCHEMA}.entries e join unnest($2::bigint[], $3::int[]) as u(file_id, line) on e.file_id = u.file_id and e.line = u.line
     where e.words is not null`,
    [words, hits.map((row) => row.file_id), hits.map((row) => row.line)],
  );
  const ranks = new Map(rows.map((row) => [`${row.file_id} ${row.line}`, row.rank]));
  return hits.map((row) => ranks.get(`${row.file_id} ${row.line}`) ?? 0);
}

/** A row as hit-page.ts takes it. */
function asPageRow(row: HitRow, score: number): Record<string, unknown> {
  return {
    entry_id: row.entry_id,
    hash: row.hash,
    file_id: row.file_id,
    off: Number(row.at),
    len: 0,
    line: row.line,
    path: row.path,
    header_time: row.header_time,
    on_active: row.on_active ? 1 : 0,
    role: row.role,
    time: row.time,
    score,
  };
}

/** Best first, then the oldest file, then file order. */
function byRank(a: Record<string, unknown>, b: Record<string, unknown>): number {
  const text = (x: unknown, y: unknown) => ((x as string) < (y as string) ? -1 : (x as string) > (y as string) ? 1 : 0);
  return (a.score as number) - (b.score as number) || text(a.header_time, b.header_time) || text(a.path, b.path) || (a.line as number) - (b.line as number);
}

/** The keys of the hits that have copies (an entry with an id), as arrays for unnest. */
function keysOf(shown: readonly LocatedHit[]): [string[], number[]] {
  const keyed = shown.flatMap((located) => (located.key && located.key.hash !== null ? [located.key] : []));
  return [keyed.map((key) => key.entryId), keyed.map((key) => key.hash!)];
}

const keyOf = (entryId: string, hash: number) => `${entryId}\n${hash}`;

/** Counts the rows holding each hit's entry that pass the filters, but its own. */
async function countCopies(client: pg.ClientBase, shown: readonly LocatedHit[], filter: { where: string; values: unknown[] }): Promise<void> {
  const [ids, hashes] = keysOf(shown);
  if (ids.length === 0) return;
  const { rows } = await client.query<{ entry_id: string; hash: number; n: number }>(
    `select e.entry_id, e.hash, count(*)::int as n ${FROM} join unnest($1::text[], $2::float8[]) as k(id, hash) on e.entry_id = k.id and e.hash = k.hash
     where true${filter.where} group by 1, 2`,
    [ids, hashes, ...filter.values],
  );
  const counts = new Map(rows.map((row) => [keyOf(row.entry_id, row.hash), row.n]));
  for (const located of shown)
    if (located.key && located.key.hash !== null) located.hit.alsoIn = Math.max(0, (counts.get(keyOf(located.key.entryId, located.key.hash)) ?? 1) - 1);
}

/** Shows each hit in the oldest file holding its entry that passes the filters, counting the others. */
async function oldestCopies(client: pg.ClientBase, shown: readonly LocatedHit[], filter: { where: string; values: unknown[] }, lines: Lines): Promise<void> {
  const [ids, hashes] = keysOf(shown);
  if (ids.length === 0) return;
  const { rows } = await client.query<{
    entry_id: string;
    hash: number;
    file_id: string;
    line: number;
    at: string;
    on_active: boolean;
    path: string;
    n: number;
  }>(
    `select distinct on (e.entry_id, e.hash) e.entry_id, e.hash, e.file_id, e.line, e.at, ${ON_PATH} as on_active, ${relOf("m", "f")} as path,
       (count(*) over (partition by e.entry_id, e.hash))::int as n
     ${FROM} join unnest($1::text[], $2::float8[]) as k(id, hash) on e.entry_id = k.id and e.hash = k.hash
     where true${filter.where} order by e.entry_id, e.hash, ${OLDEST_FIRST("f", "m")}, e.line`,
    [ids, hashes, ...filter.values],
  );
  const oldest = new Map(rows.map((row) => [keyOf(row.entry_id, row.hash), row]));
  for (const located of shown) {
    const first = located.key && located.key.hash !== null ? oldest.get(keyOf(located.key.entryId, located.key.hash)) : undefined;
    if (!first) continue;
    located.hit.file = first.path;
    located.hit.onActivePath = first.on_active;
    located.hit.alsoIn = first.n - 1;
    located.path = first.path;
    located.off = Number(first.at);
    lines.set(place(first.path, located.off), { fileId: first.file_id, line: first.line });
  }
}

/** The shown hits' lines, as text. */
async function lineTexts(client: pg.ClientBase, shown: readonly LocatedHit[], lines: Lines): Promise<(string | null)[]> {
  const at = shown.map((located) => lines.get(place(located.path, located.off))!);
  if (at.length === 0) return [];
  const { rows } = await client.query<{ file_id: string; line: number; bytes: Buffer }>(
    `select l.file_id, l.line, l.bytes from ${SCHEMA}.lines l join unnest($1::bigint[], $2::int[]) as u(file_id, line) on l.file_id = u.file_id and l.line = u.line`,
    [at.map((where) => where.fileId), at.map((where) => where.line)],
  );
  const texts = new Map(rows.map((row) => [`${row.file_id} ${row.line}`, row.bytes.toString("utf8")]));
  return at.map((where) => texts.get(`${where.fileId} ${where.line}`) ?? null);
}
