/**
 * What a graph card says about one entry: its kind (for the icon), a short
 * text, and flags (error, model). Pure and tolerant: entries are arbitrary
 * JSON, so every field is checked before use.
 */
import type { SessionEntry, SessionTree } from "../session";
import { modelLabel } from "../session/model-label";
import { withoutEscapes } from "../render/ansi";
import { markdownPreview } from "./markdown-preview";
import { isObject } from "../session/json";

export type EntryKind =
  | "user"
  | "assistant"
  | "toolResult"
  | "bashExecution"
  | "custom"
  | "branchSummary"
  | "compaction"
  | "model"
  | "thinking"
  | "label"
  | "sessionInfo"
  | "leaf"
  | "system"
  | "usage"
  | "contextEdit"
  | "unknown";

export interface EntryDescription {
  kind: EntryKind;
  /** short name of the kind, as pi calls it ("user", "compaction", "leaf move"…) */
  title: string;
  /** the first words of the content, whitespace collapsed */
  text: string;
  /** tool calls of an assistant message, as `name(arg)` */
  tools: string[];
  /** a failed tool result, bash exit ≠ 0, an assistant stopped by an error */
  error: boolean;
  /** "provider/model" of a model change or an assistant message */
  model: string | null;
  /** made from the index alone, its words not read yet: the entry's text is still coming (describeFromIndex) */
  coming?: true;
}

const MAX_TEXT = 120;

/** What `\s` and String.prototype.trim treat as white space. */
function isSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}

/**
 * The start of `text` with white space runs collapsed to one space and trimmed, at most `max` characters
 * (the last one "…" when cut). Reads only as far as it needs (tool outputs run to megabytes), and at
 * most max × 4 characters: every card of a big session is described, so no regular expression here.
 */
export function clip(text: string, max = MAX_TEXT): string {
  const stop = Math.min(text.length, max * 4);
  let out = "";
  let run = -1;
  let space = false;
  for (let i = 0; i < stop; i++) {
    if (isSpace(text.charCodeAt(i))) {
      if (run !== -1) {
        out += text.slice(run, i);
        run = -1;
        space = true;
      }
      continue;
    }
    if (run === -1) {
      if (space) out += " ";
      space = false;
      run = i;
    }
    if (out.length + (i - run) >= max) {
      // one character past the limit: the text is cut
      return `${(out + text.slice(run, i + 1)).slice(0, max - 1)}…`;
    }
  }
  if (run !== -1) out += text.slice(run, stop);
  return out;
}

function str(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** Text of a string-or-blocks `content`; images count as "[image]". */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  let length = 0;
  for (const block of content) {
    if (length > MAX_TEXT * 4) break; // enough for a card
    if (!isObject(block)) continue;
    const part = block.type === "text" ? str(block.text) : block.type === "image" ? "[image]" : "";
    if (!part) continue;
    parts.push(part);
    length += part.length;
  }
  return parts.join(" ");
}

const ARG_KEYS = ["path", "file_path", "filePath", "command", "pattern", "query", "url"];

/** `read(src/a.ts)`: the tool name and its most telling argument. */
export function toolCallLabel(name: unknown, args: unknown): string {
  const tool = str(name) || "tool";
  if (!isObject(args)) return `${tool}()`;
  let arg = "";
  for (const key of ARG_KEYS) {
    if (typeof args[key] === "string") {
      arg = args[key];
      break;
    }
  }
  if (!arg) arg = Object.values(args).find((v): v is string => typeof v === "string") ?? "";
  return `${tool}(${clip(arg, 48)})`;
}

/** "provider/model" of a model change or an assistant message (what sets pi's model), else null. */
export function modelOf(entry: SessionEntry): string | null {
  if (entry.type === "model_change") return modelLabel(entry.provider, entry.modelId);
  if (entry.type === "message" && isObject(entry.message) && entry.message.role === "assistant") return modelLabel(entry.message.provider, entry.message.model);
  return null;
}

/** modelOf the entry in `slot`, from the tree's columns. */
export function modelAt(tree: SessionTree, slot: number): string | null {
  const named = tree.modelAt(slot);
  return named && modelLabel(named.provider, named.model);
}

