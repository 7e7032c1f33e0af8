/**
 * What a tool call did, read the way pi's own tools record it: one view per built-in tool, from the call's
 * arguments and its result message. The inspector, the transcripts and the share file render these views, so
 * an edit is a diff and a bash run an exit code wherever it is shown.
 *
 * The facts come from pi's tools (dist/core/tools in @earendil-works/pi-coding-agent 1.6.0): an edit's result
 * carries `details.diff` in pi's display format; a bash run that failed ends its text with "Command exited with
 * code N", and a cut output names the file with the whole of it in `details.fullOutputPath`.
 */
import { diffLines } from "diff";
import { isObject } from "../json";
import type { JsonObject } from "../types";

/** A line of a diff: added, removed or unchanged; a gap (`…`) stands for unchanged lines left out. */
export interface DiffLine {
  sign: "+" | "-" | " ";
  /** the line's number in the file (new file for "+", old for "-" and " "), when the diff records it */
  line: number | null;
  text: string;
  gap?: true;
}

interface Base {
  /** the call's id (`toolCall.id`), the link between a call and its result */
  id: string;
  name: string;
  /** the call's arguments as recorded */
  args: JsonObject;
  /** the result message, or null while none is found (a call pi never answered) */
  result: JsonObject | null;
  /** the result's text blocks joined as pi's export joins them */
  output: string;
  /** the result's images (what `read` returns for an image file) */
  images: JsonObject[];
  /** the result is an error (`isError`) */
  failed: boolean;
}

export type ToolView =
  | (Base & { tool: "edit"; path: string | null; diff: DiffLine[] | null; diffFrom: "result" | "arguments" | null })
  | (Base & {
      tool: "read";
      path: string | null;
      firstLine: number;
      lastLine: number | null;
      range: string;
      /** the lines read, without pi's closing note */
      content: string;
      /** pi's note on what was left unread ("[Showing lines 1-2000 of 5000. Use offset=2001 to continue.]") */
      note: string | null;
    })
  | (Base & { tool: "write"; path: string | null; content: string | null; lineCount: number })
  | (Base & {
      /** a shell run: pi's bash, or its powershell (pi ≥ 1.6), the same tool with another shell */
      tool: "bash";
      shell: "bash" | "powershell";
      command: string | null;
      timeout: number | null;
      /** the output without pi's closing status line */
      shown: string;
      exitCode: number | null;
      status: "exited" | "aborted" | "timed out" | "no exit code" | "pending";
      /** pi's truncation note ("[Showing lines 1-2000 of 5000. Full output: /tmp/…]") */
      truncation: string | null;
      fullOutputPath: string | null;
    })
  | (Base & { tool: "grep" | "find" | "ls"; query: string; path: string | null; items: string[]; matches: number; notes: string[] })
  | (Base & { tool: "other" });

export interface ToolCallBlock {
  id: string;
  name: string;
  arguments: JsonObject;
}

/** The tool call block of an assistant message as the view reads it; null for anything that is not one. */
export function toolCallOf(block: unknown): ToolCallBlock | null {
  if (!isObject(block) || block.type !== "toolCall") return null;
  return {
    id: typeof block.id === "string" ? block.id : "",
    name: typeof block.name === "string" ? block.name : "",
    arguments: isObject(block.arguments) ? block.arguments : {},
  };
}

/** The view of one call and its result message (`role: "toolResult"`, or null when there is none). */
export function toolViewOf(call: ToolCallBlock, result: JsonObject | null): ToolView {
  const args = call.arguments;
  const base: Base = {
    id: call.id,
    name: call.name,
    args,
    result,
    output: resultText(result),
    images: resultImages(result),
    failed: result?.isError === true,
  };
  switch (call.name) {
    case "edit":
      return editView(base);
    case "read": {
      const firstLine = lineNumber(args.offset) ?? 1;
      const limit = lineNumber(args.limit);
      const lastLine = limit === null ? null : firstLine + limit - 1;
      const note = base.failed ? null : READ_NOTE.exec(base.output);
      const content = note ? base.output.slice(0, note.index) : base.output;
      return {
        ...base,
        tool: "read",
        path: pathArg(args),
        firstLine,
        lastLine,
        range: readRange(args.offset, args.limit),
        content,
        note: note ? note[1]! : null,
      };
    }
    case "write": {
      const content = typeof args.content === "string" ? args.content : null;
      return { ...base, tool: "write", path: pathArg(args), content, lineCount: content === null ? 0 : content.split("\n").length };
    }
    case "bash":
    case "powershell":
      return bashView(base);
    case "grep":
    case "find":
    case "ls":
      return listView(base, call.name);
    default:
      return { ...base, tool: "other" };
  }
}

