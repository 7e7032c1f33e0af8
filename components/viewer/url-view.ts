// What the URL says the view of the open session is, read when the URL changes under the page (Back, Forward,
// a changed #entry= in a share file): the selection, tab, comparison, search, filter, Context tab measure and
// reading toggles, read as a deep link is read when the page loads. Not responsible for which session is open.
import type { TreeFilter } from "@/lib/layout/tree-filter";
import type { Session } from "@/lib/session";
import type { InspectorTab, ShareManifest } from "@/lib/share/manifest";
import type { ViewerState } from "./viewer-state";
import {
  readCompareParam,
  readContextParams,
  readFindParams,
  readReadingParams,
  readViewParams,
  type ReadingToggles,
  type ViewCompactionSettings,
} from "./view-params";

export interface UrlView {
  selectedId: string | null;
  tab: InspectorTab;
  /** a comparison of the selection with another entry; null: none */
  compare: { a: string; b: string } | null;
  searchQuery: string;
  treeFilter: TreeFilter;
  contextView: "messages" | "llm";
  compactionSettings: ViewCompactionSettings;
  reading: ReadingToggles;
}

/**
 * The view `search` ("?entry=…&tab=…", viewLocation's form) describes in `session`. What it leaves out or names
 * wrongly falls back as on load: the entry a share file was made at, else the leaf; the tab it was made on, else
 * the entry's own.
 */
export function urlView(search: string, session: Session, share: ShareManifest | null): UrlView {
  const params = new URLSearchParams(search);
  const { entry, tab } = readViewParams(params);
  const fallback = share?.entryId && session.tree.get(share.entryId) ? share.entryId : session.leafId;
  const selectedId = entry && session.tree.get(entry) ? entry : fallback;
  const b = readCompareParam(params);
  const { query, filter } = readFindParams(params);
  const { contextView, settings } = readContextParams(params);
  return {
    selectedId,
    tab: tab ?? share?.tab ?? "entry",
    compare: selectedId !== null && selectedId === entry && b && session.tree.get(b) ? { a: selectedId, b } : null,
    searchQuery: query,
    treeFilter: filter,
    contextView,
    compactionSettings: settings,
    reading: readReadingParams(params),
  };
}

const sameSet = (a: ReadonlySet<string>, b: ReadonlySet<string>) => a.size === b.size && [...a].every((x) => b.has(x));
const sameFilter = (a: TreeFilter, b: TreeFilter) => a.mode === b.mode && sameSet(a.hiddenTypes, b.hiddenTypes) && sameSet(a.hiddenRoles, b.hiddenRoles);
const sameFields = <T extends object>(a: T, b: T) => (Object.keys(a) as (keyof T)[]).every((key) => a[key] === b[key]);

/**
 * What following `view` changes in `state`; {} when the state already shows it. Unchanged parts keep their
 * objects, so what is keyed on them (the layout on the filter) is not made again.
 */
export function urlViewChanges(state: ViewerState, view: UrlView): Partial<ViewerState> {
  const patch: Partial<ViewerState> = {};
  const current = state.compare;
  const comparing = current && "a" in current ? current : null;
  const sameCompare = view.compare !== null && comparing !== null && comparing.a === view.compare.a && comparing.b === view.compare.b;
  // while comparing, the URL names the comparison's first entry, not the selection, which may have moved on
  if (!sameCompare && view.selectedId !== state.selectedId) {
    patch.selectedId = view.selectedId;
    // as a click does: another entry than the leaf stops following it, or the next line written would take it away
    if (state.follow && view.selectedId !== (state.doc?.session.leafId ?? null)) patch.follow = false;
  }
  if (view.tab !== state.tab) patch.tab = view.tab;
  if (view.compare && !sameCompare) patch.compare = view.compare;
  // a "Compare with…" waiting on the entry still selected is not in the URL: it stays
  else if (!view.compare && current && !("pickFrom" in current && current.pickFrom === view.selectedId)) patch.compare = null;
  if (view.searchQuery !== state.searchQuery) patch.searchQuery = view.searchQuery;
  if (!sameFilter(view.treeFilter, state.treeFilter)) patch.treeFilter = view.treeFilter;
  if (view.contextView !== state.contextView) patch.contextView = view.contextView;
  if (!sameFields(view.compactionSettings, state.compactionSettings)) patch.compactionSettings = view.compactionSettings;
  if (!sameFields(view.reading, state.reading)) patch.reading = view.reading;
  return patch;
}
