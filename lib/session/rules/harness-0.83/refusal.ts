import { isNonEmptyString, isObject } from "../../json";
import type { SessionParser } from "../../read/parse";

/**
 * Why pi-agent-core 0.83's JSONL storage would refuse this file, worded as it
 * words it (without the file path), or null when it opens it (spec §1–§2, §6).
 */
export function harnessRefusal(parser: SessionParser): string | null {
  const objects = new Map<number, unknown>();
  const tree = parser.tree;
  for (let i = 0; i < tree.entryCount; i++) objects.set(tree.lineAt(i), tree.entryAt(i));
  for (const { line, value } of parser.extraHeaders) objects.set(line, value);
  if (parser.header) objects.set(parser.headerLine, parser.header);

  const nonBlank: number[] = [];
  parser.lineKinds.forEach((kind, i) => {
    if (kind !== "blank") nonBlank.push(i + 1);
  });
  if (nonBlank.length === 0) return "missing session header";

  const first = nonBlank[0]!;
  const headerValue = objects.get(first);
  if (!isObject(headerValue) || headerValue.type !== "session") return "first line is not a valid session header";
  const version = first === parser.headerLine ? parser.rawHeaderVersion : headerValue.version;
  if (version !== 3) return "unsupported session version";
  if (!isNonEmptyString(headerValue.id)) return "session header is missing id";
  if (!isNonEmptyString(headerValue.timestamp)) return "session header is missing timestamp";
  if (!isNonEmptyString(headerValue.cwd)) return "session header is missing cwd";
  if (headerValue.parentSession !== undefined && typeof headerValue.parentSession !== "string") return "session header parentSession must be a string";
  if (headerValue.metadata !== undefined && !isObject(headerValue.metadata)) return "session header metadata must be an object";

  for (let i = 1; i < nonBlank.length; i++) {
    const line = nonBlank[i]!;
    const at = `line ${i + 1}`;
    const reason = parser.unreadable.get(line);
    if (reason === "json") return `${at} is not valid JSON`;
    if (reason === "falsy" || reason === "primitive") return `${at} is not a valid session entry`;
    const entry = objects.get(line);
    if (!isObject(entry)) return `${at} is missing entry type`;
    if (typeof entry.type !== "string") return `${at} is missing entry type`;
    if (!isNonEmptyString(entry.id)) return `${at} is missing entry id`;
    if (entry.parentId !== null && typeof entry.parentId !== "string") return `${at} has invalid parentId`;
    if (!isNonEmptyString(entry.timestamp)) return `${at} is missing timestamp`;
    if (entry.type === "leaf" && entry.targetId !== null && typeof entry.targetId !== "string") return `${at} has invalid targetId`;
  }
  return null;
}