function describeMessage(message: unknown): EntryDescription {
  if (!isObject(message)) return base("unknown", "message", "message entry without a message", true);
  const role = str(message.role);
  switch (role) {
    case "user":
      return base("user", "user", markdownPreview(contentText(message.content)));
    case "assistant": {
      const tools: string[] = [];
      let thinking = false;
      if (Array.isArray(message.content)) {
        for (const block of message.content) {
          if (!isObject(block)) continue;
          if (block.type === "toolCall") tools.push(toolCallLabel(block.name, block.arguments));
          else if (block.type === "thinking") thinking = true;
        }
      }
      const stop = str(message.stopReason);
      let text = markdownPreview(contentText(message.content));
      if (!text && !tools.length) text = str(message.errorMessage) || (thinking ? "(thinking only)" : stop ? `(no text, ${stop})` : "(empty)");
      const out = base("assistant", "assistant", text, stop === "error" || stop === "aborted");
      out.tools = tools;
      out.model = modelLabel(message.provider, message.model);
      return out;
    }
    case "toolResult": {
      const error = message.isError === true;
      // (a terminal's escape codes are not words; only the start of a long output is previewed)
      const text = contentText(message.content);
      return base("toolResult", str(message.toolName) || "tool result", withoutEscapes(text.length > MAX_TEXT * 8 ? text.slice(0, MAX_TEXT * 8) : text), error);
    }
    case "bashExecution": {
      const exit = message.exitCode;
      const failed = message.cancelled === true || (typeof exit === "number" && exit !== 0);
      const status = message.cancelled === true ? " (cancelled)" : typeof exit === "number" && exit !== 0 ? ` (exit ${exit})` : "";
      return base("bashExecution", "bash", `$ ${str(message.command)}${status}`, failed);
    }
    case "custom":
    case "hookMessage":
      return base("custom", str(message.customType) || "custom", markdownPreview(contentText(message.content)));
    case "branchSummary":
      return base("branchSummary", "branch summary", markdownPreview(str(message.summary)));
    case "compactionSummary":
      return base("compaction", "compaction summary", markdownPreview(str(message.summary)));
    case "system":
      return base("system", "system", contentText(message.content));
    default:
      return base("unknown", role || "message", contentText(message.content));
  }
}

/** "1,234 in · 56 out · $0.0123" for a usage record (pi ≥ 0.86); fields are optional there. */
function usageText(usage: unknown): string {
  if (!isObject(usage)) return "(no usage)";
  const n = (value: unknown) => (typeof value === "number" ? value.toLocaleString("en-US") : "?");
  const cost = isObject(usage.cost) && typeof usage.cost.total === "number" ? ` · $${usage.cost.total.toFixed(4)}` : "";
  return `${n(usage.input)} in · ${n(usage.output)} out${cost}`;
}

/** pi ≥ 0.87: a null replacement drops the target's messages from the context, anything else replaces their content. */
function contextEditText(entry: SessionEntry): string {
  const target = str(entry.targetId) || "?";
  const replacement = entry.replacement;
  if (replacement === null) return `removes ${target}`;
  const content = isObject(replacement) ? replacement.content : undefined;
  return `replaces ${target}: ${typeof content === "string" ? content : contentText(content)}`;
}

function base(kind: EntryKind, title: string, text: string, error = false): EntryDescription {
  return { kind, title, text: clip(text), tools: [], error, model: null };
}

export function describeEntry(entry: SessionEntry): EntryDescription {
  switch (entry.type) {
    case "message":
      return describeMessage(entry.message);
    case "model_change": {
      const model = modelLabel(entry.provider, entry.modelId);
      const out = base("model", "model", model ?? "(no model)");
      out.model = model;
      return out;
    }
    case "thinking_level_change":
      return base("thinking", "thinking", `thinking ${str(entry.thinkingLevel) || "?"}`);
    case "compaction": {
      const tokens = typeof entry.tokensBefore === "number" ? ` · ${entry.tokensBefore.toLocaleString("en-US")} tokens before` : "";
      return base("compaction", `compaction${tokens}`, markdownPreview(str(entry.summary)));
    }
    case "branch_summary":
      return base("branchSummary", "branch summary", markdownPreview(str(entry.summary)) || "(empty summary: no message)");
    case "custom_message":
      return base("custom", str(entry.customType) || "custom message", markdownPreview(contentText(entry.content)));
    case "custom":
      return base("custom", "extension state", str(entry.customType) || "custom");
    case "label": {
      const label = str(entry.label);
      return base("label", "label", label ? `“${label}” → ${str(entry.targetId)}` : `clear label of ${str(entry.targetId)}`);
    }
    case "session_info":
      return base("sessionInfo", "session name", str(entry.name) || "(name cleared)");
    case "leaf":
      return base("leaf", "leaf move", typeof entry.targetId === "string" ? `→ ${entry.targetId}` : "→ (before the first entry)");
    case "usage":
      return base("usage", "usage", usageText(entry.usage));
    case "context_edit":
      return base("contextEdit", "context edit", contextEditText(entry));
    default:
      return base("unknown", typeof entry.type === "string" ? entry.type : "(no type)", "");
  }
}

