import { isObject } from "../../json";
import { roleReadError } from "../../tree/path-state";
import type { SessionTree } from "../session-tree";
import { SessionQueryError, type ContextMessage, type JsonObject, type ModelRef, type SessionContext, type TreeEntry } from "../../types";
import { customMessage, summaryMessages } from "../coding-agent-0.84/context";
import { hxBranch } from "./branch";

/** The harness's messages for one context entry (no null-content fix; retainedTail inlined). */
export function hxMessages(entry: TreeEntry): ContextMessage[] {
  if (entry.type === "message") return [{ entryId: entry.id, source: "stored", message: entry.message as JsonObject }];
  if (entry.type === "custom_message") return [{ entryId: entry.id, source: "synthesized", message: customMessage(entry, entry.content) }];
  const out = summaryMessages(entry);
  if (entry.type === "compaction" && Array.isArray(entry.retainedTail)) {
    entry.retainedTail.forEach((message, tailIndex) => out.push({ entryId: entry.id, source: "retainedTail", tailIndex, message: message as JsonObject }));
  }
  return out;
}

/** The harness's `defaultContextEntryTransform` over its (truncated) path. */
export function hxContextEntries(path: TreeEntry[]): TreeEntry[] {
  let compactionIdx = -1;
  for (let i = 0; i < path.length; i++) if (path[i]!.type === "compaction") compactionIdx = i;
  if (compactionIdx < 0) return [...path];
  const compaction = path[compactionIdx]!;
  const firstIdx = path.findIndex((e) => e.type === "compaction" && e.id === compaction.id);
  const out = [compaction];
  if (!compaction.retainedTail && compaction.firstKeptEntryId) {
    const start = path.findIndex((e, i) => i < firstIdx && e.id === compaction.firstKeptEntryId);
    if (start >= 0) out.push(...path.slice(start, firstIdx));
  }
  out.push(...path.slice(firstIdx + 1));
  return out;
}

/** The settings the harness's context walk restores along a path: thinking level, model, active tools. */
export function harnessSettings(path: readonly TreeEntry[]): Pick<SessionContext, "model" | "thinkingLevel" | "activeToolNames"> {
  let thinkingLevel: unknown = "off";
  let model: ModelRef | null = null;
  let activeToolNames: unknown[] | null = null;
  for (const entry of path) {
    const error = roleReadError(entry);
    if (error) throw new SessionQueryError("invalid", error);
    if (entry.type === "thinking_level_change") thinkingLevel = entry.thinkingLevel;
    else if (entry.type === "model_change") model = { provider: entry.provider, modelId: entry.modelId };
    else if (entry.type === "message" && isObject(entry.message) && entry.message.role === "assistant") {
      model = { provider: entry.message.provider, modelId: entry.message.model };
    } else if (entry.type === "active_tools_change") activeToolNames = Array.isArray(entry.activeToolNames) ? [...entry.activeToolNames] : [];
  }
  return { model, thinkingLevel, activeToolNames };
}

/** The harness's `buildSessionContext` at `id` (spec §8–§9). */
export function hxContext(tree: SessionTree, id: string | null): SessionContext {
  const path = hxBranch(tree, id);
  const settings = harnessSettings(path);
  const entries = hxContextEntries(path);
  return { entryIds: entries.map((e) => e.id), messages: entries.flatMap((e) => hxMessages(tree.full(e))), ...settings };
}
