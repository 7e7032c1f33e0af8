// What a search over every session matches. The query is written as in a session's own search (words and
// "quoted phrases", every term needed), but a library of gigabytes is searched through a word index, so a term
// matches whole words: its words in a row, the last one as a prefix ("sess" finds "sessions", "parse line"
// finds "parse lines"). A last word shorter than MIN_PREFIX characters matches only itself: "a" as a prefix
// would be a word index's slowest question (every word starting with "a", seconds on a gigabyte library) and
// hardly anyone's meaning. A session opened at a hit searches by substring, so it finds every hit the library
// found, and more. Texts and queries are cut into words here, the same way for both, so the index only
// compares words this module made. Pure.
import { entryFields, foldCase, queryTerms } from "@/lib/session/features/search";
import type { SessionEntry } from "@/lib/session/types";
import { nestsDeeperThan } from "./json-depth";

const WORD = /[\p{L}\p{N}\p{Co}_]+/gu;

/** The words of a text, case-folded, in order. */
export function searchWords(text: string): string[] {
  return foldCase(text).match(WORD) ?? [];
}

const NOT_WORD = /[^\p{L}\p{N}\p{Co}_]+/gu;

/** searchWords(text).join(" "), made without an array of words: what the index is given per entry. */
export function searchWordsText(text: string): string {
  return foldCase(text).replace(NOT_WORD, " ").trim();
}

/** The query's terms as word lists; a term without a word ("=>") matches nothing and is left out. */
export function librarySearchTerms(query: string): string[][] {
  return queryTerms(query)
    .map(searchWords)
    .filter((words) => words.length > 0);
}

/** The fewest characters (code points) a term's last word needs to match as a prefix. */
export const MIN_PREFIX = 3;

/** Whether a term's last word matches the words it begins (else only itself). */
export function isPrefixWord(word: string): boolean {
  // code points, not UTF-16 units: an emoji or a rare CJK character is one character; six units hold at least three
  return [...word.slice(0, 2 * MIN_PREFIX)].length >= MIN_PREFIX;
}

/** Whether `words` (a text's) hold every term: its words in a row, the last as a prefix when long enough. */
export function matchesTerms(words: readonly string[], terms: readonly (readonly string[])[]): boolean {
  return terms.length > 0 && terms.every((term) => termAt(words, term) >= 0);
}

/** Where `term` first occurs in `words` (the index of its first word), or -1. */
export function termAt(words: readonly string[], term: readonly string[]): number {
  const n = term.length;
  const last = term[n - 1]!;
  const prefix = isPrefixWord(last);
  outer: for (let i = 0; i + n <= words.length; i++) {
    for (let j = 0; j < n - 1; j++) if (words[i + j] !== term[j]) continue outer;
    if (prefix ? words[i + n - 1]!.startsWith(last) : words[i + n - 1] === last) return i;
  }
  return -1;
}

/**
 * A check of entry lines (their JSON text) against terms, as matchesTerms over the entry's words says: each term
 * a pattern over the entry's case-folded text (a word is a whole run of word characters, so a term is its words at
 * run starts, whole but the last when a prefix, separated by non-word runs), which stops at its first occurrence
 * where cutting the text into words would not.
 *
 * A line whose characters do not hold a term's first word anywhere is refused without being parsed, which is exact
 * when that word is ASCII letters and "_" (toLowerCase folds into ASCII only as foldCase does) and the line escapes
 * no character as \uXXXX (JSON escapes no other word character; a tool call's arguments are searched as
 * JSON.stringify writes them, which may write a number otherwise than the line: words with digits are not looked
 * for).
 */
export function termsChecker(terms: readonly (readonly string[])[]): {
  /** whether the line holds every term */
  holds(line: string): boolean;
  /** which terms the line holds, or null when it is no entry (it changed since it was indexed) */
  each(line: string): boolean[] | null;
} {
  const patterns = terms.map(termPattern);
  const text = (line: string): string | null => {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return null;
    }
    // a line is read again as it is now: the file may have changed since it was indexed (and checked for depth)
    return typeof value === "object" && value !== null && !Array.isArray(value) && !nestsDeeperThan(value)
      ? foldCase(entrySearchText(value as SessionEntry))
      : null;
  };
  const looked = terms.map((term) => term[0]!).filter((word) => LETTERS.test(word));
  return {
    holds(line) {
      if (looked.length && !line.includes("\\u")) {
        const lower = line.toLowerCase();
        if (looked.some((word) => !lower.includes(word))) return false;
      }
      const folded = text(line);
      return folded !== null && patterns.every((pattern) => pattern.test(folded));
    },
    each(line) {
      const folded = text(line);
      return folded === null ? null : patterns.map((pattern) => pattern.test(folded));
    },
  };
}

const LETTERS = /^[a-z_]+$/;
const WORD_CHAR = "\\p{L}\\p{N}\\p{Co}_";

/** A term as a pattern over case-folded text: where termAt over its words would find it. */
function termPattern(term: readonly string[]): RegExp {
  const last = term.length - 1;
  const words = term.map((word, i) => escapeRegExp(word) + (i < last || !isPrefixWord(word) ? `(?![${WORD_CHAR}])` : ""));
  return new RegExp(`(?<![${WORD_CHAR}])${words.join(`[^${WORD_CHAR}]+`)}`, "u");
}

/** The terms as an SQLite FTS5 query over the words: each a quoted phrase whose last word is a prefix when long enough. */
export function ftsQuery(terms: readonly (readonly string[])[]): string {
  return terms.map((term) => ftsPhrase(term, isPrefixWord(term[term.length - 1]!))).join(" AND ");
}

/** Words in a row as an FTS5 phrase, the last a prefix or not. */
export function ftsPhrase(words: readonly string[], prefix: boolean): string {
  // words hold letters, digits and "_" only: nothing in them needs escaping inside the quotes
  return `"${words.join(" ")}"${prefix ? " *" : ""}`;
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
