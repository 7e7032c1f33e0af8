/**
 * pi-coding-agent ≥ 0.87's estimateProjectedContextTokens (dist/core/compaction/compaction.js):
 * a usage recorded before the branch's latest context_edit or compaction no
 * longer describes the context, so pi then estimates every message instead,
 * the system messages folded into one (pi-ai's getCurrentSystemMessage).
 */
import { estimateContextTokens, estimateTokens, type TokenEstimate, type TokenRules } from "../coding-agent-0.84/tokens";
import type { ContextMessage, JsonObject, TreeEntry } from "../../types";

export const CODING_AGENT_087_TOKENS: TokenRules = { system: true, safeJson: false };

/* eslint-disable @typescript-eslint/no-explicit-any -- pi-ai reads these fields unchecked; so does this port */

/** pi-ai's contentText: a string, or the text blocks joined with newlines. */
function contentText(content: any): string {
  if (typeof content === "string") return content;
  return content
    .filter((block: any) => block.type === "text")
    .map((block: any) => block.text)
    .join("\n");
}

/** pi-ai's getCurrentTools: tools after every system message's removals and additions, in order. */
function currentTools(messages: readonly JsonObject[]): unknown[] {
  const tools = new Map<unknown, unknown>();
  for (const message of messages as any[]) {
    if (message.role !== "system") continue;
    for (const tool of message.toolsRemoved ?? []) tools.delete(tool.name);
    for (const tool of message.toolsAdded ?? []) tools.set(tool.name, tool);
  }
  return [...tools.values()];
}

/** pi-ai's getCurrentSystemMessage: every system message replayed into one (content appended, sections patched). */
export function currentSystemMessage(messages: readonly JsonObject[]): JsonObject | undefined {
  const content: string[] = [];
  const sections = new Map<string, unknown>();
  let timestamp: unknown;
  for (const message of messages as any[]) {
    if (message.role !== "system") continue;
    timestamp ??= message.timestamp;
    const text = contentText(message.content);
    if (text.length > 0) content.push(text);
    for (const [name, value] of Object.entries(message.sections ?? {})) {
      if (value === null) sections.delete(name);
      else sections.set(name, value);
    }
  }
  const tools = currentTools(messages);
  if (timestamp === undefined && tools.length === 0) return undefined;
  return {
    role: "system",
    content: content.join("\n\n"),
    ...(sections.size > 0 ? { sections: Object.fromEntries(sections) as JsonObject } : {}),
    ...(tools.length > 0 ? { toolsAdded: tools as JsonObject[] } : {}),
    timestamp: (timestamp ?? 0) as number,
  };
}
/* eslint-enable @typescript-eslint/no-explicit-any */

/**
 * The context size at a leaf: `messages` are the context's (each with the entry
 * it came from), `path` the branch root → leaf.
 */
export function estimateProjectedContextTokens(messages: readonly ContextMessage[], branch: () => readonly TreeEntry[]): TokenEstimate {
  const plain = messages.map((m) => m.message);
  const estimate = estimateContextTokens(plain, CODING_AGENT_087_TOKENS);
  if (estimate.lastUsageIndex !== null) {
    const usageEntryId = messages[estimate.lastUsageIndex]!.entryId;
    const path = branch();
    const usageEntryIndex = path.findIndex((entry) => entry.id === usageEntryId);
    let latestInvalidating = -1;
    for (let i = path.length - 1; i >= 0; i--) {
      const type = path[i]!.type;
      if (type === "context_edit" || type === "compaction") {
        latestInvalidating = i;
        break;
      }
    }
    if (usageEntryIndex > latestInvalidating) return estimate;
  }
  const system = currentSystemMessage(plain);
  let tokens = system ? estimateTokens(system, CODING_AGENT_087_TOKENS) : 0;
  for (const message of plain) if (message.role !== "system") tokens += estimateTokens(message, CODING_AGENT_087_TOKENS);
  return { tokens, usageTokens: 0, trailingTokens: tokens, lastUsageIndex: null };
}