/** the note pi's read closes a partial read with */
const READ_NOTE = /\n\n(\[(?:Showing lines|\d+ more lines in file)[^\n]*\])$/;

/** The text blocks of a result joined by newlines, as pi's export shows them. */
export function resultText(result: JsonObject | null): string {
  if (!result) return "";
  const content = result.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter((block): block is JsonObject => isObject(block) && block.type === "text" && typeof block.text === "string")
    .map((block) => block.text as string)
    .join("\n");
}

function resultImages(result: JsonObject | null): JsonObject[] {
  const content = result?.content;
  return Array.isArray(content) ? content.filter((block): block is JsonObject => isObject(block) && block.type === "image") : [];
}

/** pi's tools take `path`; older and other harnesses wrote `file_path` */
function pathArg(args: JsonObject): string | null {
  const value = args.path ?? args.file_path;
  return typeof value === "string" ? value : null;
}

/** A line number as pi's render-utils reads one: a number, or a string of one. */
function lineNumber(value: unknown): number | null {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof n === "number" && Number.isFinite(n) ? n : null;
}

/** `:start` or `:start-end`, as pi writes a read's range after its path ("" when the whole file was read). */
export function readRange(offset: unknown, limit: unknown): string {
  if (offset == null && limit == null) return "";
  const start = offset == null ? 1 : lineNumber(offset);
  if (start === null) return "";
  if (limit == null) return `:${start}`;
  const count = lineNumber(limit);
  if (count === null) return "";
  const end = start + count - 1;
  return `:${start}${end ? `-${end}` : ""}`;
}

function editView(base: Base): ToolView {
  const path = pathArg(base.args);
  const recorded = isObject(base.result?.details) ? base.result.details.diff : undefined;
  if (base.failed) return { ...base, tool: "edit", path, diff: null, diffFrom: null };
  if (typeof recorded === "string" && recorded.length > 0) return { ...base, tool: "edit", path, diff: parsePiDiff(recorded), diffFrom: "result" };
  const edits = editsOf(base.args);
  const diff = edits.length ? diffOfEdits(edits) : [];
  return diff.length ? { ...base, tool: "edit", path, diff, diffFrom: "arguments" } : { ...base, tool: "edit", path, diff: null, diffFrom: null };
}

/** One call's replacements: pi's `edits` list (pi ≥ 0.70), or the single `oldText`/`newText` of older pi. */
function editsOf(args: JsonObject): { oldText: string; newText: string }[] {
  const pair = (value: JsonObject) => {
    const oldText = value.oldText ?? value.old_text ?? value.old_string;
    const newText = value.newText ?? value.new_text ?? value.new_string;
    return typeof oldText === "string" && typeof newText === "string" ? [{ oldText, newText }] : [];
  };
  if (Array.isArray(args.edits)) return args.edits.flatMap((edit) => (isObject(edit) ? pair(edit) : []));
  return pair(args);
}

const NUMBERED = /^(\s*)(\d+) (.*)$/s;
const GAP = /^\s*\.\.\.$/;

/**
 * pi's display diff (edit-diff.ts `generateDiffString`): each line is its sign ("+", "-" or " "), the line's
 * number padded to a width, a space and the text; " …" lines stand for unchanged lines left out. Diffs written
 * before pi numbered its lines are read as sign and text, all or nothing, so a line whose text starts with a
 * number is never misread.
 */
export function parsePiDiff(diff: string): DiffLine[] {
  const raw = diff.split("\n").map((line) => {
    const sign: DiffLine["sign"] = line.startsWith("+") ? "+" : line.startsWith("-") ? "-" : " ";
    return { sign, rest: sign === " " && !line.startsWith(" ") ? line : line.slice(1) };
  });
  const numbered = raw.every(({ rest }) => NUMBERED.test(rest) || GAP.test(rest));
  return raw.map(({ sign, rest }): DiffLine => {
    if (numbered && GAP.test(rest)) return { sign: " ", line: null, text: "...", gap: true };
    const match = numbered ? NUMBERED.exec(rest) : null;
    return match ? { sign, line: Number(match[2]), text: match[3]! } : { sign, line: null, text: rest };
  });
}

/** unchanged lines kept on each side of a change, as pi's own diff keeps them */
const CONTEXT_LINES = 4;

/**
 * The diff of an edit's replacements when its result recorded none (older pi, a result not in the file): line by
 * line with jsdiff, pi's own diff library. Line numbers are unknown (the texts are excerpts of the file), and
 * replacements are separated by a gap.
 */
