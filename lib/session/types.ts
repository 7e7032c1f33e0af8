/**
 * Shapes of a pi session file as this library sees it. Entries are kept as the
 * exact objects parsed from the file (unknown types and fields included) so that
 * a fork can write them back byte-for-byte; the typed views below are what the
 * library relies on, everything else stays opaque.
 */

export type JsonObject = { [key: string]: unknown };

export interface SessionHeader extends JsonObject {
  type: "session";
  id: string;
  version?: unknown;
  timestamp?: unknown;
  cwd?: unknown;
  parentSession?: unknown;
}

/** Any non-header line that parsed to a truthy JSON value (pi keeps them all). */
export interface SessionEntry extends JsonObject {
  type?: unknown;
  id?: unknown;
  parentId?: unknown;
  timestamp?: unknown;
}

/** An entry that can take part in the tree: it has a string id. */
export interface TreeEntry extends SessionEntry {
  id: string;
}

/**
 * Which rule set (one pi version's way of reading a file) answers a question: the coding agent 0.84.1 ("ca") and
 * the 0.83 harness ("hx") for v3 files (spec §1, §6–§9); the coding agent's
 * newer rules ("ca-0.86", "ca-0.87": 0.87.x and 1.x) and pi-agent-core 0.84's
 * v4 mutation log ("v4"). The CLI's --reader and the viewer's rules= take these ids; see rules/registry.ts.
 */
export type RuleSetId = "ca" | "hx" | "ca-0.86" | "ca-0.87" | "v4";

export type Severity = "error" | "warning" | "info";

export type DiagnosticKind =
  | "invalid-json"
  | "not-object"
  | "torn-line"
  | "no-final-newline"
  | "bom"
  | "empty-file"
  | "no-header"
  | "extra-header"
  | "future-version"
  | "migrated"
  | "v4-log"
  | "missing-id"
  | "missing-type"
  | "missing-parent-id"
  | "invalid-parent-id"
  | "missing-timestamp"
  | "duplicate-id"
  | "unknown-parent"
  | "cycle"
  | "message-without-message"
  | "label-missing-target"
  | "leaf-missing-target"
  | "leaf-is-idless"
  | "schema"
  | "hx-refused"
  | "v4-refused"
  | "v4-torn-tail";

export interface Diagnostic {
  /** 1-based physical line in the file; 0 when the finding concerns the whole file. */
  line: number;
  kind: DiagnosticKind;
  severity: Severity;
  message: string;
  entryId?: string;
}

/** What became of each physical line. Every line of the input gets exactly one. */
export type LineKind = "header" | "entry" | "blank" | "unreadable" | "extra-header";

export interface LineAccount {
  total: number;
  header: number;
  entry: number;
  blank: number;
  unreadable: number;
  "extra-header": number;
}

export interface ModelRef {
  provider?: unknown;
  modelId?: unknown;
}

export interface ContextSettings {
  model: ModelRef | null;
  thinkingLevel: unknown;
  /** Harness only; the coding agent has no such setting. */
  activeToolNames?: unknown[] | null;
}

/** One message of a projected context, with where it came from. */
export interface ContextMessage {
  message: JsonObject;
  entryId: string;
  /** stored: the entry's own message object; synthesized: built by pi from the entry; retainedTail: item of a compaction's retainedTail; systemMessage: a compaction's stored systemMessage (pi ≥ 0.86). */
  source: "stored" | "synthesized" | "retainedTail" | "systemMessage";
  tailIndex?: number;
  /** pi ≥ 0.87: the context_edit entry whose replacement this message carries */
  editedBy?: string;
}

export interface SessionContext extends ContextSettings {
  entryIds: string[];
  messages: ContextMessage[];
}

/** A question pi cannot answer: it throws, or never returns (a parent cycle). */
export class SessionQueryError extends Error {
  constructor(
    readonly kind: "not-found" | "cycle" | "invalid",
    message: string,
  ) {
    super(message);
    this.name = "SessionQueryError";
  }
}
