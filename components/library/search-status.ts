"use client";

// How far the server's library index has come (GET /api/search/status): a first index of a large library takes a
// while, and the search box and the usage page both wait on it.
import { useEffect, useState } from "react";
import type { IndexProgress, SearchStatus } from "@/lib/library/search-api";

export const PROGRESS_EVERY_MS = 400;

export async function fetchSearchStatus(signal: AbortSignal): Promise<SearchStatus | null> {
  try {
    const response = await fetch("/api/search/status", { signal });
    return response.ok ? ((await response.json()) as SearchStatus) : null;
  } catch {
    return null; // the progress line waits for the next poll
  }
}

/** The index update under way, read again and again while `waiting`. */
export function useIndexProgress(waiting: boolean): IndexProgress | null {
  const [progress, setProgress] = useState<IndexProgress | null>(null);
  useEffect(() => {
    if (!waiting) return;
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout>;
    const poll = () => {
      timer = setTimeout(async () => {
        const status = await fetchSearchStatus(abort.signal);
        if (abort.signal.aborted) return;
        setProgress(status?.progress ?? null);
        poll();
      }, PROGRESS_EVERY_MS);
    };
    poll();
    return () => {
      abort.abort();
      clearTimeout(timer);
    };
  }, [waiting]);
  return waiting ? progress : null;
}
