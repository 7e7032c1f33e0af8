// The library's search over every session's contents, as the page holds it: the query and filters (mirrored in
// the page's URL, so a search is a link: GET /api/search's parameter names, but for the last day, which the page
// takes as a person does, inclusive), the hits grouped by session, and the words of a snippet to mark. Pure.
import { isPrefixWord, librarySearchTerms, searchWords } from "@/lib/library/library-search";
import { formatCount } from "@/components/ui/format";
import type { LibrarySearchHit, UnreadableLine } from "@/lib/library/search-api";

export interface ContentSearch {
  q: string;
  /** a project's cwd (or folder, when no header says) */
  project: string;
  /** YYYY-MM-DD, inclusive */
  since: string;
  /** YYYY-MM-DD, inclusive (the API's `until` is the day after) */
  to: string;
  role: string;
  tool: string;
  model: string;
  /** only entries on their session's active path */
  active: boolean;
  /** only sessions one machine pushed (an archive's library; the page's machine filter, shared with its list) */
  machine: string;
}

/** A hit as GET /api/search gives it. */
export type ContentHit = LibrarySearchHit;

export const EMPTY_SEARCH: ContentSearch = { q: "", project: "", since: "", to: "", role: "", tool: "", model: "", active: false, machine: "" };

const TEXT_KEYS = ["q", "project", "since", "to", "role", "tool", "model", "machine"] as const;

/** The search a URL's query string holds, or null when the page is not searching contents (no `q`). */
export function contentSearchFromParams(params: URLSearchParams): ContentSearch | null {
  if (!params.has("q")) return null;
  const search = { ...EMPTY_SEARCH };
  for (const key of TEXT_KEYS) search[key] = params.get(key) ?? "";
  search.active = params.get("active") === "1";
  return search;
}

/** The search as query parameters (empty ones left out; `q` always there: it is what says "searching"). */
export function contentSearchParams(search: ContentSearch): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of TEXT_KEYS) if (key === "q" || search[key]) params.set(key, search[key]);
  if (search.active) params.set("active", "1");
  return params;
}

/** Whether the search asks anything: a query with at least one word. */
export function isSearchable(search: ContentSearch): boolean {
  return searchWords(search.q).length > 0;
}

export function searchApiUrl(search: ContentSearch, limit: number): string {
  const params = contentSearchParams(search);
  params.delete("to");
  const to = Date.parse(`${search.to}T00:00:00Z`);
  if (!Number.isNaN(to)) params.set("until", new Date(to + 86_400_000).toISOString().slice(0, 10));
  params.set("limit", String(limit));
  return `/api/search?${params}`;
}

/** The viewer at the hit's entry, searching the same words there. */
export function hitHref(hit: ContentHit, q: string): string {
  const params = new URLSearchParams({ file: hit.file });
  // a line without an id (a v1 file's) is found by the session search, not by an entry id
  if (!hit.entryId.startsWith("line@")) params.set("entry", hit.entryId);
  if (q.trim()) params.set("q", q);
  return `/view?${params}`;
}

/** The viewer on the session, searching the same words there. */
export function sessionHref(file: string, q: string): string {
  const params = new URLSearchParams({ file });
  if (q.trim()) params.set("q", q);
  return `/view?${params}`;
}

export interface HitGroup {
  file: string;
  /** in rank order */
  hits: ContentHit[];
}

/** Hits by session, sessions ordered by their best hit, hits kept in rank order. */
export function groupHits(hits: readonly ContentHit[]): HitGroup[] {
  const groups = new Map<string, HitGroup>();
  for (const hit of hits) {
    const group = groups.get(hit.file);
    if (group) group.hits.push(hit);
    else groups.set(hit.file, { file: hit.file, hits: [hit] });
  }
  return [...groups.values()];
}

export interface SnippetPart {
  text: string;
  mark: boolean;
}

/**
 * The snippet cut where the query's words occur: a word of the text is marked when it equals a query word, or
 * starts with the last word of a term long enough to be a prefix (as the index matches it).
 */
export function markSnippet(snippet: string, q: string): SnippetPart[] {
  const whole = new Set<string>();
  const prefixes: string[] = [];
  for (const words of librarySearchTerms(q)) {
    for (const word of words.slice(0, -1)) whole.add(word);
    const last = words.at(-1)!;
    if (isPrefixWord(last)) prefixes.push(last);
    else whole.add(last);
  }
  const parts: SnippetPart[] = [];
  let at = 0;
  const push = (text: string, mark: boolean) => {
    if (!text) return;
    const last = parts.at(-1);
    if (last && last.mark === mark) last.text += text;
    else parts.push({ text, mark });
  };
  for (const found of snippet.matchAll(/[\p{L}\p{N}\p{Co}_]+/gu)) {
    const word = searchWords(found[0])[0] ?? "";
    if (!whole.has(word) && !prefixes.some((prefix) => word.startsWith(prefix))) continue;
    push(snippet.slice(at, found.index), false);
    push(found[0], true);
    at = found.index + found[0].length;
  }
  push(snippet.slice(at), false);
  return parts;
}

/** "2 lines could not be read and are not searched · 1 line is searched, but in doubt" */
export function unreadableSummary(lines: readonly UnreadableLine[]): string {
  const lineCount = (n: number) => `${formatCount(n)} ${n === 1 ? "line" : "lines"}`;
  const doubted = lines.filter((line) => line.indexed).length;
  const unread = lines.length - doubted;
  const parts: string[] = [];
  if (unread > 0) parts.push(`${lineCount(unread)} could not be read and ${unread === 1 ? "is" : "are"} not searched`);
  if (doubted > 0) parts.push(`${lineCount(doubted)} ${doubted === 1 ? "is" : "are"} searched, but in doubt`);
  return parts.join(" · ");
}
