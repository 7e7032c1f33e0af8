// A search as PostgreSQL takes it: the terms as a tsquery over the words the push stored (lexemes quoted as they
// are, so PostgreSQL compares the words library-search.ts cut and cuts none itself), and the filters as SQL.
// A tsvector made with array_to_tsvector holds no positions, so the tsquery asks for every word of every term;
// a phrase's order is then checked on the line (termsChecker), as are rows whose words did not all fit.
import { isPrefixWord } from "@/lib/library/library-search";
import { SCHEMA } from "../../archive/archive-schema";
import type { SearchFilters } from "../library-index";
import { phraseBits } from "./pair-bloom";

/**
 * The terms' words as a tsquery: every word, each term's last word a prefix when long enough. A word longer than a
 * tsvector holds is left out (null when no word is left): only rows whose words did not all fit can hold it, and
 * those are checked on their lines.
 */
export const wordsQuery = (terms: readonly (readonly string[])[]): string | null => asTsquery(wordLexemes(terms));

/** The lexemes of wordsQuery, each once; a prefix ends in `:*`. */
export function wordLexemes(terms: readonly (readonly string[])[]): string[] {
  const lexemes = new Set<string>();
  for (const term of terms)
    term.forEach((word, i) => {
      if (!fitsTsvector(word)) return;
      // words hold letters, digits and "_" only: nothing in the quotes needs escaping
      lexemes.add(`'${word}'${i === term.length - 1 && isPrefixWord(word) ? ":*" : ""}`);
    });
  return [...lexemes];
}

/** Lexemes as a tsquery that asks for all of them (null: none). */
export const asTsquery = (lexemes: readonly string[]): string | null => (lexemes.length ? lexemes.join(" & ") : null);

export const isPrefixLexeme = (lexeme: string) => lexeme.endsWith(":*");

/** PostgreSQL keeps no word longer than this (bytes) in a tsvector. */
const MAX_WORD_BYTES = 2046;

export const fitsTsvector = (word: string) => Buffer.byteLength(word, "utf8") <= MAX_WORD_BYTES;

/** Whether a row the tsquery finds must still be checked on its line: a term of several words (their order), or a word it leaves out. */
export const needsCheck = (terms: readonly (readonly string[])[]) => terms.some((term) => term.length > 1 || !term.every(fitsTsvector));

/** What entry `e`'s pair filter must say for every phrase of the terms to stand in it ("": the terms hold no phrase). */
export function pairsCondition(terms: readonly (readonly string[])[]): string {
  const bits = phraseBits(terms);
  if (bits.length === 0) return "";
  // the bits are numbers made here, not text from the query
  return ` and e.pairs is not null${bits.map((bit) => ` and get_bit(e.pairs, (${bit}::bigint & (octet_length(e.pairs)::bigint * 8 - 1))::int) = 1`).join("")}`;
}

/** Whether entry `e` lies on the path to its file's leaf. */
export const ON_PATH = `not exists (select 1 from ${SCHEMA}.off_path o where o.file_id = e.file_id and o.line = e.line)`;

/** The filters as SQL over entries `e` and files `f`, their values numbered from `$first`. */
export function filterConditions(filters: SearchFilters, first: number): { where: string; values: unknown[] } {
  const clauses: string[] = [];
  const values: unknown[] = [];
  const add = (clause: (at: string) => string, value?: unknown) => {
    if (value === undefined) return clauses.push(clause(""));
    values.push(typeof value === "string" ? value.replaceAll("\0", "\uFFFD") : value);
    clauses.push(clause(`$${first + values.length - 1}`));
  };
  if (filters.project !== undefined) add((at) => `f.project = ${at}`, filters.project);
  if (filters.from !== undefined) add((at) => `e.time >= ${at}`, filters.from);
  if (filters.to !== undefined) add((at) => `e.time < ${at}`, filters.to);
  if (filters.role !== undefined) add((at) => `e.role = ${at}`, filters.role);
  if (filters.model !== undefined) add((at) => `e.model = ${at}`, filters.model);
  if (filters.tool !== undefined) add((at) => `${at} = any(e.tools)`, filters.tool);
  if (filters.activeOnly) add(() => ON_PATH);
  if (filters.machine !== undefined) add((at) => `m.name = ${at}`, filters.machine);
  return { where: clauses.map((clause) => ` and ${clause}`).join(""), values };
}
