// The library index's tables in the archive, beside its lines: what the push derives from each entry line
// (derived-rows.ts), in the transaction that writes the line, so the index is never behind or ahead of the lines.
// A row holds what a row of SQLite's index holds (sqlite/schema.ts), keyed by the line it comes from (its on-path
// flag apart, in off_path); the words are a tsvector made from searchWords' words (array_to_tsvector), so
// PostgreSQL compares only words this project cut. Like the lines, a line's rows name their file without a foreign
// key (archive-schema.ts).

/**
 * The entries' seq by ranges of pages: rows are written in seq order, so a few pages of summaries tell which pages
 * hold a range of seq, and a search meets its words' bitmap with a wide range at no cost (entries_seq read 600,000
 * rows to say the same, or the planner walked them).
 */
export const ENTRIES_SEQ_RANGES = (schema: string) => `create index entries_seq_ranges on ${schema}.entries using brin (seq) with (autosummarize = on);`;

/** The tables, in the archive's schema `schema`. */
export function libraryIndexTables(schema: string): string {
  return `
-- the order entries were pushed in: a capped search shows the newest (what was pushed last) first
create sequence ${schema}.entry_seq;
create table ${schema}.entries (
  file_id bigint not null,
  line int not null,
  seq bigint not null default nextval('${schema}.entry_seq'),
  -- where the line starts in the file: an entry without an id is named by it (line@AT)
  at bigint not null,
  entry_id text,
  parent_id text,
  -- entryFingerprint's content hash: a fork's copy of an entry has its id and hash
  hash double precision,
  time double precision,
  role text,
  model text,
  tools text[],
  -- the line repeats an earlier line of its file (same id and content): its usage counts, it has no words
  echo boolean not null default false,
  -- the words, and the role, model and tools as lexemes a word cannot be (fact-lexemes.ts); null: no words
  words tsvector,
  -- the words did not all fit a tsvector (a word over its length limit, or too many), or the facts' lexemes did not:
  -- a search reads the line
  partial boolean not null default false,
  -- which words stand side by side, as a Bloom filter (pair-bloom.ts): a phrase reads only the lines it may be on
  pairs bytea,
  primary key (file_id, line)
);
create index entries_words on ${schema}.entries using gin (words);
create index entries_partial on ${schema}.entries (seq) where partial;
create index entries_seq on ${schema}.entries (seq);
${ENTRIES_SEQ_RANGES(schema)}
create index entries_copy on ${schema}.entries (entry_id, hash);
-- the entries not on the path to their file's leaf (most are on it): kept apart from the entries, whose rows a
-- moved leaf would otherwise rewrite, words and all
create table ${schema}.off_path (
  file_id bigint not null,
  line int not null,
  primary key (file_id, line)
);
create table ${schema}.usage (
  file_id bigint not null,
  line int not null,
  time double precision,
  day text not null,
  model text not null,
  source text not null,
  input double precision not null,
  output double precision not null,
  cache_read double precision not null,
  cache_write double precision not null,
  cost double precision not null,
  primary key (file_id, line)
);
-- what each file counts by day and model, and (counted false) what it copied from an older file
create table ${schema}.usage_sums (
  file_id bigint not null references ${schema}.files (id) on delete cascade,
  day text not null,
  model text not null,
  counted boolean not null,
  input double precision not null,
  output double precision not null,
  cache_read double precision not null,
  cache_write double precision not null,
  cost double precision not null,
  calls int not null
);
create index usage_sums_file on ${schema}.usage_sums (file_id);
-- the lines a search cannot find, and why; indexed: read all the same, suspect (an id used again)
create table ${schema}.unreadable (
  file_id bigint not null,
  line int not null,
  message text not null,
  indexed boolean not null default false
);
create index unreadable_file on ${schema}.unreadable (file_id);
-- the values the filters can take
create table ${schema}.facets (
  kind text not null,
  value text not null,
  primary key (kind, value)
);
`;
}
