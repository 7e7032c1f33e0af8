/**
 * The Context tab's facts about one entry taken as the leaf: each context
 * entry with the messages it yields (or why it yields none), what compaction
 * cut from the path, and what the model is sent (pi's convertToLlm and token
 * count, modelView). Pure; the answers themselves come from the core — this
 * only arranges them.
 */
import { modelView, type ContextMessage, type JsonObject, type ModelRef, type ModelView, type RuleSet, type Session, type TreeEntry } from "@/lib/session";
import type { TreePath, Usage } from "@/lib/session";

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
  /** the context after convertToLlm, each message's estimateTokens, and pi's estimate of the whole */
  view: ModelView;
  /** root → the entry, by the session's rules */
  path: TreePath;
  /** path entries the context leaves out (listed when asked for: a deep path's are hundreds of thousands), and the compaction whose summary stands for them */
  cut: { compactionId: string | null; count: number; entries(): readonly TreeEntry[] } | null;
  usage: { depth: number; usage: Usage } | null;
}

/** Throws what `session.context(id)` throws (SessionQueryError). */
export function contextModel(session: Session, id: string): ContextModel {
  const view = modelView(session, id);
  const path = session.sharedBranch(id);
  const context = view.context;
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
  return {
    rules: session.rules,
    readerReason: session.rulesChoice.reason,
    model: context.model,
    thinkingLevel: context.thinkingLevel,
    activeToolNames: context.activeToolNames,
    entries,
    messageCount: context.messages.length,
    view,
    path,
    cut: cutEntries(session, id, entries),
    usage: safe(() => session.pathSummary(id)),
  };
}

/** Entries of the full root→id path that are not among the context entries. */
function cutEntries(session: Session, id: string, entries: ContextEntryView[]): ContextModel["cut"] {
  // the harness's own path already stops at a compaction; the full path shows what lies behind it.
  // The graph's overlay asked the session the same question on selection: its answer is remembered.
  const head = entries[0]?.entry;
  const compactionId = head?.type === "compaction" ? head.id : null;
  const cut = safe(() => session.cutFromContext(id));
  if (cut) return cut.size === 0 ? null : { compactionId, count: cut.size, entries: () => cut.entries };
  const listed = cutFromReaderPath(session, id, entries);
  return listed.length === 0 ? null : { compactionId, count: listed.length, entries: () => listed };
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

function safe<T>(run: () => T): T | null {
  try {
    return run();
  } catch {
    return null; // the caller shows the query's own error, from session.context
  }
}
