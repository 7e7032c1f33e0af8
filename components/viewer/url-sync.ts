"use client";

// Keeps the address bar in step with the store (session, selected entry, tab), so a reload or a shared
// link restores the view. replaceState: moving around a session does not pile up history entries.
import { useEffect } from "react";
import { useViewerHost } from "./host";
import { compareA, compareB, sessionOf, useViewer, viewer } from "./store";
import {
  readCompareParam,
  readContextParams,
  readFindParams,
  sameSession,
  viewHref,
  viewLocation,
  viewSearch,
  readReadingParams,
  withContextParams,
  withFindParams,
  withReadingParams,
} from "./view-params";

export function useUrlSync(): void {
  const inFragment = useViewerHost() === "share";
  const source = useViewer((s) => s.source);
  const phase = useViewer((s) => s.load.phase);
  const selectedId = useViewer((s) => s.selectedId);
  const tab = useViewer((s) => s.tab);
  const session = useViewer(sessionOf);
  const compareId = useViewer(compareB);
  const compareBaseId = useViewer(compareA);
  const searchQuery = useViewer((s) => s.searchQuery);
  const treeFilter = useViewer((s) => s.treeFilter);
  const contextView = useViewer((s) => s.contextView);
  const compactionSettings = useViewer((s) => s.compactionSettings);
  const reading = useViewer((s) => s.reading);

  // a deep-linked search and filter (q=, filter=, hideTypes=, hideRoles=) apply once their session is ready
  useEffect(() => {
    if (phase !== "ready" || !session) return;
    const { query, filter } = readFindParams(new URLSearchParams(viewLocation(inFragment, window.location)));
    if (query) viewer.setSearchQuery(query);
    if (filter.mode || filter.hiddenTypes.size || filter.hiddenRoles.size) viewer.setTreeFilter(filter);
    const measure = readContextParams(new URLSearchParams(viewLocation(inFragment, window.location)));
    viewer.setContextView(measure.contextView);
    viewer.setCompactionSettings(measure.settings);
    viewer.setReading(readReadingParams(new URLSearchParams(viewLocation(inFragment, window.location))));
  }, [phase, session, inFragment]);

  // a deep-linked comparison (entry=A&compare=B) opens once its session is ready; runs before the URL is rewritten below
  useEffect(() => {
    if (phase !== "ready" || !session) return;
    const wanted = readCompareParam(new URLSearchParams(viewLocation(inFragment, window.location)));
    if (wanted && session.tree.get(wanted) && viewer.get().selectedId !== null && compareB(viewer.get()) === null) viewer.setCompare(wanted);
  }, [phase, session, inFragment]);

  useEffect(() => {
    if (!source) return;
    const current = viewLocation(inFragment, window.location);
    let next: string;
    if (phase === "ready") next = compareId ? viewSearch(source, compareBaseId ?? selectedId, tab, compareId) : viewSearch(source, selectedId, tab);
    else if (sameSession(current, viewSearch(source, null, null)))
      return; // keep the deep link until it can be applied
    else next = viewSearch(source, null, null);
    if (phase === "ready") next = withReadingParams(withContextParams(withFindParams(next, searchQuery, treeFilter), contextView, compactionSettings), reading);
    if (next !== current) window.history.replaceState(null, "", viewHref(inFragment, window.location, next));
  }, [source, phase, selectedId, tab, compareId, compareBaseId, searchQuery, treeFilter, contextView, compactionSettings, reading, inFragment]);
}
