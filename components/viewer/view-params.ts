// The viewer's URL: which session (file, src or upload), which entry and which inspector tab.
// Parsed leniently: anything unusable is dropped, and the viewer falls back to the session's leaf.
import { TREE_FILTER_MODES, type TreeFilter, type TreeFilterMode } from "@/lib/layout/tree-filter";
import type { SessionSource } from "@/lib/client/session-source";
import { INSPECTOR_TABS, type InspectorTab } from "@/lib/share/manifest";
import { DEFAULT_COMPACTION_SETTINGS } from "@/lib/session/rules/coding-agent-0.84/tokens";

export interface ViewParams {
  /** path in the sessions directory (as /api/sessions lists it) */
  file: string | null;
  /** URL to fetch the session from (same origin or CORS-enabled) */
  src: string | null;
  /** name of a file the user opened from disk (the content never goes in the URL) */
  upload: string | null;
  entry: string | null;
  tab: InspectorTab | null;
}

const MAX = 4096;

type SearchLike = URLSearchParams | Record<string, string | string[] | undefined>;

function first(search: SearchLike, key: string): string | null {
  const raw = search instanceof URLSearchParams ? search.get(key) : search[key];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return typeof value === "string" && value.length > 0 && value.length <= MAX ? value : null;
}

export function readViewParams(search: SearchLike): ViewParams {
  const tab = first(search, "tab");
  return {
    file: first(search, "file"),
    src: first(search, "src"),
    upload: first(search, "upload"),
    entry: first(search, "entry"),
    tab: tab && (INSPECTOR_TABS as readonly string[]).includes(tab) ? (tab as InspectorTab) : null,
  };
}

/** `compare=<id>`: the second node of a comparison with `entry` (the first). */
export function readCompareParam(search: SearchLike): string | null {
  return first(search, "compare");
}

/** The query string for a source, selection and tab (and comparison); the default tab ("entry") is left out. */
export function viewSearch(source: SessionSource, entry: string | null, tab: InspectorTab | null, compare: string | null = null): string {
  const params = new URLSearchParams();
  if (source.kind === "server" || source.kind === "sample") params.set("file", source.path);
  else if (source.kind === "url") params.set("src", source.url);
  else if (source.kind === "upload") params.set("upload", source.name);
  if (entry) params.set("entry", entry);
  if (tab && tab !== "entry") params.set("tab", tab);
  if (entry && compare) params.set("compare", compare);
  return `?${params}`;
}

/**
 * Where a page keeps its view parameters: the query string, except in a share file, which may be opened from
 * disk (a file: URL's query is not its own to rewrite) and whose link carries them in the fragment, beside
 * the key (`#entry=…&tab=…&k=…`). Returned in query form ("?a=b").
 */
