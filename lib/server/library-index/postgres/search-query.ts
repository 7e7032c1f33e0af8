// A search as PostgreSQL takes it: the terms as a tsquery over the words the push stored (lexemes quoted as they
// are, so PostgreSQL compares the words library-search.ts cut and cuts none itself), and the filters as SQL.
// A phrase is its words in a row (`<->`) over the positions the push stored (tsvector-text.ts); what the positions
// cannot answer is checked on the line (termsChecker): an entry whose words are held without positions, when the
// search has a phrase, and an entry whose words did not all fit, always.
import { isPrefixWord } from "@/lib/library/library-search";
import { SCHEMA } from "../../archive/archive-schema";
import type { SearchFilters } from "../library-index";
import { fitsTsvector } from "./tsvector-text";

export interface WordsQuery {
  /** the terms as a tsquery (null: no word a tsvector can hold) */
  words: string | null;
  /** every word of every term, in no order: what an entry without positions must hold to be checked */
  allWords: string | null;
  /** some term has a phrase the positions answer */
  phrases: boolean;
  /** some term has a word longer than a tsvector holds: every row found is checked on its line */
  checkAll: boolean;
}

/**
 * The terms' words as tsqueries: each term's last word a prefix when long enough. A word longer than a tsvector
 * holds is left out, its term asked as its other words in no order (and checked on the line).
 */
export function wordsQuery(terms: readonly (readonly string[])[]): WordsQuery {
  const parts = new Set<string>();
  const all = new Set<string>();
  let phrases = false;
  let checkAll = false;
  for (const term of terms) {
    // words hold letters, digits and "_" only: nothing in the quotes needs escaping
    const lexemes = term.map((word, i) => `'${word}'${i === term.length - 1 && isPrefixWord(word) ? ":*" : ""}`);
    const fits = term.map(fitsTsvector);
    lexemes.forEach((lexeme, i) => fits[i] && all.add(lexeme));
    if (fits.every(Boolean)) {
      parts.add(term.length === 1 ? lexemes[0]! : `(${lexemes.join(" <-> ")})`);
      phrases ||= term.length > 1;
    } else {
      checkAll = true;
      lexemes.forEach((lexeme, i) => fits[i] && parts.add(lexeme));
    }
  }
  const joined = (set: Set<string>) => (set.size ? [...set].join(" & ") : null);
  return { words: joined(parts), allWords: joined(all), phrases, checkAll };
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
