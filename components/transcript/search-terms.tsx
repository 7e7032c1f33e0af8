"use client";

/**
 * The search box's terms, for what the inspector draws: an output or a block of code that holds a hit where its
 * fold hides it opens (useFold's `reveal`), and the hits in its lines are marked.
 */
import { createContext, useContext, useMemo, type ReactNode } from "react";
import { foldCase, queryTerms } from "@/lib/session/features/search";

export const NO_TERMS: readonly string[] = [];
const Terms = createContext<readonly string[]>(NO_TERMS);

export function SearchTermsProvider({ query, children }: { query: string; children?: ReactNode }) {
  const terms = useMemo(() => (query.trim() ? queryTerms(query) : NO_TERMS), [query]);
  return <Terms.Provider value={terms}>{children}</Terms.Provider>;
}

/** The search's terms, case-folded (queryTerms); none when nothing is searched. */
export function useSearchTerms(): readonly string[] {
  return useContext(Terms);
}

/** A piece of text with each occurrence of `terms` marked (a function, not a component: it runs for every token). */
export function marked(text: string, terms: readonly string[]): ReactNode {
  if (!terms.length || !text) return text;
  const pieces = markPieces(text, terms);
  if (pieces.length === 1 && !pieces[0]!.hit) return text;
  return pieces.map((piece, i) =>
    piece.hit ? (
      <mark key={i} data-search-hit className="rounded-[2px] bg-yellow-200 text-inherit dark:bg-yellow-400/30">
        {piece.text}
      </mark>
    ) : (
      piece.text
    ),
  );
}

/** `text` cut where the terms occur (case-folded; overlapping or touching occurrences one piece), in order. */
export function markPieces(text: string, terms: readonly string[]): { text: string; hit: boolean }[] {
  const lower = foldCase(text);
  const ranges: [number, number][] = [];
  for (const term of terms) for (let at = lower.indexOf(term); at >= 0; at = lower.indexOf(term, at + term.length)) ranges.push([at, at + term.length]);
  if (!ranges.length) return [{ text, hit: false }];
  ranges.sort((a, b) => a[0] - b[0]);
  const pieces: { text: string; hit: boolean }[] = [];
  let cursor = 0;
  for (const [from, to] of ranges) {
    if (to <= cursor) continue;
    const last = pieces.at(-1);
    if (from <= cursor && last?.hit)
      last.text += text.slice(cursor, to); // touching or overlapping: one mark
    else {
      if (from > cursor) pieces.push({ text: text.slice(cursor, from), hit: false });
      pieces.push({ text: text.slice(Math.max(from, cursor), to), hit: true });
    }
    cursor = to;
  }
  if (cursor < text.length) pieces.push({ text: text.slice(cursor), hit: false });
  return pieces;
}
