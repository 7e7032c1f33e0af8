/**
 * Full-text search over a session: message text and thinking, tool calls
 * (name and JSON arguments), tool results, bash runs, summaries, custom
 * messages, labels and the session name. Case-insensitive substring match.
 *
 * The lowercased text of every field is built lazily, once per tree
 * revision, so typing a query over 100k entries only runs `indexOf`.
 * Not responsible for ranking or for deciding what the graph shows.
 */
import { isObject } from "./json";
import type { Session } from "./session";
import type { SessionEntry } from "./types";

export type SearchField = "text" | "thinking" | "toolCall" | "toolResult" | "bash" | "summary" | "custom" | "label" | "name";

export interface SearchHit {
  entryId: string;
  field: SearchField;
  /** text around the first match, whitespace collapsed */
  snippet: string;
  /** where the match sits in `snippet` */
  start: number;
  end: number;
  /** matches in this field */
  count: number;
}

export interface SearchResult {
  query: string;
  /** the first `limit` hits, in file order (one per entry and field) */
  hits: SearchHit[];
  /** all hits (entry and field pairs), the listed ones included */
  total: number;
  /** every entry with a hit, listed or not */
  entryIds: ReadonlySet<string>;
}

interface Doc {
  entryId: string;
  field: SearchField;
  text: string;
  lower: string;
}

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
            for (const block of m.content) if (isObject(block) && block.type === "toolCall") out.push(["toolCall", `${str(block.name)} ${json(block.arguments)}`]);
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
  last: SearchResult | null;
  lastLimit: number;
}

const indexes = new WeakMap<Session, Index>();

function buildDocs(session: Session): Doc[] {
  const docs: Doc[] = [];
  const labels = session.labels();
  const add = (entryId: string, field: SearchField, text: string) => {
    if (text.trim()) docs.push({ entryId, field, text, lower: foldCase(text) });
  };
  for (const light of session.tree.entries) {
    const id = light.id;
    if (typeof id !== "string") continue;
    for (const [field, text] of entryFields(session.tree.full(light))) add(id, field, text);
    // the label an entry carries (what its card shows), not only the label entry that set it
    const label = labels.get(id)?.label;
    if (label) add(id, "label", label);
  }
  return docs;
}

function indexFor(session: Session): Index {
  const revision = session.tree.revision;
  let index = indexes.get(session);
  if (!index || index.revision !== revision) {
    index = { revision, docs: buildDocs(session), last: null, lastLimit: 0 };
    indexes.set(session, index);
  }
  return index;
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
 * Entries whose text holds `query` (trimmed, case-insensitive). The result of
 * the last query is kept per session, so many readers of the same query (the
 * list, every graph card) share one scan.
 */
export function searchSession(session: Session, query: string, limit = SEARCH_LIMIT): SearchResult {
  const q = foldCase(query.trim());
  const index = indexFor(session);
  if (index.last && index.last.query === q && index.lastLimit === limit) return index.last;
  const hits: SearchHit[] = [];
  const entryIds = new Set<string>();
  let total = 0;
  if (q) {
    for (const doc of index.docs) {
      const at = doc.lower.indexOf(q);
      if (at < 0) continue;
      total++;
      entryIds.add(doc.entryId);
      if (hits.length >= limit) continue;
      let count = 0;
      for (let i = at; i >= 0; i = doc.lower.indexOf(q, i + q.length)) count++;
      hits.push({ entryId: doc.entryId, field: doc.field, ...snippetOf(doc.text, at, q.length), count });
    }
  }
  const result: SearchResult = { query: q, hits, total, entryIds };
  index.last = result;
  index.lastLimit = limit;
  return result;
}