export function viewLocation(inFragment: boolean, location: { search: string; hash: string }): string {
  if (!inFragment) return location.search;
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  params.delete("k");
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** The URL for view parameters `search` ("?a=b") written where viewLocation reads them; a key in the fragment stays. */
export function viewHref(inFragment: boolean, location: { pathname: string; search: string; hash: string }, search: string): string {
  if (!inFragment) return `${location.pathname}${search}`;
  const key = new URLSearchParams(location.hash.replace(/^#/, "")).get("k");
  const params = new URLSearchParams(search);
  if (key) params.set("k", key);
  const text = params.toString();
  return `${location.pathname}${location.search}${text ? `#${text}` : ""}`;
}

/** The key of a sealed share in the link's fragment (#k=…), if any. */
export function fragmentKey(hash: string): string | null {
  return first(new URLSearchParams(hash.replace(/^#/, "")), "k");
}

/** True when two query strings name the same session (whatever entry or tab they select). */
export function sameSession(a: string, b: string): boolean {
  const pa = readViewParams(new URLSearchParams(a));
  const pb = readViewParams(new URLSearchParams(b));
  return pa.file === pb.file && pa.src === pb.src && pa.upload === pb.upload;
}

/** What a link says to look for: `q` (search), `filter` (pi's /tree mode), `hideTypes` and `hideRoles` (comma lists). */
export function readFindParams(search: SearchLike): { query: string; filter: TreeFilter } {
  const mode = first(search, "filter");
  const list = (key: string) => new Set((first(search, key) ?? "").split(",").filter(Boolean));
  return {
    query: first(search, "q") ?? "",
    filter: {
      mode: mode && (TREE_FILTER_MODES as readonly string[]).includes(mode) ? (mode as TreeFilterMode) : null,
      hiddenTypes: list("hideTypes"),
      hiddenRoles: list("hideRoles"),
    },
  };
}

/** `search` (a query string from viewSearch) with the search and filter added; empty ones are left out. */
export function withFindParams(search: string, query: string, filter: TreeFilter): string {
  const params = new URLSearchParams(search);
  if (query.trim()) params.set("q", query);
  if (filter.mode) params.set("filter", filter.mode);
  if (filter.hiddenTypes.size) params.set("hideTypes", [...filter.hiddenTypes].join(","));
  if (filter.hiddenRoles.size) params.set("hideRoles", [...filter.hiddenRoles].join(","));
  return `?${params}`;
}

/** pi's compaction settings the Context tab measures with, and a window for a model pi's catalogue lacks (null: the catalogue's). */
export interface ViewCompactionSettings {
  reserveTokens: number;
  keepRecentTokens: number;
  contextWindow: number | null;
}

export const PI_COMPACTION_DEFAULTS: ViewCompactionSettings = {
  reserveTokens: DEFAULT_COMPACTION_SETTINGS.reserveTokens,
  keepRecentTokens: DEFAULT_COMPACTION_SETTINGS.keepRecentTokens,
  contextWindow: null,
};

/** How the Context tab measures, from a link: `ctx=llm` (what the model is sent), `reserve`, `keep`, `window` (tokens). */
export function readContextParams(search: SearchLike): { contextView: "messages" | "llm"; settings: ViewCompactionSettings } {
  const tokens = (key: string): number | null => {
    const v = first(search, key);
    return v !== undefined && v !== null && /^\d{1,9}$/.test(v) ? Number(v) : null;
  };
  return {
    contextView: first(search, "ctx") === "llm" ? "llm" : "messages",
    settings: {
      reserveTokens: tokens("reserve") ?? PI_COMPACTION_DEFAULTS.reserveTokens,
      keepRecentTokens: tokens("keep") ?? PI_COMPACTION_DEFAULTS.keepRecentTokens,
      contextWindow: tokens("window"),
    },
  };
}

/** `search` with the Context tab's view and settings added where they differ from pi's defaults. */
export function withContextParams(search: string, contextView: "messages" | "llm", settings: ViewCompactionSettings): string {
  const params = new URLSearchParams(search);
  if (contextView === "llm") params.set("ctx", "llm");
  if (settings.reserveTokens !== PI_COMPACTION_DEFAULTS.reserveTokens) params.set("reserve", String(settings.reserveTokens));
  if (settings.keepRecentTokens !== PI_COMPACTION_DEFAULTS.keepRecentTokens) params.set("keep", String(settings.keepRecentTokens));
  if (settings.contextWindow !== null) params.set("window", String(settings.contextWindow));
  return `?${params}`;
}

/** How messages read, toggled as pi's own export toggles them (t, o, h) and kept in the URL. */
export interface ReadingToggles {
  /** thinking blocks shown (folded, to open); off: left out */
  thinking: boolean;
  /** tool outputs and long code unfolded */
  outputs: boolean;
  /** custom messages pi does not display (`display: false`) shown with their content */
  hidden: boolean;
}

export const READING_DEFAULTS: ReadingToggles = { thinking: true, outputs: false, hidden: false };

/** The toggles from a link: `thinking=0`, `outputs=1`, `hidden=1` (anything else: the default). */
export function readReadingParams(search: SearchLike): ReadingToggles {
  const flag = (key: string, fallback: boolean) => {
    const v = first(search, key);
    return v === "1" ? true : v === "0" ? false : fallback;
  };
  return {
    thinking: flag("thinking", READING_DEFAULTS.thinking),
    outputs: flag("outputs", READING_DEFAULTS.outputs),
    hidden: flag("hidden", READING_DEFAULTS.hidden),
  };
}

/** `search` with the toggles that differ from the defaults. */
export function withReadingParams(search: string, reading: ReadingToggles): string {
  const params = new URLSearchParams(search);
  for (const key of ["thinking", "outputs", "hidden"] as const) if (reading[key] !== READING_DEFAULTS[key]) params.set(key, reading[key] ? "1" : "0");
  return `?${params}`;
}