/** A lookup table without a prototype: a type or role named "constructor" or "toString" is no kind. */
function kindTable(kinds: Record<string, EntryKind>): Record<string, EntryKind | undefined> {
  return Object.assign(Object.create(null) as Record<string, EntryKind | undefined>, kinds);
}

const TYPE_KINDS = kindTable({
  model_change: "model",
  thinking_level_change: "thinking",
  compaction: "compaction",
  branch_summary: "branchSummary",
  custom_message: "custom",
  custom: "custom",
  label: "label",
  session_info: "sessionInfo",
  leaf: "leaf",
  usage: "usage",
  context_edit: "contextEdit",
});
const ROLE_KINDS = kindTable({
  user: "user",
  assistant: "assistant",
  toolResult: "toolResult",
  bashExecution: "bashExecution",
  custom: "custom",
  hookMessage: "custom",
  branchSummary: "branchSummary",
  compactionSummary: "compaction",
  system: "system",
});

/** The kind of the entry in `slot` (what kindOf says), from the tree's columns: no entry object is read. */
export function kindAt(tree: SessionTree, slot: number): EntryKind {
  const type = tree.typeAt(slot);
  if (type === "message") {
    const role = tree.roleAt(slot);
    return (role !== undefined && ROLE_KINDS[role]) || "unknown";
  }
  return (type !== undefined && TYPE_KINDS[type]) || "unknown";
}

const KIND_TITLES: Record<EntryKind, string> = {
  user: "user",
  assistant: "assistant",
  toolResult: "tool result",
  bashExecution: "bash",
  custom: "custom",
  branchSummary: "branch summary",
  compaction: "compaction",
  model: "model",
  thinking: "thinking",
  label: "label",
  sessionInfo: "session name",
  leaf: "leaf move",
  system: "system",
  usage: "usage",
  contextEdit: "context edit",
  unknown: "entry",
};

/**
 * What a card says of the entry in `slot` before its text has come (a session shown from its snapshot while its
 * lines still come): its kind and model from the index's columns, its words once they are read.
 */
export function describeFromIndex(tree: SessionTree, slot: number): EntryDescription {
  const kind = kindAt(tree, slot);
  const title = kind === "unknown" ? tree.typeAt(slot) || KIND_TITLES.unknown : KIND_TITLES[kind];
  return { kind, title, text: "", tools: [], error: false, model: modelAt(tree, slot), coming: true };
}

/** The kind alone (what describeEntry(entry).kind says), without reading any text. */
export function kindOf(entry: SessionEntry): EntryKind {
  if (entry.type === "message") {
    const role = isObject(entry.message) ? entry.message.role : undefined;
    return (typeof role === "string" && ROLE_KINDS[role]) || "unknown";
  }
  return (typeof entry.type === "string" && TYPE_KINDS[entry.type]) || "unknown";
}

/** Role counts of a folded run: what a segment card summarises. */
export interface KindCounts {
  user: number;
  assistant: number;
  tool: number;
  other: number;
}

export function countKinds(kinds: Iterable<EntryKind>): KindCounts {
  const counts: KindCounts = { user: 0, assistant: 0, tool: 0, other: 0 };
  for (const kind of kinds) {
    if (kind === "user") counts.user++;
    else if (kind === "assistant") counts.assistant++;
    else if (kind === "toolResult" || kind === "bashExecution") counts.tool++;
    else counts.other++;
  }
  return counts;
}
