/**
 * One root→entry path as a transcript: its title, the session's facts and one
 * section per entry worth reading, each with a heading and content blocks. The
 * Markdown (lib/export/markdown-transcript.ts) and HTML (lib/export/html-transcript.ts) exports
 * write this same model, so they always tell the same story. Not what the
 * model saw (that is `Session.context`): compacted-away entries are in the
 * transcript because they are on the path.
 */
import { isObject } from "../json";
import { modelLabel } from "../model-label";
import { sessionTitle, TRANSCRIPT_TITLE_CHARS } from "./title";
import { RULE_SETS } from "../rules/registry";
import type { Session } from "../session";
import type { JsonObject, RuleSetId, TreeEntry } from "../types";
import { toolLinksAmong, type ToolLinks } from "./tool-links";
import { toolCallOf, toolViewOf, type ToolView } from "./tool-view";
import { systemChange, systemMessageText, systemUpdateText, toolsAddedBy, toolsRemovedBy, type ToolDeclaration } from "./system-prompt";

export interface TranscriptOptions {
  /** which reader's path; default the session's own */
  reader?: RuleSetId;
  /** tool results and command outputs longer than this are cut, with a note (default 4000) */
  maxOutputChars?: number;
  /** include thinking blocks, folded (default true) */
  thinking?: boolean;
}

/** A heading's pieces: plain text, an identifier (code), or a fact about the entry (meta). The first is the title. */
export type HeadingPart = string | { code: string } | { meta: string };

export type TranscriptBlock =
  /** prose as written (Markdown source) */
  | { type: "text"; text: string }
  | { type: "thinking"; text: string }
  /** a call as its tool means it (`view`), with its result when the path holds it */
  | { type: "toolCall"; name: string; json: string; view: ToolView }
  /** a tool result with what its call asked (a call not on the path: only the result's own facts) */
  | { type: "toolResult"; view: ToolView }
  | { type: "image"; image: JsonObject }
  /**
   * a system message (pi ≥ 0.86): the first on the path is the prompt (its whole text, its tools); a later one
   * changes it (its text as pi frames the change for the model, the tools it adds and removes)
   */
  | { type: "system"; leading: boolean; text: string; tools: ToolDeclaration[]; removed: string[] }
  /** preformatted output, already cut to the limit */
  | { type: "pre"; text: string; lang: string }
  /** something the transcript says about the entry, not its content */
  | { type: "note"; text: string }
  | { type: "error"; text: string };

export interface TranscriptSection {
  entry: TreeEntry;
  /** what the entry is, for styling: user, assistant, toolResult, bashExecution, custom, summary, setting, unknown, error */
  kind: string;
  /** an error result, a failed or stopped reply */
  failed: boolean;
  /** a message is a section; a summary a quote; a setting change or a broken entry one line */
  form: "section" | "quote" | "line";
  /** heading depth in Markdown: tool results sit one level below the turn */
  level: 2 | 3;
  heading: HeadingPart[];
  blocks: TranscriptBlock[];
  label: string | null;
}

export interface Transcript {
  title: string;
  sessionId: string | null;
  cwd: string | null;
  /** the model in force at the entry */
  model: string | null;
  endId: string;
  pathLength: number;
  /** the reader's path stops at a compaction (the harness's), so it may be shorter than the tree's */
  harnessPath: boolean;
  sections: TranscriptSection[];
  /** tool results and outputs longer than this are cut by the writers, with a note */
  maxOutput: number;
}

const DEFAULT_MAX_OUTPUT = 4000;

/** The transcript of `session.branch(id)`. Throws what `branch` throws (SessionQueryError for a cycle or unknown id). */
export function transcriptOf(session: Session, id: string, options: TranscriptOptions = {}): Transcript {
  const reader = options.reader ?? session.reader;
  const path = session.branch(id, reader).map((entry) => session.tree.full(entry));
  const links = toolLinksAmong(path.map((entry) => (entry.type === "message" ? entry.message : null)));
  const format: Format = { maxOutput: options.maxOutputChars ?? DEFAULT_MAX_OUTPUT, thinking: options.thinking ?? true, links, systemSeen: false };
  const labels = session.labels(reader);
  const header = session.header;
  return {
    title: transcriptTitle(session, path),
    sessionId: typeof header?.id === "string" ? header.id : null,
    cwd: typeof header?.cwd === "string" ? header.cwd : null,
    model: modelInForce(session, id, reader) ?? lastModel(path),
    endId: id,
    pathLength: path.length,
    harnessPath: RULE_SETS[reader].pathStopsAtCompaction,
    maxOutput: format.maxOutput,
    sections: path.flatMap((entry) => {
      const section = entrySection(entry, format, labels.get(entry.id)?.label ?? null);
      return section ? [section] : [];
    }),
  };
}

