"use client";

/**
 * The search as the viewer sees it: the store's query run through the core's
 * searchSession (which keeps its last result per session, so the list and
 * every graph card share one scan), or, for a session whose content is read on
 * demand, streamed through its file (search-runner.ts) into the store.
 */
import { useViewer } from "@/components/viewer/store";
import type { ViewerState } from "@/components/viewer/viewer-state";
import { searchSession, type SearchResult } from "@/lib/session";
import { useSessionMemo } from "@/components/viewer/use-session-memo";
import { streamsSearch } from "./search-runner";

/** The streamed search's hits so far, when it is for the store's query and session (search-runner.ts). */
function streamedResult(s: ViewerState): SearchResult | null {
  const stream = s.searchStream;
  return stream && stream.doc === s.doc && stream.query === s.searchQuery ? stream.result : null;
}

function resultOf(s: ViewerState): SearchResult | null {
  if (!s.doc || !s.searchQuery.trim()) return null;
  return streamsSearch(s) ? streamedResult(s) : searchSession(s.doc.session, s.searchQuery);
}

export function useSearchResult(): SearchResult | null {
  const query = useViewer((s) => s.searchQuery);
  const streams = useViewer(streamsSearch);
  const streamed = useViewer(streamedResult);
  const searched = useSessionMemo((session) => (query.trim() && !streams ? searchSession(session, query) : null), [query, streams]);
  return streams ? (query.trim() ? streamed : null) : searched;
}

/** True when the entry matches the current search. */
export function useSearchHit(id: string): boolean {
  return useViewer((s) => resultOf(s)?.entryIds.has(id) ?? false);
}

interface SegmentHits {
  count: number;
  /** the first matching entry, root to leaf */
  first: string | null;
}

const NO_HITS: SegmentHits = { count: 0, first: null };
const segmentHits = new WeakMap<SearchResult, Map<string, SegmentHits>>();

/**
 * The current search's hits among a folded segment's entries (space-separated ids), found once per search result
 * and segment: every segment card asks on every store change.
 */
function hitsIn(s: ViewerState, ids: string): SegmentHits {
  const result = resultOf(s);
  if (!result || result.entryIds.size === 0) return NO_HITS;
  let known = segmentHits.get(result);
  if (!known) segmentHits.set(result, (known = new Map()));
  let hits = known.get(ids);
  if (!hits) {
    hits = { count: 0, first: null };
    for (const id of ids.split(" ")) {
      if (!result.entryIds.has(id)) continue;
      hits.count++;
      hits.first ??= id;
    }
    known.set(ids, hits);
  }
  return hits;
}

/** The first entry of a folded segment's `ids` (root to leaf) that matches the current search; null when none does. */
export function firstHitIn(s: ViewerState, ids: readonly string[]): string | null {
  return hitsIn(s, ids.join(" ")).first;
}

/** The first entry of a folded segment (space-separated ids) that matches the current search. */
export function useSegmentFirstHit(ids: string): string | null {
  return useViewer((s) => hitsIn(s, ids).first);
}

/** How many of a folded segment's entries (space-separated ids) match the current search. */
export function useSegmentHits(ids: string): number {
  return useViewer((s) => hitsIn(s, ids).count);
}
