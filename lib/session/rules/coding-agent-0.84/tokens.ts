/**
 * pi's context size accounting (pi-coding-agent dist/core/compaction/compaction.js;
 * the harness's copy differs only in how it stringifies tool arguments): the
 * last valid assistant usage, plus chars/4 for every message after it.
 * Ported with pi's JavaScript semantics: a message pi cannot measure (content
 * null, a block without text) throws here as it throws in pi.
 */
import { calculateContextTokens } from "../../context-tokens";
import type { JsonObject } from "../../types";

export { calculateContextTokens };

export interface TokenEstimate {
  /** usageTokens + trailingTokens: what pi compares with the window */
  tokens: number;
  /** calculateContextTokens of the last valid assistant usage; 0 without one */
  usageTokens: number;
  /** the chars/4 estimate of the messages after it (of all messages without one) */
  trailingTokens: number;
  /** index in the context's messages of the assistant message whose usage counts; null: none */
  lastUsageIndex: number | null;
}

export interface CompactionSettings {
  enabled: boolean;
  /** room kept free for the reply: pi compacts once the context passes window − reserve */
  reserveTokens: number;
  /** how much of the recent conversation a compaction keeps verbatim */
  keepRecentTokens: number;
}

export const DEFAULT_COMPACTION_SETTINGS: CompactionSettings = { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 };

/** What sets one pi version's count apart. */
export interface TokenRules {
  /** system messages count (pi-coding-agent ≥ 0.87); before, they count 0 */
  system: boolean;
  /** tool arguments that do not stringify count as "undefined" / "[unserializable]" (the harness) instead of throwing */
  safeJson: boolean;
}

export const CODING_AGENT_TOKENS: TokenRules = { system: false, safeJson: false };

const ESTIMATED_IMAGE_CHARS = 4800;

// pi's accounting reads fields without checking them; `any` keeps its JavaScript semantics (NaN, TypeError) exactly
/* eslint-disable @typescript-eslint/no-explicit-any */

function assistantUsage(msg: any): unknown {
  if (msg.role === "assistant" && "usage" in msg) {
    if (msg.stopReason !== "aborted" && msg.stopReason !== "error" && msg.usage && calculateContextTokens(msg.usage) > 0) return msg.usage;
  }
  return undefined;
}

function textAndImageChars(content: any): number {
  if (typeof content === "string") return content.length;
  let chars = 0;
  for (const block of content) {
    if (block.type === "text" && block.text) chars += block.text.length;
    else if (block.type === "image") chars += ESTIMATED_IMAGE_CHARS;
  }
  return chars;
}

function safeJsonStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "undefined";
  } catch {
    return "[unserializable]";
  }
}

/** estimateTokens: one message's size by pi's chars/4 heuristic (images as 4,800 characters). */
export function estimateTokens(message: any, rules: TokenRules): number {
  let chars = 0;
  switch (message.role) {
    case "user":
      return Math.ceil(textAndImageChars(message.content) / 4);
    case "assistant":
      for (const block of message.content) {
        if (block.type === "text") chars += block.text.length;
        else if (block.type === "thinking") chars += block.thinking.length;
        else if (block.type === "toolCall")
          chars += block.name.length + (rules.safeJson ? safeJsonStringify(block.arguments) : (JSON.stringify(block.arguments) as any)).length;
      }
      return Math.ceil(chars / 4);
    case "custom":
    case "toolResult":
      return Math.ceil(textAndImageChars(message.content) / 4);
    case "bashExecution":
      return Math.ceil((message.command.length + message.output.length) / 4);
    case "branchSummary":
    case "compactionSummary":
      return Math.ceil(message.summary.length / 4);
    case "system": {
      if (!rules.system) return 0;
      chars = textAndImageChars(message.content);
      if (message.sections) for (const section of Object.values(message.sections) as any[]) if (section) chars += section.length;
      if (message.toolsAdded) chars += JSON.stringify(message.toolsAdded).length;
      return Math.ceil(chars / 4);
    }
  }
  return 0;
}
/* eslint-enable @typescript-eslint/no-explicit-any */

/** estimateContextTokens: the last valid assistant usage plus the estimate of what follows it. */
export function estimateContextTokens(messages: readonly JsonObject[], rules: TokenRules): TokenEstimate {
  let index = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (assistantUsage(messages[i]) !== undefined) {
      index = i;
      break;
    }
  }
  if (index < 0) {
    let estimated = 0;
    for (const message of messages) estimated += estimateTokens(message, rules);
    return { tokens: estimated, usageTokens: 0, trailingTokens: estimated, lastUsageIndex: null };
  }
  const usageTokens = calculateContextTokens(messages[index]!.usage);
  let trailingTokens = 0;
  for (let i = index + 1; i < messages.length; i++) trailingTokens += estimateTokens(messages[i], rules);
  return { tokens: usageTokens + trailingTokens, usageTokens, trailingTokens, lastUsageIndex: index };
}

/** shouldCompact: pi compacts once the context passes the window less the reserve. */
export function shouldCompact(contextTokens: number, contextWindow: number, settings: CompactionSettings): boolean {
  if (!settings.enabled) return false;
  return contextTokens > contextWindow - settings.reserveTokens;
}