/** The session name, else the first words of the path's first user message, else the session id. */
export function transcriptTitle(session: Session, path: readonly TreeEntry[]): string {
  const title = sessionTitle(session, path, TRANSCRIPT_TITLE_CHARS);
  if (title) return title;
  const sessionId = session.header?.id;
  return typeof sessionId === "string" ? `Session ${sessionId}` : "Session transcript";
}

interface Format {
  maxOutput: number;
  thinking: boolean;
  /** the calls and results on the path, by call id */
  links: ToolLinks;
  /** an entry above on the path carries a system prompt: a system message there is a change to it (pi's export) */
  systemSeen: boolean;
}

/** pi's model at the entry (what its context settles on); null when pi cannot build that context. */
function modelInForce(session: Session, id: string, reader: RuleSetId): string | null {
  try {
    const model = session.context(id, reader).model;
    return model ? modelLabel(model.provider, model.modelId) : null;
  } catch {
    return null; // the path itself is still worth exporting; the error shows in the viewer
  }
}

/** The last model the path names, for a path pi builds no context for. */
function lastModel(path: readonly TreeEntry[]): string | null {
  let model: string | null = null;
  for (const entry of path) {
    if (entry.type === "model_change") model = modelLabel(entry.provider, entry.modelId);
    else if (entry.type === "message" && isObject(entry.message) && entry.message.role === "assistant") {
      model = modelLabel(entry.message.provider, entry.message.model) ?? model;
    }
  }
  return model;
}

function section(
  entry: TreeEntry,
  kind: string,
  heading: HeadingPart[],
  blocks: TranscriptBlock[],
  label: string | null,
  extra: Partial<TranscriptSection> = {},
): TranscriptSection {
  return { entry, kind, failed: false, form: "section", level: 2, heading, blocks, label, ...extra };
}

function entrySection(entry: TreeEntry, format: Format, label: string | null): TranscriptSection | null {
  switch (entry.type) {
    case "message":
      return isObject(entry.message)
        ? messageSection(entry, entry.message, format, label)
        : section(entry, "error", ["Message"], [{ type: "note", text: "(message entry without a message)" }], label, { form: "line" });
    case "custom_message":
      return section(entry, "custom", ["Custom message", ...customSuffix(entry.customType)], contentBlocks(entry.content, format), label);
    case "compaction":
      if (entry.systemMessage) format.systemSeen = true;
      return section(
        entry,
        "summary",
        ["Compaction", ...(typeof entry.tokensBefore === "number" ? [` (${entry.tokensBefore} tokens before)`] : [])],
        summaryBlocks(entry.summary),
        label,
        { form: "quote" },
      );
    case "branch_summary":
      if (!entry.summary) return null;
      return section(
        entry,
        "summary",
        ["Branch summary", ...(typeof entry.fromId === "string" ? [" (from ", { code: entry.fromId }, ")"] : [])],
        summaryBlocks(entry.summary),
        label,
        { form: "quote" },
      );
    case "model_change":
      return section(
        entry,
        "setting",
        ["Model"],
        [{ type: "note", text: `Model changed to ${modelLabel(entry.provider, entry.modelId) ?? "(unknown)"}` }],
        label,
        { form: "line" },
      );
    case "thinking_level_change":
      return section(entry, "setting", ["Thinking"], [{ type: "note", text: `Thinking level set to ${String(entry.thinkingLevel)}` }], label, { form: "line" });
    default:
      return null;
  }
}

