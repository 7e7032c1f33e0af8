// One line of a session file as the library takes it: a JSON value, a blank line, or why it cannot be read: longer
// than the limit, not UTF-8, not JSON, or nested deeper than any code that walks it could follow (json-depth.ts).
// What the index names as a problem and the file digest leaves out; what is read past this is safe to walk.
import { MAX_JSON_DEPTH, nestsDeeperThan } from "@/lib/library/json-depth";
import type { FileLine } from "./file-lines";
import { formatLimit } from "./line-limit";

export type ParsedLine = { value: unknown } | { blank: true } | { problem: string };

// fatal: a byte sequence that is not UTF-8 is named rather than read as U+FFFD (what the line says is then unknown)
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** `line` (fileLines') read as JSON; `maxLine`: the limit it was read with, for the problem's words. */
export function parseLine(line: Pick<FileLine, "bytes" | "length">, maxLine: number): ParsedLine {
  if (line.bytes === null)
    return { problem: `the line is ${formatLimit(line.length)}, longer than a line may be (${formatLimit(maxLine)}, PI_VIEWER_MAX_LINE_MB)` };
  let text: string;
  try {
    text = decoder.decode(line.bytes);
  } catch {
    return { problem: "the line is not valid UTF-8" };
  }
  if (!text.trim()) return { blank: true };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) };
  }
  if (nestsDeeperThan(value, MAX_JSON_DEPTH)) return { problem: `the line nests deeper than ${MAX_JSON_DEPTH} levels` };
  return { value };
}
