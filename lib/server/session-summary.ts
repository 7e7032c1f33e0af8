// What the library shows for one session file, read in a single cheap pass: most lines are only
// counted; the few that matter (header, session_info, the first user message) are parsed.
// Not responsible for the full reading of a session (that is lib/session, run in the browser).
import { messageTitle } from "@/lib/session";
import { LISTED_TITLE_CHARS } from "@/lib/session/features/title";
import { isObject } from "@/lib/session/json";
import type { ForkSourceRef } from "@/lib/library/fork-families";

export interface SessionSummary {
  /** header fields; null when the first non-blank line is not a session header pi accepts */
  id: string | null;
  cwd: string | null;
  timestamp: string | null;
  /** name of the last session_info entry (pi's rule: trimmed, empty clears), or null */
  sessionName: string | null;
  /** text of the first user message, whitespace collapsed and shortened, or null */
  firstMessage: string | null;
  /** non-blank lines that are not session headers: entries, unreadable lines included */
  entryCount: number;
  /** true when entryCount is an estimate (a big file read only at its ends), not a count */
  entryCountEstimated?: boolean;
  /** entries with more than one child; null when not counted (file over the branch-count limit) */
  branchCount: number | null;
  /** the header's session id, a v4 log's included */
  sessionId: string | null;
  /** the session this one was forked from, as its header names it */
  source: ForkSourceRef | null;
}

/** Header lines longer than this are not read (pi's headers are a few hundred bytes). */
export const HEADER_LIMIT = 64 * 1024;
// pi writes `{"type":…,"id":…,"parentId":…` first on every entry line; other shapes are parsed in full
const ENTRY_HEAD = /^\{"type":"[^"\\]*","id":"([^"\\]+)","parentId":(?:null|"([^"\\]*)")[,}]/;

interface Header {
  id: string;
  cwd: unknown;
  timestamp: unknown;
  version: unknown;
}

/** Feed text chunks (any size), then `end()`. */
export class SummaryScanner {
  private pending = "";
  private sawFirstLine = false;
  private header: Header | null = null;
  private entryCount = 0;
  private sessionName: string | null = null;
  private nameSeen = false;
  /** the file is a v4 mutation log (spec §15): its name is a `fact`, not a session_info entry */
  private v4 = false;
  private firstMessage: string | null = null;
  private v4Id: string | null = null;
  private source: ForkSourceRef | null = null;
  /** child id → parent id (the last line with an id wins, as in pi) */
  private readonly parents: Map<string, string | null> | null;

  constructor(options: { countBranches: boolean }) {
    this.parents = options.countBranches ? new Map() : null;
  }

  push(chunk: string): void {
    const text = this.pending + chunk;
    let start = 0;
    let nl = text.indexOf("\n");
    while (nl !== -1) {
      this.line(text.slice(start, nl));
      start = nl + 1;
      nl = text.indexOf("\n", start);
    }
    this.pending = text.slice(start);
  }

  /** whether a session_info line was read (its name may be null: an empty name clears it) */
  get sawName(): boolean {
    return this.nameSeen;
  }

  end(): SessionSummary {
    if (this.pending) this.line(this.pending);
    this.pending = "";
    const header = this.header;
    return {
      id: header?.id ?? null,
      cwd: typeof header?.cwd === "string" ? header.cwd : null,
      timestamp: typeof header?.timestamp === "string" ? header.timestamp : null,
      sessionName: this.sessionName,
      firstMessage: this.firstMessage,
      entryCount: this.entryCount,
      branchCount: this.parents ? this.branchCount() : null,
      sessionId: header?.id ?? this.v4Id,
      source: this.source,
    };
  }

  private line(raw: string): void {
    if (raw.trim() === "") return;
    const first = !this.sawFirstLine;
    this.sawFirstLine = true;
    let parsed: unknown = undefined;
    const parse = (): unknown => (parsed === undefined ? (parsed = parseJson(raw)) : parsed);

    if (first && raw.length <= HEADER_LIMIT && raw.includes('"header"')) {
      const value = parse();
      this.v4 = isObject(value) && value.kind === "header" && value.version === 4;
      if (this.v4 && isObject(value)) {
        this.v4Id = isId(value.id) ? value.id : null;
        this.source = sourceRef(value.legacyParentSessionPath, value.parentSessionId);
      }
    }
    if (this.v4 && raw.includes('"fact"')) {
      const value = parse();
      // pi-agent-core keeps the last name fact as given: no trimming, "" is a name
      if (isObject(value) && value.kind === "fact" && value.fact === "name" && typeof value.name === "string") {
        this.sessionName = value.name;
        this.nameSeen = true;
      }
    }
    if (raw.includes('"session"') && (!first || raw.length <= HEADER_LIMIT)) {
      const value = parse();
      if (isObject(value) && value.type === "session") {
        if (first && typeof value.id === "string") {
          this.header = { id: value.id, cwd: value.cwd, timestamp: value.timestamp, version: value.version };
          // v1 files name their source `branchedFrom`
          this.source = sourceRef(value.parentSession ?? value.branchedFrom, null);
        }
        return;
      }
    }
    this.entryCount++;
    if (raw.includes('"session_info"')) {
      const value = parse();
      if (isObject(value) && value.type === "session_info" && (this.isLegacy() || isId(value.id))) {
        this.sessionName = typeof value.name === "string" ? value.name.trim() || null : null;
        this.nameSeen = true;
      }
    }
    if (this.firstMessage === null && raw.includes('"user"')) {
      const value = parse();
      if (isObject(value) && value.type === "message" && isObject(value.message) && value.message.role === "user") {
        this.firstMessage = messageText(value.message.content);
      }
    }
    if (this.parents) this.recordParent(raw, parse);
  }

  private recordParent(raw: string, parse: () => unknown): void {
    const head = ENTRY_HEAD.exec(raw);
    if (head) {
      this.parents!.set(head[1]!, head[2] ?? null);
      return;
    }
    const value = parse();
    if (isObject(value) && isId(value.id)) this.parents!.set(value.id, typeof value.parentId === "string" ? value.parentId : null);
  }

  private branchCount(): number {
    // v1 files get fresh ids in one chain when pi migrates them: no branches
    const version = this.header?.version;
    if (this.header && (version === undefined || (typeof version === "number" && version < 2))) return 0;
    const children = new Map<string, number>();
    for (const [id, parent] of this.parents!) {
      if (parent !== null && parent !== id && this.parents!.has(parent)) children.set(parent, (children.get(parent) ?? 0) + 1);
    }
    let branches = 0;
    for (const count of children.values()) if (count > 1) branches++;
    return branches;
  }

  private isLegacy(): boolean {
    if (!this.header) return false;
    const version = this.header.version;
    return version === undefined || (typeof version === "number" && version < 3);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null; // an unreadable line is counted, never described here
  }
}

function sourceRef(path: unknown, sessionId: unknown): ForkSourceRef | null {
  const ref = { path: isId(path) ? path : null, sessionId: isId(sessionId) ? sessionId : null };
  return ref.path === null && ref.sessionId === null ? null : ref;
}

function isId(value: unknown): value is string {
  return typeof value === "string" && value.length > 0;
}

/** pi's session list: a string, or the text blocks joined with spaces; empty text counts as none. */
const messageText = (content: unknown): string | null => messageTitle(content, LISTED_TITLE_CHARS);
