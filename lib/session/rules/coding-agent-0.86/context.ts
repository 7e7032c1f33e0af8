import { caContextEntries, caMessages, stateAt } from "./context";
import { isObject } from "./json";
import { caBranch } from "./path";
import { roleReadError } from "./path-state";
import type { SessionTree } from "./tree";
import { SessionQueryError, type ContextMessage, type JsonObject, type SessionContext, type TreeEntry } from "./types";

/**
 * The coding agent's context from 0.86 on (pi-coding-agent 0.86.1, 0.87.1 and
 * 1.6.0, dist/core/session-manager.js). The path and the settings walk are the
 * same as 0.84's; what changed:
 *
 * 0.86: stored `system` messages (the prompt and tool loadout) are skipped in
 * a compaction's kept range, a `system` message without content gets `""`, and
 * a compaction that stored a `systemMessage` yields it before its summary.
 *
 * 0.87: `context_edit` entries on the context replace the content of an earlier
 * entry's messages (null replacement: the messages are dropped), and only the
 * compaction at the head of the context yields messages — an older compaction
 * inside the kept range no longer adds a second summary.
 */
export type NewerCaRules = "ca-0.86" | "ca-0.87";

function isSystemMessageEntry(entry: TreeEntry): boolean {
  if (entry.type !== "message") return false;
  // pi reads `entry.message.role` unguarded here
  const error = roleReadError(entry);
  if (error) throw new SessionQueryError("invalid", error);
  return isObject(entry.message) && entry.message.role === "system";
}

/** buildContextEntries (≥ 0.86): as 0.84, without system messages in the kept range. */
export function newerCaContextEntries(tree: SessionTree, id: string): TreeEntry[] {
  const state = stateAt(tree, id);
  if (state.compactionId === null) return caBranch(tree, id);
  const entries = caContextEntries(tree, id);
  // [compaction, ...kept range, ...entries after it]: the entries after it are as many as the depths differ
  const after = state.depth - stateAt(tree, state.compactionId).depth;
  const keptEnd = entries.length - after;
  const out = [entries[0]!];
  for (let i = 1; i < keptEnd; i++) if (!isSystemMessageEntry(entries[i]!)) out.push(entries[i]!);
  for (let i = keptEnd; i < entries.length; i++) out.push(entries[i]!);
  return out;
}

/** sessionEntryToContextMessages (≥ 0.86). */
export function newerCaMessages(entry: TreeEntry): ContextMessage[] {
  if (entry.type === "message" && isObject(entry.message) && entry.message.role === "system" && entry.message.content == null) {
    return [{ entryId: entry.id, source: "synthesized", message: { ...entry.message, content: "" } }];
  }
  const out = caMessages(entry);
  if (entry.type === "compaction" && entry.systemMessage) {
    return [{ entryId: entry.id, source: "systemMessage", message: entry.systemMessage as JsonObject }, ...out];
  }
  return out;
}

const EDITABLE_ROLES = new Set(["user", "assistant", "toolResult", "custom"]);

/** projectContextEntry (≥ 0.87): an entry's messages under its latest context_edit on the context. */
export function projectEdited(entry: TreeEntry, edit: TreeEntry | undefined): ContextMessage[] {
  const messages = newerCaMessages(entry);
  if (!edit) return messages;
  const replacement = edit.replacement;
  if (replacement === null) return [];
  if (replacement === undefined) throw new SessionQueryError("invalid", "TypeError: Cannot read properties of undefined (reading 'content')");
  const content = (replacement as { content?: unknown }).content;
  return messages.map((item) => {
    const role = item.message.role;
    if (!EDITABLE_ROLES.has(role as string)) return item;
    const replaced = (role === "assistant" || role === "toolResult") && typeof content === "string" ? [{ type: "text", text: content }] : content;
    return { entryId: item.entryId, source: "synthesized", editedBy: edit.id, message: { ...item.message, content: replaced } };
  });
}

/** The latest context_edit per target among the context entries (later ones on the branch win). */
export function contextEdits(entries: readonly TreeEntry[]): Map<unknown, TreeEntry> {
  const edits = new Map<unknown, TreeEntry>();
  for (const entry of entries) if (entry.type === "context_edit") edits.set(entry.targetId, entry);
  return edits;
}

/** buildSessionContext by the 0.86 or the ≥ 0.87 rules, with `id` as the leaf; null: before any entry. */
export function newerCaContext(tree: SessionTree, id: string | null, rules: NewerCaRules): SessionContext {
  if (id === null) return { entryIds: [], messages: [], model: null, thinkingLevel: "off" };
  const state = stateAt(tree, id);
  if (state.error) throw new SessionQueryError("invalid", state.error);
  const entries = newerCaContextEntries(tree, id);
  let messages: ContextMessage[];
  if (rules === "ca-0.86") messages = entries.flatMap((entry) => newerCaMessages(tree.full(entry)));
  else {
    const edits = contextEdits(entries);
    messages = entries.flatMap((entry, index) => {
      if (entry.type === "compaction" && index > 0) return [];
      const edit = edits.get(entry.id);
      return projectEdited(tree.full(entry), edit && tree.full(edit));
    });
  }
  return { entryIds: entries.map((e) => e.id), messages, model: state.model, thinkingLevel: state.thinkingLevel };
}
