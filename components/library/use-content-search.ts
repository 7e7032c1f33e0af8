"use client";

// Asks GET /api/search as the query is typed (a pause first, the previous request dropped), and while the server
// brings its index up to date (a first index of a large library takes a while) reads how far it has come.
import { useEffect, useState } from "react";
import type { IndexProgress, SearchFacets, UnreadableLine } from "@/lib/library/search-api";
import { fetchSearchStatus as fetchStatus, PROGRESS_EVERY_MS } from "./search-status";
import { isSearchable, searchApiUrl, type ContentHit, type ContentSearch } from "./content-search";

const TYPING_PAUSE_MS = 250;

export type ContentSearchResult =
  | { state: "idle" }
  | { state: "searching"; progress: IndexProgress | null; previous: { hits: ContentHit[]; total: number; capped: boolean } | null }
  | { state: "done"; hits: ContentHit[]; total: number; capped: boolean; unreadable: UnreadableLine[] }
  | { state: "failed"; error: string };

export function useContentSearch(search: ContentSearch | null, limit: number): ContentSearchResult {
  const [result, setResult] = useState<ContentSearchResult>({ state: "idle" });
  const url = search && isSearchable(search) ? searchApiUrl(search, limit) : null;

  useEffect(() => {
    if (!url) return;
    const abort = new AbortController();
    let progressTimer: ReturnType<typeof setTimeout> | undefined;
    const pollProgress = () => {
      progressTimer = setTimeout(async () => {
        const status = await fetchStatus(abort.signal);
        if (abort.signal.aborted) return;
        setResult((r) => (r.state === "searching" ? { ...r, progress: status?.progress ?? r.progress } : r));
        pollProgress();
      }, PROGRESS_EVERY_MS);
    };
    const start = setTimeout(async () => {
      setResult((r) => ({ state: "searching", progress: null, previous: r.state === "done" ? { hits: r.hits, total: r.total, capped: r.capped } : null }));
      pollProgress();
      try {
        const response = await fetch(url, { signal: abort.signal });
        const body: unknown = await response.json();
        if (!response.ok) throw new Error((body as { error?: string }).error ?? `the search failed (HTTP ${response.status})`);
        const hits = body as ContentHit[];
        const total = Number(response.headers.get("x-search-total") ?? hits.length);
        // past the hits the index ranks, the total counts those only: "500+"
        const capped = response.headers.get("x-search-capped") === "1";
        clearTimeout(progressTimer);
        const status = await fetchStatus(abort.signal);
        if (!abort.signal.aborted) setResult({ state: "done", hits, total, capped, unreadable: status?.unreadable ?? [] });
      } catch (error) {
        if (abort.signal.aborted) return;
        setResult({ state: "failed", error: error instanceof Error ? error.message : String(error) });
      } finally {
        clearTimeout(progressTimer);
      }
    }, TYPING_PAUSE_MS);
    return () => {
      abort.abort();
      clearTimeout(start);
      clearTimeout(progressTimer);
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
