import { caBranch } from "../coding-agent-0.84/branch";
import { harnessSettings } from "../harness-0.83/context";
import type { SessionTree } from "../session-tree";
import { SessionQueryError, type ContextMessage, type JsonObject, type SessionContext, type TreeEntry } from "../../types";

/**
 * The context pi-agent-core 0.84.1 builds over a v4 log (dist/harness/session/
 * context.js): the settings walk the whole root→leaf path; the entries are the
 * last compaction on it followed by everything after it (the messages it kept
 * travel inside its `retainedTail`; `firstKeptEntryId` plays no part); assistant
 * messages whose stopReason is "deferred" are left out; `custom` entries yield
 * nothing unless an extension registers a projector (none by default).
 */

/** findEntriesOnBranch({start: id, order: "oldestFirst"}): root → id. */
export function v4Branch(tree: SessionTree, id: string): TreeEntry[] {
  if (!tree.get(id)) throw new SessionQueryError("not-found", `Entry not found: ${id}`);
  return caBranch(tree, id);
}

/** defaultContextEntryTransform: the last compaction and what follows it. */
export function v4ContextEntries(path: readonly TreeEntry[]): TreeEntry[] {
  for (let i = path.length - 1; i >= 0; i--) {
    if (path[i]!.type === "compaction") return [path[i]!, ...path.slice(i + 1)];
  }
  return [...path];
}

function summary(entry: TreeEntry, role: "compactionSummary" | "branchSummary"): JsonObject {
  const timestamp = typeof entry.timestamp === "number" ? entry.timestamp : new Date(entry.timestamp as string).getTime();
  return role === "compactionSummary"
    ? { role, summary: entry.summary, tokensBefore: entry.tokensBefore, timestamp }
    : { role, summary: entry.summary, fromId: entry.fromId, timestamp };
}

/** sessionEntryToContextMessages (v4, no projectors). */
export function v4Messages(entry: TreeEntry): ContextMessage[] {
  if (entry.type === "message") {
    const message = entry.message as JsonObject;
    if (message.role === "assistant" && message.stopReason === "deferred") return [];
    return [{ entryId: entry.id, source: "stored", message }];
  }
  if (entry.type === "compaction") {
    const tail = entry.retainedTail;
    if (!Array.isArray(tail)) throw new SessionQueryError("invalid", "TypeError: entry.retainedTail is not iterable");
    return [
      { entryId: entry.id, source: "synthesized", message: summary(entry, "compactionSummary") },
      ...tail.map((message, tailIndex): ContextMessage => ({ entryId: entry.id, source: "retainedTail", tailIndex, message: message as JsonObject })),
    ];
  }
  if (entry.type === "branch_summary" && entry.summary) return [{ entryId: entry.id, source: "synthesized", message: summary(entry, "branchSummary") }];
  return [];
}

/** buildSessionContext(findEntriesOnBranch(id)); null: an empty lane. */
export function v4Context(tree: SessionTree, id: string | null): SessionContext {
  if (id === null) return { entryIds: [], messages: [], model: null, thinkingLevel: "off", activeToolNames: null };
  const path = v4Branch(tree, id);
  // the same settings walk as the 0.83 harness, over the whole root → leaf path
  const settings = harnessSettings(path);
  const entries = v4ContextEntries(path);
  return { entryIds: entries.map((e) => e.id), messages: entries.flatMap(v4Messages), ...settings };
}
