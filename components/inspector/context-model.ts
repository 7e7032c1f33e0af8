/**
 * The Context tab's facts about one entry taken as the leaf: each context
 * entry with the messages it yields (or why it yields none), what compaction
 * cut from the path, and a token estimate. Pure; the answers themselves come
 * from `Session.context` / `contextEntries` — this only arranges them.
 */
import type { ContextMessage, JsonObject, ModelRef, RuleSet, Session, TreeEntry } from "@/lib/session";
import type { Usage } from "@/lib/session";
import { isObject } from "@/lib/session/json";

export interface ContextEntryView {
  entry: TreeEntry;
  messages: ContextMessage[];
  /** why the entry yields no message; null when it yields some */
  unsent: string | null;
}

export interface ContextModel {
  rules: RuleSet;
  readerReason: string;
  model: ModelRef | null;
  thinkingLevel: unknown;
  activeToolNames: unknown[] | null | undefined;
  entries: ContextEntryView[];
  messageCount: number;
  /** characters of message text the model is sent (excluded bash runs left out) */
  chars: number;
  /** chars / 4, rounded up: a rough estimate, not a tokenizer */
  tokens: number;
  images: number;
  /** path entries the context leaves out, and the compaction whose summary stands for them */
  cut: { compactionId: string | null; entries: readonly TreeEntry[] } | null;
  usage: { depth: number; usage: Usage } | null;
}

/** Throws what `session.context(id)` throws (SessionQueryError). */
export function contextModel(session: Session, id: string): ContextModel {
  const context = session.context(id);
  const entries: ContextEntryView[] = [];
  let m = 0;
  const notSent = session.rules.whyNotSent(context.entryIds.flatMap((entryId) => session.tree.get(entryId) ?? []));
  for (const entryId of context.entryIds) {
    const entry = session.tree.get(entryId);
    if (!entry) continue;
    const messages: ContextMessage[] = [];
    while (m < context.messages.length && context.messages[m]!.entryId === entryId) messages.push(context.messages[m++]!);
    entries.push({ entry, messages, unsent: messages.length ? null : (notSent.get(entry.id) ?? unsentReason(entry)) });
  }
  let chars = 0;
  let images = 0;
  for (const item of context.messages) {
    if (excludedReason(item.message)) continue;
    chars += messageText(item.message).length;
    images += imageCount(item.message);
  }
  return {
    rules: session.rules,
    readerReason: session.rulesChoice.reason,
    model: context.model,
    thinkingLevel: context.thinkingLevel,
    activeToolNames: context.activeToolNames,
    entries,
    messageCount: context.messages.length,
    chars,
    tokens: Math.ceil(chars / 4),
    images,
    cut: cutEntries(session, id, entries),
    usage: safe(() => session.pathSummary(id)),
  };
}

/** Entries of the full root→id path that are not among the context entries. */
function cutEntries(session: Session, id: string, entries: ContextEntryView[]): ContextModel["cut"] {
  // the harness's own path already stops at a compaction; the full path shows what lies behind it.
  // The graph's overlay asked the session the same question on selection: its answer is remembered.
  const cut = safe(() => session.cutFromContext(id)) ?? cutFromReaderPath(session, id, entries);
  if (cut.length === 0) return null;
  const head = entries[0]?.entry;
  return { compactionId: head?.type === "compaction" ? head.id : null, entries: cut };
}

/** When the coding agent's walk fails (a parent cycle the reader's own path stops short of): what its path has besides the context. */
function cutFromReaderPath(session: Session, id: string, entries: ContextEntryView[]): readonly TreeEntry[] {
  const kept = new Set(entries.map((e) => e.entry.id));
  return (safe(() => session.branch(id)) ?? []).filter((e) => !kept.has(e.id));
}

/** Why an entry on the context yields no message, whatever the rules (the rules' own reasons come first). */
function unsentReason(entry: TreeEntry): string {
  switch (entry.type) {
    case "usage":
      return "usage record: what a call cost, never sent";
    case "context_edit":
      return `edits ${String(entry.targetId)} in this context; never sent itself`;
    case "model_change":
      return "sets the model; no message";
    case "thinking_level_change":
      return "sets the thinking level; no message";
    case "active_tools_change":
      return "sets the active tools; no message";
    case "label":
      return "label: metadata, never sent";
    case "session_info":
      return "session name: metadata, never sent";
    case "custom":
      return "extension state, never sent";
    case "leaf":
      return "leaf move: navigation record, never sent";
    case "branch_summary":
      return "empty summary: pi sends nothing";
    case "compaction":
      return "compaction without a summary message";
    default:
      return typeof entry.type === "string" ? `unknown type "${entry.type}": kept in the tree, never sent` : "no type: kept in the tree, never sent";
  }
}

/** Why a context message does not reach the model although it is in the list. */
export function excludedReason(message: JsonObject): string | null {
  if (message.role === "bashExecution" && message.excludeFromContext === true) return "!! command: dropped when pi converts the context for the model";
  return null;
}

/** The text a message carries to the model: text, thinking, tool calls (name and arguments), summaries, commands. */
export function messageText(message: JsonObject): string {
  const parts: string[] = [];
  if (typeof message.summary === "string") parts.push(message.summary);
  if (message.role === "bashExecution") parts.push(String(message.command ?? ""), String(message.output ?? ""));
  const content = message.content;
  if (typeof content === "string") parts.push(content);
  else if (Array.isArray(content)) {
    for (const block of content) {
      if (!isObject(block)) continue;
      if (block.type === "text" && typeof block.text === "string") parts.push(block.text);
      else if (block.type === "thinking" && typeof block.thinking === "string") parts.push(block.thinking);
      else if (block.type === "toolCall") parts.push(String(block.name ?? ""), JSON.stringify(block.arguments ?? {}));
    }
  }
  return parts.join("\n");
}

function imageCount(message: JsonObject): number {
  return Array.isArray(message.content) ? message.content.filter((b) => isObject(b) && b.type === "image").length : 0;
}

function safe<T>(run: () => T): T | null {
  try {
    return run();
  } catch {
    return null; // the caller shows the query's own error, from session.context
  }
}
