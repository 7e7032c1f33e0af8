/**
 * Full-text search over a session: message text and thinking, tool calls
 * (name and JSON arguments), tool results, bash runs, summaries, custom
 * messages, labels and the session name. Case-insensitive substring match of
 * every word of the query (a "quoted phrase" is one term), as search boxes do.
 *
 * The lowercased text of every field is built lazily, once per tree
 * revision (in steps with prepareSearch, or at the first query), so typing a
 * query over 100k entries only runs `indexOf`.
 * Not responsible for ranking or for deciding what the graph shows.
 */
import { isObject } from "../json";
import type { Session } from "../session";
import type { SessionEntry } from "../types";

export type SearchField = "text" | "thinking" | "toolCall" | "toolResult" | "bash" | "summary" | "custom" | "label" | "name";

export interface SearchHit {
  entryId: string;
  field: SearchField;
  /** text around the field's first match of any term, whitespace collapsed */
  snippet: string;
  /** where the match sits in `snippet` */
  start: number;
  end: number;
  /** matches of all terms in this field */
  count: number;
}

export interface SearchResult {
  query: string;
  /** what must occur in an entry: the query's words and "quoted phrases", case-folded */
  terms: string[];
  /** the first `limit` hits, in file order (one per entry and field) */
  hits: SearchHit[];
  /** all hits (entry and field pairs), the listed ones included */
  total: number;
  /** every entry with a hit, listed or not */
  entryIds: ReadonlySet<string>;
  /**
   * false while some entries' content is still being read from the file (a session read on demand): the hits
   * are those of the first `searched` entries
   */
  complete: boolean;
  /** entries searched, in file order (all of them when complete) */
  searched: number;
}

/** entries whose content a search asks for at once, when it is read from the file on demand */
const READ_BATCH = 2048;

/** One searchable field of one entry. */
export interface SearchDoc {
  entryId: string;
  /** which entry object (file order): an id written twice is two entries, each searched on its own */
  entry: number;
  field: SearchField;
  text: string;
  lower: string;
}
type Doc = SearchDoc;

export const SEARCH_LIMIT = 200;
const CONTEXT = 48;

/**
 * Lowercase without changing the length, so offsets found in the lowercase
 * text are offsets in the original ("İ".toLowerCase() has two code units).
 */
export function foldCase(text: string): string {
  const lower = text.toLowerCase();
  if (lower.length === text.length) return lower;
  return text.replace(/[\s\S]/g, (c) => {
    const l = c.toLowerCase();
    return l.length === 1 ? l : c;
  });
}

const str = (v: unknown): string => (typeof v === "string" ? v : "");

/** Text blocks of a string-or-blocks content, joined by newlines. */
function blocksText(content: unknown, type = "text", key = "text"): string {
  if (typeof content === "string") return type === "text" ? content : "";
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const block of content) if (isObject(block) && block.type === type && typeof block[key] === "string") parts.push(block[key] as string);
  return parts.join("\n");
}

function json(value: unknown): string {
  if (value === undefined) return "";
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return "";
  }
}

/** The searchable fields of one entry, as [field, text] pairs (empty texts left out by the caller). */
export function entryFields(entry: SessionEntry): [SearchField, string][] {
  const out: [SearchField, string][] = [];
  switch (entry.type) {
    case "message": {
      const m = entry.message;
      if (!isObject(m)) break;
      if (m.role === "user" || m.role === "assistant") {
        out.push(["text", blocksText(m.content)]);
        if (m.role === "assistant") {
          out.push(["thinking", blocksText(m.content, "thinking", "thinking")]);
          if (Array.isArray(m.content)) {
            for (const block of m.content)
              if (isObject(block) && block.type === "toolCall") out.push(["toolCall", `${str(block.name)} ${json(block.arguments)}`]);
          }
        }
      } else if (m.role === "toolResult") out.push(["toolResult", blocksText(m.content)]);
      else if (m.role === "bashExecution") out.push(["bash", `${str(m.command)}\n${str(m.output)}`]);
      else if (m.role === "branchSummary" || m.role === "compactionSummary") out.push(["summary", str(m.summary)]);
      else if (m.role === "custom") out.push(["custom", blocksText(m.content)]);
      break;
    }
    case "compaction":
    case "branch_summary":
      out.push(["summary", str(entry.summary)]);
      break;
    case "custom_message":
      out.push(["custom", blocksText(entry.content)]);
      break;
    case "label":
      out.push(["label", str(entry.label)]);
      break;
    case "session_info":
      out.push(["name", str(entry.name)]);
      break;
  }
  return out;
}

