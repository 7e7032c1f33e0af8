/**
 * A Markdown transcript of one root→entry path, for reading or sharing outside
 * the viewer. Pure: it formats what the session already holds. Not responsible
 * for what the model saw (that is `Session.context`): compacted-away entries
 * are in the transcript because they are on the path.
 */
import { isObject } from "../json";
import { RULE_SETS } from "../rules/registry";
import type { Session } from "../session";
import type { JsonObject, Reader, TreeEntry } from "../types";

export interface TranscriptOptions {
  /** which reader's path; default the session's own */
  reader?: Reader;
  /** tool results and command outputs longer than this are cut, with a note (default 4000) */
  maxOutputChars?: number;
  /** include thinking blocks, folded in <details> (default true) */
  thinking?: boolean;
}

const DEFAULT_MAX_OUTPUT = 4000;
const TITLE_WORDS = 12;

/**
 * The transcript of `session.branch(id)`: title, session facts, then one
 * section per message; summaries as blockquotes, settings changes as notes.
 * Throws what `branch` throws (SessionQueryError for a cycle or unknown id).
 */
export function transcriptMarkdown(session: Session, id: string, options: TranscriptOptions = {}): string {
  const reader = options.reader ?? session.reader;
  const path = session.branch(id, reader).map((entry) => session.tree.full(entry));
  const format: Format = { maxOutput: options.maxOutputChars ?? DEFAULT_MAX_OUTPUT, thinking: options.thinking ?? true };
  const out: string[] = [`# ${escapeInline(transcriptTitle(session, path))}`, ""];
  out.push(...facts(session, path, id, reader), "");
  for (const entry of path) {
    const section = entrySection(entry, format);
    if (section) out.push(section, "");
  }
  return `${out.join("\n").replace(/\n{3,}/g, "\n\n").trimEnd()}\n`;
}

/** The session name, else the first words of the path's first user message, else the session id. */
export function transcriptTitle(session: Session, path: readonly TreeEntry[]): string {
  if (session.name) return session.name;
  for (const entry of path) {
    const message = entry.type === "message" && isObject(entry.message) ? entry.message : null;
    if (message?.role !== "user") continue;
    const words = plainText(message.content).split(/\s+/).filter(Boolean);
    if (words.length === 0) continue;
    return words.length > TITLE_WORDS ? `${words.slice(0, TITLE_WORDS).join(" ")} …` : words.join(" ");
  }
  const sessionId = session.header?.id;
  return typeof sessionId === "string" ? `Session ${sessionId}` : "Session transcript";
}

interface Format {
  maxOutput: number;
  thinking: boolean;
}

function facts(session: Session, path: readonly TreeEntry[], id: string, reader: Reader): string[] {
  const header = session.header;
  const lines: string[] = [];
  if (typeof header?.id === "string") lines.push(`- Session: \`${header.id}\``);
  if (typeof header?.cwd === "string") lines.push(`- Working directory: \`${header.cwd}\``);
  const model = lastModel(path);
  if (model) lines.push(`- Model: ${model}`);
  lines.push(`- Path: ${path.length} ${path.length === 1 ? "entry" : "entries"}, ending at \`${id}\`${RULE_SETS[reader].pathStopsAtCompaction ? " (harness reader)" : ""}`);
  return lines;
}

function lastModel(path: readonly TreeEntry[]): string | null {
  let model: string | null = null;
  for (const entry of path) {
    if (entry.type === "model_change") model = modelName(entry.provider, entry.modelId);
    else if (entry.type === "message" && isObject(entry.message) && entry.message.role === "assistant") {
      model = modelName(entry.message.provider, entry.message.model) ?? model;
    }
  }
  return model;
}

function modelName(provider: unknown, modelId: unknown): string | null {
  const parts = [provider, modelId].filter((p): p is string => typeof p === "string" && p.length > 0);
  return parts.length ? parts.join("/") : null;
}

