"use client";

/**
 * The viewer's state, in one place. Components read slices with `useViewer`
 * and change it only through `viewer.*` actions; the URL mirrors the parts a
 * deep link needs (file, entry, tab) — see url-sync.ts.
 *
 * The open document is a snapshot, `doc`: the Session (the parsed file and its
 * index, held by reference, never copied) with the revision it had. A live tail
 * grows the same Session in place, so the store replaces `doc` when it grows:
 * anything keyed on `doc` recomputes, and nothing needs to watch a counter.
 */
import { useSyncExternalStore } from "react";
import type { Session } from "@/lib/session";
import { PI_COMPACTION_DEFAULTS, READING_DEFAULTS, type ReadingToggles, type ViewCompactionSettings } from "./view-params";
import { NO_FILTER, type TreeFilter } from "@/lib/layout/tree-filter";
import type { InspectorTab, ShareManifest } from "@/lib/share/manifest";
import type { LiveStatus } from "@/lib/client/live-tail";
import type { SessionSource } from "@/lib/client/session-source";
import { urlViewChanges, type UrlView } from "./url-view";
import type { SearchStream, ViewerFamily, ViewerState } from "./viewer-state";

export type { InspectorTab };

const initial: ViewerState = {
  source: null,
  live: "off",
  follow: false,
  doc: null,
  fileName: null,
  share: null,
  load: { phase: "idle", done: 0, total: 0, error: null },
  diagnosticsRevision: 0,
  selectedId: null,
  tab: "entry",
  expandedSegments: new Set(),
  collapsed: new Set(),
  historyStep: null,
  contextOverlay: true,
  contextView: "messages",
  reading: READING_DEFAULTS,
  compactionSettings: PI_COMPACTION_DEFAULTS,
  firstKeptPreview: null,
  searchQuery: "",
  treeFilter: NO_FILTER,
  statsScope: "session",
  compare: null,
  contentReads: { pending: 0, error: null },
  searchStream: null,
  family: null,
};

let state: ViewerState = initial;
const listeners = new Set<() => void>();

function set(patch: Partial<ViewerState>): void {
  state = { ...state, ...patch };
  for (const listener of listeners) listener();
}

function toggle(set_: ReadonlySet<string>, key: string): Set<string> {
  const next = new Set(set_);
  if (next.has(key)) next.delete(key);
  else next.add(key);
  return next;
}

/** The library path of the open file, whether the library is the sessions directory or the bundled samples. */
export function libraryPathOf(source: SessionSource | null): string | null {
  return source?.kind === "server" || source?.kind === "sample" ? source.path : null;
}

/** Whether the graph marks `id` as copied from the fork's source. */
export const isInherited = (s: ViewerState, id: string): boolean => s.family?.inherited.has(id) ?? false;

