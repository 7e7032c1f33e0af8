/**
 * Which result answers a tool call, and which call a result answers: pi links them by the call's id
 * (`toolCall.id` = `toolResult.toolCallId`), and writes the results right after the assistant message that made
 * the calls. So a call's result is looked for among the entries below its message, and a result's call among the
 * entries above it, a few dozen entries either way, never over the whole file (pi's export scans every entry).
 */
import { isObject } from "../json";
import type { SessionTree } from "../rules/session-tree";
import type { JsonObject } from "../types";
import { toolCallOf, type ToolCallBlock } from "./tool-view";

export interface ToolLinks {
  /** the result message of a call, by the call's id */
  results: ReadonlyMap<string, JsonObject>;
  /** the call block of a result, by the call's id */
  calls: ReadonlyMap<string, ToolCallBlock>;
}

export const NO_TOOL_LINKS: ToolLinks = { results: new Map(), calls: new Map() };

/** entries looked at below a call's message and above a result; pi writes a turn's results next to its calls */
const REACH = 64;

/** The results of the calls an entry makes and the call of the result it is (entries read in full only when they match). */
export function toolLinksNear(tree: SessionTree, id: string): ToolLinks {
  const entry = tree.get(id);
  if (!entry || entry.type !== "message" || !isObject(entry.message)) return NO_TOOL_LINKS;
  const results = new Map<string, JsonObject>();
  const calls = new Map<string, ToolCallBlock>();
  const role = entry.message.role;
  if (role === "assistant") {
    const wanted = new Set(callIds(entry.message));
    if (!wanted.size) return NO_TOOL_LINKS;
    const queue = [...tree.children(id)];
    for (let seen = 0; seen < REACH && queue.length && wanted.size; seen++) {
      const next = queue.shift()!;
      const light = tree.get(next);
      if (light?.type === "message" && isObject(light.message) && light.message.role === "toolResult") {
        const callId = light.message.toolCallId;
        if (typeof callId === "string" && wanted.has(callId)) {
          const message = tree.full(light).message;
          if (isObject(message)) results.set(callId, message);
          wanted.delete(callId);
        }
      }
      queue.push(...tree.children(next));
    }
  } else if (role === "toolResult" && typeof entry.message.toolCallId === "string") {
    const callId = entry.message.toolCallId;
    let at = tree.parentOf(id);
    for (let seen = 0; at !== null && seen < REACH; seen++, at = tree.parentOf(at)) {
      const light = tree.get(at);
      if (light?.type !== "message" || !isObject(light.message) || light.message.role !== "assistant") continue;
      if (!callIds(light.message).includes(callId)) continue;
      const full = tree.full(light).message;
      const call = isObject(full) && Array.isArray(full.content) ? full.content.map(toolCallOf).find((block) => block?.id === callId) : null;
      if (call) calls.set(callId, call);
      break;
    }
  }
  return { results, calls };
}

/** The links among a list of messages (a context, a transcript): every call and every result they hold. */
export function toolLinksAmong(messages: Iterable<unknown>): ToolLinks {
  const results = new Map<string, JsonObject>();
  const calls = new Map<string, ToolCallBlock>();
  for (const message of messages) {
    if (!isObject(message)) continue;
    if (message.role === "toolResult" && typeof message.toolCallId === "string") results.set(message.toolCallId, message);
    else if (message.role === "assistant" && Array.isArray(message.content))
      for (const block of message.content) {
        const call = toolCallOf(block);
        if (call?.id) calls.set(call.id, call);
      }
  }
  return { results, calls };
}

function callIds(message: JsonObject): string[] {
  if (!Array.isArray(message.content)) return [];
  return message.content.flatMap((block) => (isObject(block) && block.type === "toolCall" && typeof block.id === "string" ? [block.id] : []));
}
