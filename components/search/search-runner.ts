"use client";

/**
 * Searches a session whose content the page reads on demand (an upload, a
 * library file) by streaming the file's bytes through a worker
 * (lib/client/search.worker.ts): the page never holds the text it searches.
 * Its hits go to the store as they are found (searchStream). Other sessions
 * are searched in the page (searchSession), as before.
 */
import { useEffect, useMemo } from "react";
import { canStreamSearch, SearchStreamer } from "@/lib/client/search-client";
import type { SessionSource } from "@/lib/client/session-source";
import { SEARCH_LIMIT } from "@/lib/session";
import { foldCase, HitCollector } from "@/lib/session/features/search";
import { useViewer, viewer } from "@/components/viewer/store";
import type { ViewerState } from "@/components/viewer/viewer-state";
import { shareSourceOf } from "@/components/share/share-source";

/** How long typing must pause before the file is searched again. */
const TYPING_MS = 120;

/** Whether a worker can read the open session's bytes again (shareSourceOf answers where): not a share file's, nor a picked file the page no longer has. */
function rereadable(source: SessionSource | null): boolean {
  return source !== null && source.kind !== "share" && (source.kind !== "upload" || source.file !== undefined);
}

/** Whether the open session is searched by streaming its file (its content is read on demand). */
export function streamsSearch(s: ViewerState): boolean {
  return s.doc !== null && s.doc.session.tree.readsOnDemand && canStreamSearch() && rereadable(s.source);
}

/** Runs the store's query through the file whenever it or the session changes. Mounted once, by the viewer. */
export function useSearchRunner(): void {
  const doc = useViewer((s) => s.doc);
  const query = useViewer((s) => s.searchQuery);
  const source = useViewer((s) => s.source);
  const streams = useViewer(streamsSearch);
  const session = doc?.session ?? null;
  const streamer = useMemo(() => (streams && session && source ? new SearchStreamer(shareSourceOf(source)) : null), [streams, session, source]);
  useEffect(() => () => streamer?.dispose(), [streamer]);
  useEffect(() => {
    if (!streamer || !doc || !query.trim()) {
      viewer.setSearchStream(null);
      return;
    }
    const started = { query, doc, error: null };
    // nothing found yet: the list says it is searching, and no card keeps the last query's ring
    viewer.setSearchStream({ ...started, result: new HitCollector(foldCase(query.trim()), SEARCH_LIMIT).result(false, 0) });
    const labels = [...doc.session.labels()].map(([id, state]): [string, string] => [id, state.label]);
    const timer = setTimeout(
      () =>
        streamer.run(
          { query, limit: SEARCH_LIMIT, entryLines: doc.session.tree.entryLines, labels },
          (result) => viewer.setSearchStream({ ...started, result }),
          (error) => {
            const last = viewer.get().searchStream;
            if (last) viewer.setSearchStream({ ...last, error });
          },
        ),
      TYPING_MS,
    );
    return () => {
      clearTimeout(timer);
      streamer.cancel();
    };
  }, [streamer, doc, query]);
}
