"use client";

/**
 * The search as the viewer sees it: the store's query run through the core's
 * searchSession (which keeps its last result per session, so the list and
 * every graph card share one scan).
 */
import { useViewer, type ViewerState } from "@/components/viewer/store";
import { searchSession, type SearchResult } from "@/lib/session";
import { useSessionMemo } from "@/components/viewer/use-session-memo";

function resultOf(s: ViewerState): SearchResult | null {
  return s.session && s.searchQuery.trim() ? searchSession(s.session, s.searchQuery) : null;
}

export function useSearchResult(): SearchResult | null {
  const query = useViewer((s) => s.searchQuery);
  return useSessionMemo((session) => (query.trim() ? searchSession(session, query) : null), [query]);
}

/** True when the entry matches the current search. */
export function useSearchHit(id: string): boolean {
  return useViewer((s) => resultOf(s)?.entryIds.has(id) ?? false);
}

/** The first entry of `ids` (a folded segment's, root to leaf) that matches the current search; null when none does. */
export function firstHitIn(s: ViewerState, ids: readonly string[]): string | null {
  const result = resultOf(s);
  if (!result || result.entryIds.size === 0) return null;
  return ids.find((id) => result.entryIds.has(id)) ?? null;
}

/** The first entry of a folded segment (space-separated ids) that matches the current search. */
export function useSegmentFirstHit(ids: string): string | null {
  return useViewer((s) => (resultOf(s)?.entryIds.size ? firstHitIn(s, ids.split(" ")) : null));
}

const segmentCounts = new WeakMap<SearchResult, Map<string, number>>();

/** How many of a folded segment's entries (space-separated ids) match the current search. */
export function useSegmentHits(ids: string): number {
  return useViewer((s) => {
    const result = resultOf(s);
    if (!result || result.entryIds.size === 0) return 0;
    let counts = segmentCounts.get(result);
    if (!counts) segmentCounts.set(result, (counts = new Map()));
    let n = counts.get(ids);
    if (n === undefined) {
      n = 0;
      for (const id of ids.split(" ")) if (result.entryIds.has(id)) n++;
      counts.set(ids, n);
    }
    return n;
  });
}
