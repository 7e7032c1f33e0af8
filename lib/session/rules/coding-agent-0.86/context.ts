import { isObject } from "../../json";
import { roleReadError } from "../../tree/path-state";
import type { SessionTree } from "../session-tree";
import { SessionQueryError, type ContextMessage, type JsonObject, type SessionContext, type TreeEntry } from "../../types";
import { caBranch } from "../coding-agent-0.84/branch";
import { caContextEntries, caMessages, stateAt } from "../coding-agent-0.84/context";

/**
 * The coding agent's context from 0.86 on (pi-coding-agent 0.86.1,
 * dist/core/session-manager.js; 0.87 builds on it). The path and the settings
 * walk are the same as 0.84's; what changed: stored `system` messages (the
 * prompt and tool loadout) are skipped in a compaction's kept range, a
 * `system` message without content gets `""`, and a compaction that stored a
 * `systemMessage` yields it before its summary.
 */

function isSystemMessageEntry(entry: TreeEntry): boolean {
  if (entry.type !== "message") return false;
  // pi reads `entry.message.role` unguarded here
  const error = roleReadError(entry);
  if (error) throw new SessionQueryError("invalid", error);
  return isObject(entry.message) && entry.message.role === "system";
}

/** buildContextEntries (≥ 0.86): as 0.84, without system messages in the kept range. */
export function ca086ContextEntries(tree: SessionTree, id: string): TreeEntry[] {
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
export function ca086Messages(entry: TreeEntry): ContextMessage[] {
  if (entry.type === "message" && isObject(entry.message) && entry.message.role === "system" && entry.message.content == null) {
    return [{ entryId: entry.id, source: "synthesized", message: { ...entry.message, content: "" } }];
  }
  const out = caMessages(entry);
  if (entry.type === "compaction" && entry.systemMessage) {
    return [{ entryId: entry.id, source: "systemMessage", message: entry.systemMessage as JsonObject }, ...out];
  }
  return out;
}

/** buildSessionContext with `id` as the leaf, each context entry's messages made by `messagesOf`; null: before any entry. */
export function contextWith(tree: SessionTree, id: string | null, messagesOf: (entries: TreeEntry[]) => ContextMessage[]): SessionContext {
  if (id === null) return { entryIds: [], messages: [], model: null, thinkingLevel: "off" };
  const state = stateAt(tree, id);
  if (state.error) throw new SessionQueryError("invalid", state.error);
  const entries = ca086ContextEntries(tree, id);
  return { entryIds: entries.map((e) => e.id), messages: messagesOf(entries), model: state.model, thinkingLevel: state.thinkingLevel };
}

/** buildSessionContext (0.86) with `id` as the leaf; null: before any entry. */
export function ca086Context(tree: SessionTree, id: string | null): SessionContext {
  return contextWith(tree, id, (entries) => entries.flatMap((entry) => ca086Messages(tree.full(entry))));
}