export const viewer = {
  get: (): ViewerState => state,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  reset(): void {
    set(initial);
  },
  startLoading(source: SessionSource, fileName: string, total: number): void {
    // follow and how the Context tab measures are the user's choices; they outlive a reload of the file (the live tail
    // reloads a replaced file)
    const kept = { follow: state.follow, contextView: state.contextView, reading: state.reading, compactionSettings: state.compactionSettings };
    set({ ...initial, ...kept, source, fileName, load: { phase: "loading", done: 0, total, error: null } });
  },
  /** The session comes from a share file: its manifest names the file and says what was done to it. */
  shareOpened(share: ShareManifest): void {
    set({ share, fileName: share.fileName, load: { ...state.load, total: share.bytes } });
  },
  progress(done: number, total: number): void {
    set({ load: { ...state.load, done, total } });
  },
  failLoading(error: string): void {
    set({ load: { ...state.load, phase: "error", error } });
  },
  /** A parsed session is ready; select `entryId` (deep link) if it exists, else the leaf. */
  sessionReady(session: Session, entryId: string | null = null): void {
    const selectedId = entryId && session.tree.get(entryId) ? entryId : session.leafId;
    set({ doc: { session, revision: 1 }, load: { ...state.load, phase: "ready", done: state.load.total }, selectedId });
  },
  /** Content is being read from the file for what is shown; call what this returns when it is read, or failed. */
  readingContent(): (error?: unknown) => void {
    const session = state.doc?.session;
    set({ contentReads: { pending: state.contentReads.pending + 1, error: null } });
    let finished = false;
    return (error?: unknown) => {
      // another session was opened meanwhile: its count started again
      if (finished || state.doc?.session !== session) return;
      finished = true;
      const message = error === undefined ? null : error instanceof Error ? error.message : String(error);
      set({ contentReads: { pending: Math.max(0, state.contentReads.pending - 1), error: message ?? state.contentReads.error } });
    };
  },
  /** The server's answer about the library file `path`'s family; dropped when another file is open by then. */
  familyLoaded(path: string, family: ViewerFamily): void {
    if (libraryPathOf(state.source) === path) set({ family });
  },
  setSearchStream(stream: SearchStream | null): void {
    if (stream !== state.searchStream) set({ searchStream: stream });
  },
  /** The session grew (live tail); when following, a leaf that moved is selected. */
  sessionChanged(leafMoved = false): void {
    if (!state.doc) return;
    const doc = { session: state.doc.session, revision: state.doc.revision + 1 };
    const leafId = doc.session.leafId;
    set(state.follow && leafMoved && leafId !== null ? { doc, selectedId: leafId } : { doc });
  },
  /** The session's diagnostics changed, not its entries (Session.acceptSchema). */
  diagnosticsChanged(): void {
    set({ diagnosticsRevision: state.diagnosticsRevision + 1 });
  },
  setLive(live: LiveStatus): void {
    if (live !== state.live) set({ live });
  },
  /** Follow the leaf; turning it on selects the current leaf at once. */
  setFollow(follow: boolean): void {
    const leafId = follow ? (state.doc?.session.leafId ?? null) : null;
    set(follow && leafId !== null ? { follow, selectedId: leafId } : { follow });
  },
  select(id: string | null): void {
    if (id === state.selectedId) return;
    // choosing another entry than the leaf stops following: the next line written would take it away again
    const stopFollowing = state.follow && id !== (state.doc?.session.leafId ?? null);
    set(stopFollowing ? { selectedId: id, follow: false } : { selectedId: id });
  },
  setTab(tab: InspectorTab): void {
    set({ tab });
  },
  /** The URL changed under the page (Back, Forward, another #entry=): show the view it describes. */
  followUrl(view: UrlView): void {
    const patch = urlViewChanges(state, view);
    if (Object.keys(patch).length > 0) set(patch);
  },
  toggleSegment(key: string): void {
    set({ expandedSegments: toggle(state.expandedSegments, key) });
  },
  expandSegments(keys: Iterable<string>): void {
    const next = new Set(state.expandedSegments);
    for (const key of keys) next.add(key);
    set({ expandedSegments: next });
  },
  toggleCollapsed(id: string): void {
    set({ collapsed: toggle(state.collapsed, id) });
  },
  scrubHistory(step: number | null): void {
    set({ historyStep: step });
  },
  setSearchQuery(query: string): void {
    if (query !== state.searchQuery) set({ searchQuery: query });
  },
  setTreeFilter(filter: TreeFilter): void {
    set({ treeFilter: filter });
  },
  setStatsScope(scope: "session" | "branch"): void {
    set({ statsScope: scope });
  },
  setContextOverlay(on: boolean): void {
    set({ contextOverlay: on });
  },
  setReading(patch: Partial<ReadingToggles>): void {
    const next = { ...state.reading, ...patch };
    if (next.thinking !== state.reading.thinking || next.outputs !== state.reading.outputs || next.hidden !== state.reading.hidden) set({ reading: next });
  },
  setContextView(view: "messages" | "llm"): void {
    if (view !== state.contextView) set({ contextView: view });
  },
  setFirstKeptPreview(id: string | null): void {
    if (id !== state.firstKeptPreview) set({ firstKeptPreview: id });
  },
  setCompactionSettings(patch: Partial<ViewCompactionSettings>): void {
    set({ compactionSettings: { ...state.compactionSettings, ...patch } });
  },
  /** Compare the selection with `id`; null closes the comparison. */
  setCompare(id: string | null): void {
    viewer.compare(id === null ? null : state.selectedId, id);
  },
  /** Compare `a` with `b` (both null: close); `a` becomes the selection. */
  compare(a: string | null, b: string | null): void {
    if (a === null || b === null) set({ compare: null });
    else set({ compare: { a, b }, selectedId: a });
  },
  /** "Compare with…": the next node picked is compared with the selection. */
  startComparePick(): void {
    if (state.selectedId !== null) set({ compare: { pickFrom: state.selectedId } });
  },
  cancelComparePick(): void {
    if (comparePickFrom(state) !== null) set({ compare: null });
  },
};

/** The open session; null while none is. */
export const sessionOf = (s: ViewerState): Session | null => s.doc?.session ?? null;

/** The first node of the open comparison; null when none is open. */
export const compareA = (s: ViewerState): string | null => (s.compare && "a" in s.compare ? s.compare.a : null);
/** The second node of the open comparison; null when none is open. */
export const compareB = (s: ViewerState): string | null => (s.compare && "b" in s.compare ? s.compare.b : null);
/** The node "Compare with…" compares the next pick with; null when it is not waiting. */
export const comparePickFrom = (s: ViewerState): string | null => (s.compare && "pickFrom" in s.compare ? s.compare.pickFrom : null);

/** Subscribe a component to one slice of the viewer state. */
export function useViewer<T>(select: (s: ViewerState) => T): T {
  return useSyncExternalStore(
    viewer.subscribe,
    () => select(state),
    () => select(initial),
  );
}
