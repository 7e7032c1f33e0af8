/**
 * "Show me where": what redacting a JSONL session would mask, and where, without
 * changing it. It runs the very code that redacts (same line reading, same walk,
 * same rules), so its counts are the counts the redacted file will report.
 */
import { readLine } from "@/lib/session/read/lines";
import { mapJsonStrings, type JsonContainer, type StringVisitor } from "./map-json-strings";
import { BUILT_IN_RULES, redactString, totalCount, type OnRedaction, type RedactionCounts, type RedactionRules } from "./redact";

export interface RedactionHit {
  rule: string;
  /** 1-based line in the JSONL */
  line: number;
  entryId: string | null;
  /** where in the line's JSON, as `message.content[0].text` (a key: `details.env{key}`); "" for a line that is not JSON */
  field: string;
  /** single-line text around the match, about CONTEXT_CHARS each side, as it is before redacting */
  before: string;
  match: string;
  after: string;
}

export interface RedactionFindings {
  /** complete, whatever the limit */
  counts: RedactionCounts;
  total: number;
  /** the first `limit` matches, line by line (within a line, in the order the rules find them) */
  hits: RedactionHit[];
  truncated: boolean;
}

export const CONTEXT_CHARS = 40;
/** a match longer than this (a key block) is shown by its ends */
const MATCH_CHARS = 160;

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function pathSegment(inArray: boolean, key: string): string {
  if (inArray) return `[${key}]`;
  return IDENTIFIER.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

/** `message.content[0].text`: spelled only for the hits shown, from the containers the walk already keeps */
export function jsonPath(container: JsonContainer | null, key: string | null): string {
  const segments: string[] = [];
  for (let at = container, k = key; at !== null && k !== null; k = at.key, at = at.parent) segments.push(pathSegment(at.array, k));
  const path = segments.reverse().join("");
  return path.startsWith(".") ? path.slice(1) : path;
}

const isLowSurrogate = (text: string, at: number) => (text.charCodeAt(at) & 0xfc00) === 0xdc00;

/** text.slice(start, end), widened rather than cutting a character in two */
function sliceWhole(text: string, start: number, end: number): string {
  if (start > 0 && isLowSurrogate(text, start)) start--;
  if (end < text.length && isLowSurrogate(text, end)) end++;
  return text.slice(start, end);
}

function oneLine(text: string): string {
  return text.replace(/[\r\n\t\u2028\u2029]/g, " ");
}

function shownMatch(text: string, start: number, end: number): string {
  if (end - start <= MATCH_CHARS) return oneLine(text.slice(start, end));
  const half = MATCH_CHARS / 2;
  return `${oneLine(sliceWhole(text, start, start + half))}…${oneLine(sliceWhole(text, end - half, end))}`;
}

/** Where the walk is: set before each string so the redaction callback can say where its match is. */
interface Place {
  line: number;
  entryId: string | null;
  text: string;
  container: JsonContainer | null;
  key: string | null;
  isKey: boolean;
}

/** A key is shown as its object's path and `{key}`: its text is the match, shown beside it. */
function fieldOf({ container, key, isKey }: Place): string {
  return isKey ? `${jsonPath(container?.parent ?? null, container?.key ?? null)}{key}` : jsonPath(container, key);
}

function hitAt(place: Place, rule: string, start: number, end: number): RedactionHit {
  const { text } = place;
  return {
    rule,
    line: place.line,
    entryId: place.entryId,
    field: fieldOf(place),
    before: oneLine(sliceWhole(text, Math.max(0, start - CONTEXT_CHARS), start)),
    match: shownMatch(text, start, end),
    after: oneLine(sliceWhole(text, end, Math.min(text.length, end + CONTEXT_CHARS))),
  };
}

function entryIdOf(value: unknown): string | null {
  const id = value !== null && typeof value === "object" ? (value as { id?: unknown }).id : undefined;
  return typeof id === "string" ? id : null;
}

/** Every match the rules would mask in these JSONL lines; the first `limit` of them with their place and context. */
export function findRedactions(lines: readonly string[], rules: RedactionRules = BUILT_IN_RULES, { limit = 500 }: { limit?: number } = {}): RedactionFindings {
  const counts: RedactionCounts = {};
  const hits: RedactionHit[] = [];
  const place: Place = { line: 0, entryId: null, text: "", container: null, key: null, isKey: false };
  const onRedaction: OnRedaction = (rule, start, end) => {
    if (hits.length < limit) hits.push(hitAt(place, rule.name, start, end));
  };
  const visit: StringVisitor = (text, container, key, isKey) => {
    place.text = text;
    place.container = container;
    place.key = key;
    place.isKey = isKey;
    redactString(text, counts, rules, onRedaction);
    return text;
  };
  lines.forEach((line, i) => {
    const read = readLine(line);
    if (read.kind === "blank") return;
    place.line = i + 1;
    place.entryId = read.kind === "value" ? entryIdOf(read.value) : null;
    if (read.kind === "value") mapJsonStrings(read.value, visit);
    else visit(line, null, null, false);
  });
  const total = totalCount(counts);
  return { counts, total, hits, truncated: total > hits.length };
}
