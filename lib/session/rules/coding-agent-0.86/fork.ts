import { forkSession, type ForkOptions, type ForkResult } from "../coding-agent-0.84/fork";
import { isObject, jsonlOf } from "../../json";
import { caBranch } from "../coding-agent-0.84/branch";
import type { SessionTree } from "../session-tree";
import type { JsonObject, SessionHeader } from "../../types";

export interface Ca086ForkResult extends ForkResult {
  /**
   * pi ≥ 0.99 writes the fork at once when the path holds a user or an
   * assistant message (`hasAssistant` is the rule up to 0.87).
   */
  hasConversation: boolean;
}

/**
 * createBranchedSession from pi-coding-agent 0.85 on (checked 0.86.1, 0.87.1,
 * 1.6.0): as 0.84, but a compaction whose firstKeptEntryId names a label entry
 * that the fork drops is re-targeted to the first entry kept after that label
 * (labels are only dropped, so that is the next non-label entry on the path,
 * possibly the compaction itself). From 0.87 a compaction keeping from itself
 * (the default firstKeptEntryId) keeps its own id, which changes nothing here:
 * an entry never shares its id with a label entry on the same path.
 */
export function forkCa086(tree: SessionTree, header: SessionHeader | null, leafId: string, options: ForkOptions = {}): Ca086ForkResult {
  const base = forkSession(tree, header, leafId, options);
  const replacement = new Map<string, string>();
  let pending: string[] = [];
  for (const entry of caBranch(tree, leafId)) {
    if (entry.type === "label") {
      pending.push(entry.id);
      continue;
    }
    for (const labelId of pending) replacement.set(labelId, entry.id);
    pending = [];
  }
  let changed = false;
  const entries = base.entries.map((entry): JsonObject => {
    if (entry.type !== "compaction" || entry.firstKeptEntryId === entry.id) return entry;
    const target = replacement.get(entry.firstKeptEntryId as string);
    if (target === undefined) return entry;
    changed = true;
    return { ...entry, firstKeptEntryId: target };
  });
  const hasConversation = entries.some((e) => e.type === "message" && isObject(e.message) && (e.message.role === "user" || e.message.role === "assistant"));
  if (!changed) return { ...base, hasConversation };
  const text = jsonlOf([base.header, ...entries]);
  return { ...base, entries, text, hasConversation };
}
