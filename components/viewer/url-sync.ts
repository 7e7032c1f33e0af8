"use client";

// Keeps the address bar in step with the store (session, selected entry, tab), so a reload or a shared
// link restores the view. replaceState: moving around a session does not pile up history entries.
import { useEffect } from "react";
import { useViewer } from "./store";
import { sameSession, viewSearch } from "./view-params";

export function useUrlSync(): void {
  const source = useViewer((s) => s.source);
  const phase = useViewer((s) => s.load.phase);
  const selectedId = useViewer((s) => s.selectedId);
  const tab = useViewer((s) => s.tab);

  useEffect(() => {
    if (!source) return;
    const current = window.location.search;
    let next: string;
    if (phase === "ready") next = viewSearch(source, selectedId, tab);
    else if (sameSession(current, viewSearch(source, null, null))) return; // keep the deep link until it can be applied
    else next = viewSearch(source, null, null);
    if (next !== current) window.history.replaceState(null, "", `${window.location.pathname}${next}`);
  }, [source, phase, selectedId, tab]);
}
