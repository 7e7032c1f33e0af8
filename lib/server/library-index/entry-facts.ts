// What every library index keeps of an entry line, whatever engine holds it: which lines are entries, an entry's
// columns (role, model, tools, time, parent), where the file's leaf is, which entries lie on the path to it, and
// what the problems say of an id used again. SQLite's index (sqlite/index-file.ts) and the archive's push
// (postgres/derived-rows.ts) both derive their rows here, so that both answer alike.
import { isObject } from "@/lib/session/json";
import { modelLabel } from "@/lib/session/model-label";

/** An entry's columns, as the filters and facets take them. */
export interface EntryFacts {
  parentId: string | null;
  /** ms, null when the entry has no time */
  time: number | null;
  /** the message's role, else the entry's type */
  role: string | null;
  /** an assistant message's model as every view names it ("provider/model") */
  model: string | null;
  /** the tools the entry calls or answers, in order */
  tools: string[];
}

/** Whether a parsed line is an entry the index keeps (not a header, not a v4 record other than an entry). */
export function isIndexedEntry(value: unknown): value is Record<string, unknown> {
  return isObject(value) && value.type !== "session" && (value.kind === undefined || value.kind === "entry");
}

/** What entryFingerprint takes for an entry's id: a non-empty string, else none. */
export function entryIdOf(value: Record<string, unknown>): string | null {
  return typeof value.id === "string" && value.id !== "" ? value.id : null;
}

/** The file's leaf once `value` is read: a `leaf` entry's target, else the entry itself when it has an id. */
export function leafAfter(value: Record<string, unknown>, entryId: string | null, leaf: string | null): string | null {
  if (value.type === "leaf") return typeof value.targetId === "string" ? value.targetId : null;
  return entryId ?? leaf;
}

export function entryFacts(value: Record<string, unknown>): EntryFacts {
  const message = isObject(value.message) ? value.message : null;
  const role = message && typeof message.role === "string" ? message.role : typeof value.type === "string" ? value.type : null;
  // named as every view names it, so a model filter takes what the facets and the usage page show
  const model = message?.role === "assistant" ? modelLabel(message.provider, message.model) : null;
  const time = typeof value.timestamp === "string" ? Date.parse(value.timestamp) : typeof value.timestamp === "number" ? value.timestamp : NaN;
  const parentId = typeof value.parentId === "string" ? value.parentId : null;
  return { parentId, time: Number.isNaN(time) ? null : time, role, model, tools: toolsOf(message) };
}

function toolsOf(message: Record<string, unknown> | null): string[] {
  if (!message) return [];
  if (message.role === "toolResult" && typeof message.toolName === "string") return [message.toolName];
  if (message.role === "bashExecution") return ["bash"];
  if (message.role !== "assistant" || !Array.isArray(message.content)) return [];
  return message.content.flatMap((block) => (isObject(block) && block.type === "toolCall" && typeof block.name === "string" ? [block.name] : []));
}

/**
 * The ids on the path from `leaf` to its root, `parents` holding each id's parent (the last line of an id counts,
 * as in pi); a cycle ends the walk.
 */
export function activePath(parents: ReadonlyMap<string, string | null>, leaf: string | null): Set<string> {
  const onPath = new Set<string>();
  for (let at = leaf; at !== null && at !== undefined && parents.has(at) && !onPath.has(at); at = parents.get(at)!) onPath.add(at);
  return onPath;
}

/** What the problems say of a line whose id an earlier line of its file holds with other content (as the viewer says it). */
export function reusedIdMessage(entryId: string, earlierLine: number | null): string {
  const where = earlierLine === null ? "earlier in the file" : `on line ${earlierLine}`;
  return `id ${JSON.stringify(entryId)} was already used ${where} with other content; this line replaces it (pi: the last line wins); both are searched and counted`;
}
