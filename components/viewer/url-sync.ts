"use client";

// Keeps the address bar in step with the store (session, selected entry, tab), so a reload or a shared
// link restores the view. replaceState: moving around a session does not pile up history entries. And the
// store in step with the address bar when it changes under the page: Back and Forward, or a link to the open
// share file with another #entry= (the page is not loaded again for a new fragment).
import { useEffect } from "react";
import { useViewerHost } from "./host";
import { compareA, compareB, sessionOf, useViewer, viewer } from "./store";
import { urlView } from "./url-view";
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

  useEffect(() => {
    const follow = () => {
      const state = viewer.get();
      const session = sessionOf(state);
      if (state.load.phase !== "ready" || !session || !state.source) return;
      const search = viewLocation(inFragment, window.location);
      // another session's URL (Back out of the viewer, or to another file): the page that shows it takes over
      if (!sameSession(search, viewSearch(state.source, null, null))) return;
      viewer.followUrl(urlView(search, session, state.share));
    };
    // a new fragment fires both in some browsers: the second finds the store already showing it
    window.addEventListener("popstate", follow);
    window.addEventListener("hashchange", follow);
    return () => {
      window.removeEventListener("popstate", follow);
      window.removeEventListener("hashchange", follow);
    };
  }, [inFragment]);

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
