import type { JsonObject } from "./types";

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function isNonEmptyString(value: unknown): value is string {
  return typeof value === "string" && value.length > 0;
}

/** pi compares timestamps through `new Date(x).getTime()`; NaN for anything unparsable. */
export function timeOf(value: unknown): number {
  return new Date(value as string).getTime();
}

/**
 * The text of a message's `content`: the string itself, or its text blocks joined with spaces (how pi's session
 * list reads a first message); "" for anything else.
 */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter((block): block is { type: "text"; text: string } => isObject(block) && block.type === "text" && typeof block.text === "string")
    .map((block) => block.text)
    .join(" ");
}

/** JSONL as pi writes it: one `JSON.stringify` per line, each ended by "\n". */
export function jsonlOf(lines: readonly unknown[]): string {
  return lines.map((line) => `${JSON.stringify(line)}\n`).join("");
}