function messageSection(entry: TreeEntry, message: JsonObject, format: Format, label: string | null): TranscriptSection {
  switch (message.role) {
    case "user":
      return section(entry, "user", ["User"], contentBlocks(message.content, format), label);
    case "assistant": {
      const model = modelLabel(message.provider, message.model);
      const stopped = message.stopReason === "error" || message.stopReason === "aborted" || message.stopReason === "length";
      const heading: HeadingPart[] = [
        "Assistant",
        ...(model ? [" · ", { meta: model }] : []),
        ...(stopped ? [` — stopped: ${String(message.stopReason)}`] : []),
      ];
      const blocks = contentBlocks(message.content, format);
      if (typeof message.errorMessage === "string") blocks.push({ type: "error", text: message.errorMessage });
      return section(entry, "assistant", heading, blocks, label, { failed: stopped });
    }
    case "toolResult": {
      const failed = message.isError === true;
      const heading: HeadingPart[] = [
        "Tool result",
        ...(typeof message.toolName === "string" ? [" ", { code: message.toolName }] : []),
        ...(failed ? [" (error)"] : []),
      ];
      return section(entry, "toolResult", heading, [{ type: "toolResult", view: resultView(message, format) }], label, { failed, level: 3 });
    }
    case "bashExecution":
      return bashSection(entry, message, format, label);
    case "system":
      return systemSection(entry, message, format, label);
    case "custom":
      return section(entry, "custom", ["Custom", ...customSuffix(message.customType)], contentBlocks(message.content, format), label);
    case "branchSummary":
      return section(entry, "summary", ["Branch summary"], summaryBlocks(message.summary), label, { form: "quote" });
    case "compactionSummary":
      return section(entry, "summary", ["Compaction summary"], summaryBlocks(message.summary), label, { form: "quote" });
    default:
      return section(
        entry,
        "unknown",
        [typeof message.role === "string" ? message.role : "Message"],
        [{ type: "pre", text: JSON.stringify(message, null, 2), lang: "json" }],
        label,
      );
  }
}

function bashSection(entry: TreeEntry, message: JsonObject, format: Format, label: string | null): TranscriptSection {
  const flags: string[] = [];
  if (typeof message.exitCode === "number") flags.push(`exit code ${message.exitCode}`);
  if (message.cancelled === true) flags.push("cancelled");
  if (message.truncated === true) flags.push("output truncated by pi");
  if (message.excludeFromContext === true) flags.push("not sent to the model");
  const output = truncate(typeof message.output === "string" ? message.output : "", format.maxOutput);
  const heading: HeadingPart[] = ["Bash", ...(flags.length ? [` (${flags.join(", ")})`] : [])];
  return section(entry, "bashExecution", heading, [{ type: "pre", text: `$ ${String(message.command ?? "")}\n${output}`, lang: "console" }], label);
}

function systemSection(entry: TreeEntry, message: JsonObject, format: Format, label: string | null): TranscriptSection {
  const leading = !format.systemSeen;
  format.systemSeen = true;
  const change = leading ? "" : systemChange(message);
  const block: TranscriptBlock = leading
    ? { type: "system", leading, text: systemMessageText(message), tools: toolsAddedBy(message), removed: [] }
    : { type: "system", leading, text: systemUpdateText(message), tools: toolsAddedBy(message), removed: toolsRemovedBy(message) };
  return section(entry, "system", [leading ? "System prompt" : "System prompt update", ...(change ? [`: ${change}`] : [])], [block], label);
}

const NO_CONTENT: TranscriptBlock = { type: "note", text: "(no content)" };

/** User, assistant and custom content: text, thinking (unless left out), tool calls, images. */
function contentBlocks(content: unknown, format: Format): TranscriptBlock[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  if (!Array.isArray(content)) return [content == null ? NO_CONTENT : { type: "pre", text: JSON.stringify(content, null, 2), lang: "json" }];
  const blocks: TranscriptBlock[] = [];
  for (const block of content) {
    if (!isObject(block)) continue;
    if (block.type === "text" && typeof block.text === "string") blocks.push({ type: "text", text: block.text });
    else if (block.type === "thinking" && format.thinking && typeof block.thinking === "string") blocks.push({ type: "thinking", text: block.thinking });
    else if (block.type === "toolCall") {
      const call = toolCallOf(block)!;
      const view = toolViewOf(call, format.links.results.get(call.id) ?? null);
      blocks.push({ type: "toolCall", name: String(block.name), json: JSON.stringify(block.arguments ?? {}, null, 2), view });
    } else if (block.type === "image") blocks.push({ type: "image", image: block });
  }
  return blocks.length ? blocks : [NO_CONTENT];
}

/** A tool result as its tool means it, with its call's arguments when the call is on the path. */
function resultView(message: JsonObject, format: Format): ToolView {
  const id = typeof message.toolCallId === "string" ? message.toolCallId : "";
  const call = format.links.calls.get(id) ?? { id, name: typeof message.toolName === "string" ? message.toolName : "", arguments: {} };
  return toolViewOf(call, message);
}

function summaryBlocks(summary: unknown): TranscriptBlock[] {
  return [{ type: "text", text: typeof summary === "string" && summary.length ? summary : "(empty)" }];
}

function customSuffix(customType: unknown): HeadingPart[] {
  return typeof customType === "string" ? [` (${customType})`] : [];
}

/** The text cut to `max` characters, with a note saying how much was left out. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n… (truncated: ${max} of ${text.length} characters shown)`;
}
