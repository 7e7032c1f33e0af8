"use client";

// Asks GET /api/search as the query is typed (a pause first, the previous request dropped); the lines the index
// could not read come with the answer (GET /api/search/status).
import { useEffect, useState } from "react";
import type { SearchFacets, UnreadableLine } from "@/lib/library/search-api";
import { fetchSearchStatus as fetchStatus } from "./search-status";
import { isSearchable, searchApiUrl, type ContentHit, type ContentSearch } from "./content-search";

const TYPING_PAUSE_MS = 250;

export type ContentSearchResult =
  | { state: "idle" }
  | { state: "searching"; previous: { hits: ContentHit[]; total: number; capped: boolean } | null }
  | { state: "done"; hits: ContentHit[]; total: number; capped: boolean; unreadable: UnreadableLine[] }
  | { state: "failed"; error: string };

export function useContentSearch(search: ContentSearch | null, limit: number): ContentSearchResult {
  const [result, setResult] = useState<ContentSearchResult>({ state: "idle" });
  const url = search && isSearchable(search) ? searchApiUrl(search, limit) : null;

  useEffect(() => {
    if (!url) return;
    const abort = new AbortController();
    const start = setTimeout(async () => {
      setResult((r) => ({ state: "searching", previous: r.state === "done" ? { hits: r.hits, total: r.total, capped: r.capped } : null }));
      try {
        const response = await fetch(url, { signal: abort.signal });
        const body: unknown = await response.json();
        if (!response.ok) throw new Error((body as { error?: string }).error ?? `the search failed (HTTP ${response.status})`);
        const hits = body as ContentHit[];
        const total = Number(response.headers.get("x-search-total") ?? hits.length);
        // past the hits the index ranks, the total counts those only: "500+"
        const capped = response.headers.get("x-search-capped") === "1";
        const status = await fetchStatus(abort.signal);
        if (!abort.signal.aborted) setResult({ state: "done", hits, total, capped, unreadable: status?.unreadable ?? [] });
      } catch (error) {
        if (abort.signal.aborted) return;
        setResult({ state: "failed", error: error instanceof Error ? error.message : String(error) });
      }
    }, TYPING_PAUSE_MS);
    return () => {
      abort.abort();
      clearTimeout(start);
    };
  }, [url]);

  // nothing asked: whatever an earlier query found is not this one's answer
  return url ? result : IDLE;
}

const IDLE: ContentSearchResult = { state: "idle" };

/** The models, tools and roles to offer in the filters, once the index has them. */
export function useSearchFacets(enabled: boolean): SearchFacets | null {
  const [facets, setFacets] = useState<SearchFacets | null>(null);
  useEffect(() => {
    if (!enabled || facets) return;
    const abort = new AbortController();
    fetch("/api/search/facets", { signal: abort.signal })
      .then((response) => (response.ok ? (response.json() as Promise<SearchFacets>) : null))
      .then((json) => json && setFacets(json))
      .catch(() => {}); // the filters offer what they know without it
    return () => abort.abort();
  }, [enabled, facets]);
  return facets;
}