function entrySection(entry: TreeEntry, format: Format): string | null {
  switch (entry.type) {
    case "message":
      return isObject(entry.message) ? messageSection(entry.message, format) : "_(message entry without a message)_";
    case "custom_message":
      return `## Custom message${suffix(entry.customType)}\n\n${contentMarkdown(entry.content, format)}`;
    case "compaction":
      return quote(`**Compaction**${typeof entry.tokensBefore === "number" ? ` (${entry.tokensBefore} tokens before)` : ""}`, entry.summary);
    case "branch_summary":
      return entry.summary ? quote(`**Branch summary**${typeof entry.fromId === "string" ? ` (from \`${entry.fromId}\`)` : ""}`, entry.summary) : null;
    case "model_change":
      return `_Model changed to ${modelName(entry.provider, entry.modelId) ?? "(unknown)"}_`;
    case "thinking_level_change":
      return `_Thinking level set to ${String(entry.thinkingLevel)}_`;
    default:
      return null;
  }
}

function messageSection(message: JsonObject, format: Format): string {
  switch (message.role) {
    case "user":
      return `## User\n\n${contentMarkdown(message.content, format)}`;
    case "assistant": {
      const model = modelName(message.provider, message.model);
      const stop = message.stopReason === "error" || message.stopReason === "aborted" || message.stopReason === "length" ? ` — stopped: ${message.stopReason}` : "";
      const error = typeof message.errorMessage === "string" ? `\n\n> Error: ${message.errorMessage}` : "";
      return `## Assistant${model ? ` · ${model}` : ""}${stop}\n\n${contentMarkdown(message.content, format)}${error}`;
    }
    case "toolResult": {
      const name = typeof message.toolName === "string" ? ` \`${message.toolName}\`` : "";
      const status = message.isError === true ? " (error)" : "";
      return `### Tool result${name}${status}\n\n${resultMarkdown(message.content, format)}`;
    }
    case "bashExecution":
      return bashSection(message, format);
    case "custom":
      return `## Custom${suffix(message.customType)}\n\n${contentMarkdown(message.content, format)}`;
    case "branchSummary":
      return quote("**Branch summary**", message.summary);
    case "compactionSummary":
      return quote("**Compaction summary**", message.summary);
    default:
      return `## ${typeof message.role === "string" ? message.role : "Message"}\n\n${fenced(JSON.stringify(message, null, 2), "json")}`;
  }
}

function bashSection(message: JsonObject, format: Format): string {
  const flags: string[] = [];
  if (typeof message.exitCode === "number") flags.push(`exit code ${message.exitCode}`);
  if (message.cancelled === true) flags.push("cancelled");
  if (message.truncated === true) flags.push("output truncated by pi");
  if (message.excludeFromContext === true) flags.push("not sent to the model");
  const output = truncate(typeof message.output === "string" ? message.output : "", format.maxOutput);
  return `## Bash${flags.length ? ` (${flags.join(", ")})` : ""}\n\n${fenced(`$ ${String(message.command ?? "")}\n${output}`, "console")}`;
}

/** User/assistant/custom content: text as Markdown, thinking folded, tool calls as fenced JSON. */
function contentMarkdown(content: unknown, format: Format): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return content == null ? "_(no content)_" : fenced(JSON.stringify(content, null, 2), "json");
  const parts: string[] = [];
  for (const block of content) {
    if (!isObject(block)) continue;
    if (block.type === "text" && typeof block.text === "string") parts.push(block.text);
    else if (block.type === "thinking" && format.thinking && typeof block.thinking === "string") {
      parts.push(`<details>\n<summary>Thinking</summary>\n\n${block.thinking}\n\n</details>`);
    } else if (block.type === "toolCall") {
      parts.push(`**Tool call** \`${String(block.name)}\`\n\n${fenced(JSON.stringify(block.arguments ?? {}, null, 2), "json")}`);
    } else if (block.type === "image") parts.push(imageNote(block));
  }
  return parts.length ? parts.join("\n\n") : "_(no content)_";
}

function resultMarkdown(content: unknown, format: Format): string {
  if (typeof content === "string") return fenced(truncate(content, format.maxOutput));
  if (!Array.isArray(content)) return "_(no content)_";
  const parts: string[] = [];
  for (const block of content) {
    if (!isObject(block)) continue;
    if (block.type === "text" && typeof block.text === "string") parts.push(fenced(truncate(block.text, format.maxOutput)));
    else if (block.type === "image") parts.push(imageNote(block));
  }
  return parts.length ? parts.join("\n\n") : "_(no content)_";
}

function imageNote(block: JsonObject): string {
  const mime = typeof block.mimeType === "string" ? block.mimeType : "image";
  const size = typeof block.data === "string" ? `, ${Math.floor((block.data.length * 3) / 4)} bytes` : "";
  return `_[image: ${mime}${size}]_`;
}

function plainText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter((b): b is JsonObject => isObject(b) && b.type === "text" && typeof b.text === "string")
    .map((b) => b.text as string)
    .join(" ");
}

function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n… (truncated: ${max} of ${text.length} characters shown)`;
}

/** A code fence longer than any backtick run inside, so the content cannot close it. */
function fenced(text: string, lang = ""): string {
  const longest = Math.max(2, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}${lang}\n${text}\n${fence}`;
}

function quote(heading: string, body: unknown): string {
  const text = typeof body === "string" && body.length ? body : "(empty)";
  return [heading, "", ...text.split("\n")].map((line) => (line ? `> ${line}` : ">")).join("\n");
}

function suffix(customType: unknown): string {
  return typeof customType === "string" ? ` (${customType})` : "";
}

function escapeInline(text: string): string {
  return text.replace(/\s+/g, " ").replace(/([\\`*_[\]<>#])/g, "\\$1");
}
