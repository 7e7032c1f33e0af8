// What a search over every session matches. The query is written as in a session's own search (words and
// "quoted phrases", every term needed), but a library of gigabytes is searched through a word index, so a term
// matches whole words: its words in a row, the last one as a prefix ("sess" finds "sessions", "parse line"
// finds "parse lines"). A session opened at a hit searches by substring, so it finds every hit the library
// found, and more. Texts and queries are cut into words here, the same way for both, so the index only
// compares words this module made. Pure.
import { entryFields, foldCase, queryTerms } from "@/lib/session/features/search";
import type { SessionEntry } from "@/lib/session/types";

const WORD = /[\p{L}\p{N}\p{Co}_]+/gu;

/** The words of a text, case-folded, in order. */
export function searchWords(text: string): string[] {
  return foldCase(text).match(WORD) ?? [];
}

/** The query's terms as word lists; a term without a word ("=>") matches nothing and is left out. */
export function librarySearchTerms(query: string): string[][] {
  return queryTerms(query)
    .map(searchWords)
    .filter((words) => words.length > 0);
}

/** Whether `words` (a text's) hold every term: its words in a row, the last as a prefix. */
export function matchesTerms(words: readonly string[], terms: readonly (readonly string[])[]): boolean {
  return terms.length > 0 && terms.every((term) => termAt(words, term) >= 0);
}

/** Where `term` first occurs in `words` (the index of its first word), or -1. */
export function termAt(words: readonly string[], term: readonly string[]): number {
  const n = term.length;
  outer: for (let i = 0; i + n <= words.length; i++) {
    for (let j = 0; j < n - 1; j++) if (words[i + j] !== term[j]) continue outer;
    if (words[i + n - 1]!.startsWith(term[n - 1]!)) return i;
  }
  return -1;
}

/** The terms as an SQLite FTS5 query over the words: each a quoted phrase whose last word is a prefix. */
export function ftsQuery(terms: readonly (readonly string[])[]): string {
  // words hold letters, digits and "_" only: nothing in them needs escaping inside the quotes
  return terms.map((term) => `"${term.join(" ")}" *`).join(" AND ");
}

/** What an entry is found by: its searchable fields (the session search's), one per line. */
export function entrySearchText(entry: SessionEntry): string {
  return entryFields(entry)
    .map(([, text]) => text)
    .filter((text) => text.trim())
    .join("\n");
}

const CONTEXT = 60;

/** A line of text around the first place a term occurs, whitespace collapsed; the text's start when none does. */
export function searchSnippet(text: string, terms: readonly (readonly string[])[]): string {
  const lower = foldCase(text);
  let at = -1;
  for (const term of terms) {
    // the term's first word, at a word start: where the index's match begins
    const pattern = new RegExp(`(?<![\\p{L}\\p{N}\\p{Co}_])${escapeRegExp(term[0]!)}`, "u");
    const found = pattern.exec(lower);
    if (found && (at < 0 || found.index < at)) at = found.index;
  }
  const from = Math.max(0, at - CONTEXT);
  const to = Math.min(text.length, Math.max(at, 0) + CONTEXT * 2);
  return (from > 0 ? "…" : "") + text.slice(from, to).replace(/\s+/g, " ").trim() + (to < text.length ? "…" : "");
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