interface Index {
  revision: number;
  docs: Doc[];
  /** how many of the tree's entries `docs` covers: the index is built in steps (prepareSearch) */
  built: number;
  labels: ReturnType<Session["labels"]>;
  last: SearchResult | null;
  lastLimit: number;
}

const indexes = new WeakMap<Session, Index>();

/**
 * Adds entries to the index until all are in, `deadline` (performance.now()) passes or an entry's content has
 * not been read from the file yet; true when complete. `ask`: then ask for the next batch's content
 * (SessionTree.askFor), so the caller reads it and goes on.
 */
function extend(session: Session, index: Index, deadline: number, ask: boolean): boolean {
  const tree = session.tree;
  const add = (entryId: string, field: SearchField, text: string) => {
    if (text.trim()) index.docs.push({ entryId, entry: index.built - 1, field, text, lower: foldCase(text) });
  };
  const count = tree.entryCount;
  while (index.built < count) {
    const light = tree.entryAt(index.built);
    if (tree.waitsFor(light)) {
      if (ask) {
        const batch: SessionEntry[] = [];
        for (let slot = index.built; slot < Math.min(count, index.built + READ_BATCH); slot++) batch.push(tree.entryAt(slot));
        tree.askFor(batch);
      }
      return false;
    }
    index.built++;
    const id = light.id;
    if (typeof id === "string") {
      for (const [field, text] of entryFields(tree.full(light))) add(id, field, text);
      // the label an entry carries (what its card shows), not only the label entry that set it
      const label = index.labels.get(id)?.label;
      if (label) add(id, "label", label);
    }
    // a clock read per 64 entries: cheap next to decoding and lowercasing them
    if ((index.built & 63) === 0 && performance.now() >= deadline) break;
  }
  return index.built >= count;
}

function indexFor(session: Session): Index {
  const revision = session.tree.revision;
  let index = indexes.get(session);
  if (!index || index.revision !== revision) {
    index = { revision, docs: [], built: 0, labels: session.labels(), last: null, lastLimit: 0 };
    indexes.set(session, index);
  }
  return index;
}

/**
 * Builds some of the search index for `session`, for about `budgetMs`; true once it is complete, or stopped at
 * content that is read from the file on demand (the search reads it). The first
 * search of a big session would otherwise build all of it in one go (about a second at 100k entries), so a
 * caller can build it in small steps beforehand (the viewer does when the search box gets focus). A search
 * before the end completes it at once.
 */
export function prepareSearch(session: Session, budgetMs: number): boolean {
  const index = indexFor(session);
  if (extend(session, index, performance.now() + budgetMs, false)) return true;
  // stopped at content not read from the file yet: nothing more to build ahead (the query reads it)
  return session.tree.waitsFor(session.tree.entryAt(index.built));
}

function snippetOf(text: string, at: number, length: number): { snippet: string; start: number; end: number } {
  const from = Math.max(0, at - CONTEXT);
  const to = Math.min(text.length, at + length + CONTEXT);
  const flat = (s: string) => s.replace(/\s+/g, " ");
  const before = (from > 0 ? "…" : "") + flat(text.slice(from, at)).trimStart();
  const match = flat(text.slice(at, at + length));
  const after = flat(text.slice(at + length, to)).trimEnd() + (to < text.length ? "…" : "");
  return { snippet: before + match + after, start: before.length, end: before.length + match.length };
}