export function diffOfEdits(edits: readonly { oldText: string; newText: string }[]): DiffLine[] {
  const out: DiffLine[] = [];
  edits.forEach(({ oldText, newText }, n) => {
    if (n > 0) out.push({ sign: " ", line: null, text: "...", gap: true });
    const parts = diffLines(oldText, newText);
    parts.forEach((part, i) => {
      const lines = part.value.split("\n");
      if (lines[lines.length - 1] === "") lines.pop();
      if (part.added || part.removed) {
        for (const text of lines) out.push({ sign: part.added ? "+" : "-", line: null, text });
        return;
      }
      const before = i > 0;
      const after = i < parts.length - 1;
      const keepHead = before ? CONTEXT_LINES : 0;
      const keepTail = after ? CONTEXT_LINES : 0;
      if (!before && !after) return; // nothing changed: pi writes no line
      if (lines.length <= keepHead + keepTail) {
        for (const text of lines) out.push({ sign: " ", line: null, text });
        return;
      }
      for (const text of lines.slice(0, keepHead)) out.push({ sign: " ", line: null, text });
      out.push({ sign: " ", line: null, text: "...", gap: true });
      for (const text of lines.slice(lines.length - keepTail)) out.push({ sign: " ", line: null, text });
    });
  });
  return out;
}

export interface SideBySideRow {
  left: DiffLine | null;
  right: DiffLine | null;
}

/** The diff as two columns: each run of removed lines beside the added lines that replace it. */
export function sideBySide(lines: readonly DiffLine[]): SideBySideRow[] {
  const rows: SideBySideRow[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.sign === " ") {
      rows.push({ left: line, right: line });
      i++;
      continue;
    }
    const removed: DiffLine[] = [];
    const added: DiffLine[] = [];
    while (i < lines.length && lines[i]!.sign === "-") removed.push(lines[i++]!);
    while (i < lines.length && lines[i]!.sign === "+") added.push(lines[i++]!);
    for (let k = 0; k < Math.max(removed.length, added.length); k++) rows.push({ left: removed[k] ?? null, right: added[k] ?? null });
  }
  return rows;
}

const STATUS = /(?:^|\n\n?)(Command exited with code (\d+)|Command aborted|Command timed out after [\d.]+ seconds|Command terminated without an exit code)$/;
const TRUNCATION = /\n*\[(?:Showing [^\]]*?Full output: [^\]]*|Output truncated[^\]]*)\]$/;

function bashView(base: Base): ToolView {
  const command = typeof base.args.command === "string" ? base.args.command : null;
  const timeout = lineNumber(base.args.timeout);
  const details = isObject(base.result?.details) ? base.result.details : {};
  const fullOutputPath = typeof details.fullOutputPath === "string" ? details.fullOutputPath : null;
  let shown = base.output;
  let exitCode: number | null = null;
  let status: "exited" | "aborted" | "timed out" | "no exit code" | "pending" = "pending";
  const closing = STATUS.exec(shown);
  if (closing) {
    shown = shown.slice(0, closing.index);
    const said = closing[1]!;
    if (closing[2] !== undefined) {
      exitCode = Number(closing[2]);
      status = "exited";
    } else status = said.includes("aborted") ? "aborted" : said.includes("timed out") ? "timed out" : "no exit code";
  } else if (base.result) {
    // pi adds no status line to a run that exited 0; an error result without one failed before running
    status = base.failed ? "no exit code" : "exited";
    exitCode = base.failed ? null : 0;
  }
  const note = TRUNCATION.exec(shown);
  const truncation = note
    ? note[0].trim().slice(1, -1)
    : isObject(details.truncation) && details.truncation.truncated === true
      ? "output truncated by pi"
      : null;
  const shell = base.name === "powershell" ? "powershell" : "bash";
  return { ...base, tool: "bash", shell, command, timeout, shown, exitCode, status, truncation, fullOutputPath };
}

/** the notes pi's grep, find and ls close their output with ("[100 matches limit reached. …]") */
const LIST_NOTE = /^\[.*\]$/;
const GREP_MATCH = /^(.+?):(\d+): /;

function listView(base: Base, tool: "grep" | "find" | "ls"): ToolView {
  const args = base.args;
  const path = typeof args.path === "string" ? args.path : null;
  const query = tool === "ls" ? (path ?? ".") : typeof args.pattern === "string" ? args.pattern : "";
  const lines = base.failed ? [] : base.output.split("\n").filter((line) => line.length > 0);
  const notes = lines.filter((line) => LIST_NOTE.test(line));
  const items = lines.filter(
    (line) => !LIST_NOTE.test(line) && line !== "No matches found" && line !== "No files found matching pattern" && line !== "(empty directory)",
  );
  const matches = tool === "grep" ? items.filter((line) => GREP_MATCH.test(line)).length : items.length;
  return { ...base, tool, query, path, items, matches, notes };
}