/**
 * The terms of a query, case-folded: its words, and "quoted phrases" (spaces kept; a quote left open runs to
 * the end). Repeated terms count once.
 */
export function queryTerms(query: string): string[] {
  const terms = new Set<string>();
  // a quote opens a phrase only where a term starts: inside a word it is a character like any other
  for (const match of query.matchAll(/"([^"]*)"?|\S+/g)) {
    const term = foldCase(match[1] ?? match[0]);
    if (term.trim()) terms.add(term);
  }
  return [...terms];
}

/**
 * The hits of one query, entry by entry in file order: an entry is kept when its fields (docs) hold every term
 * between them, and each of its fields that holds a term is a hit. What searchSession and a search streamed
 * through the file's text (StreamSearch) share.
 */
export class HitCollector {
  readonly terms: string[];
  private readonly hits: SearchHit[] = [];
  private readonly entryIds = new Set<string>();
  private total = 0;
  private readonly found: { doc: Doc; at: number; length: number }[] = [];
  private readonly seen = new Set<string>();

  /** `query`: case-folded (foldCase) */
  constructor(
    readonly query: string,
    private readonly limit: number,
  ) {
    this.terms = queryTerms(query);
  }

  /** One entry's docs: `docs[from..to)`. */
  entry(docs: readonly Doc[], from = 0, to = docs.length): void {
    const { terms, found, seen } = this;
    found.length = 0;
    seen.clear();
    for (let i = from; i < to; i++) {
      const doc = docs[i]!;
      let first = -1;
      let firstLength = 0;
      for (const term of terms) {
        const at = doc.lower.indexOf(term);
        if (at < 0) continue;
        seen.add(term);
        if (first < 0 || at < first) {
          first = at;
          firstLength = term.length;
        }
      }
      if (first >= 0) found.push({ doc, at: first, length: firstLength });
    }
    if (seen.size < terms.length || terms.length === 0) return;
    this.entryIds.add(docs[from]!.entryId);
    for (const { doc, at, length } of found) {
      this.total++;
      if (this.hits.length >= this.limit) continue;
      let count = 0;
      for (const term of terms) for (let i = doc.lower.indexOf(term); i >= 0; i = doc.lower.indexOf(term, i + term.length)) count++;
      this.hits.push({ entryId: doc.entryId, field: doc.field, ...snippetOf(doc.text, at, length), count });
    }
  }

  /** The result so far: a copy, so later entries do not change it. */
  result(complete: boolean, searched: number): SearchResult {
    return { query: this.query, terms: this.terms, hits: this.hits.slice(), total: this.total, entryIds: new Set(this.entryIds), complete, searched };
  }
}

/**
 * Entries that hold every term of `query` (queryTerms), each in any of their fields; a hit is a field of such
 * an entry that holds at least one term. The result of the last query is kept per session, so many readers of
 * the same query (the list, every graph card) share one scan.
 */
export function searchSession(session: Session, query: string, limit = SEARCH_LIMIT): SearchResult {
  const q = foldCase(query.trim());
  const index = indexFor(session);
  const complete = extend(session, index, Infinity, true);
  if (index.last && index.last.query === q && index.lastLimit === limit && index.last.searched === index.built) return index.last;
  const collect = new HitCollector(q, limit);
  const docs = index.docs;
  // an entry's fields are consecutive docs: look at them together
  for (let from = 0; collect.terms.length && from < docs.length;) {
    const entry = docs[from]!.entry;
    let to = from;
    while (to < docs.length && docs[to]!.entry === entry) to++;
    collect.entry(docs, from, to);
    from = to;
  }
  const result = collect.result(complete, index.built);
  index.last = result;
  index.lastLimit = limit;
  return result;
}
