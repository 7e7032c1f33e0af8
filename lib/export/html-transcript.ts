/**
 * The selected path as ONE self-contained, inert HTML file: the same entries
 * as the Markdown transcript (`session.branch`, titled by `transcriptTitle`),
 * written as escaped text. No scripts, no links, nothing fetched: the CSP
 * allows only inline style and `data:` images, and the only images are the
 * session's own raster image blocks.
 */
import { isObject } from "@/lib/session/json";
import { RULE_SETS } from "@/lib/session/rules/registry";
import type { Session } from "@/lib/session/session";
import { transcriptTitle, type TranscriptOptions } from "@/lib/session/features/transcript";
import type { JsonObject, Reader, TreeEntry } from "@/lib/session/types";
import { TRANSCRIPT_CSS } from "./html-transcript-style";

export const TRANSCRIPT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

const DEFAULT_MAX_OUTPUT = 4000;
/** raster formats only: an SVG can carry script and external references */
const IMAGE_MIME = /^image\/(png|jpeg|gif|webp|avif|bmp)$/i;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text safe in element content and in double- or single-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

const str = (value: unknown) => (typeof value === "string" ? value : value == null ? "" : String(value));

interface Format {
  maxOutput: number;
  thinking: boolean;
}

/** The transcript of `session.branch(id)` as an HTML document. Throws what `branch` throws. */
export function transcriptHtml(session: Session, id: string, options: TranscriptOptions = {}): string {
  const reader = options.reader ?? session.reader;
  const path = session.branch(id, reader).map((entry) => session.tree.full(entry));
  const format: Format = { maxOutput: options.maxOutputChars ?? DEFAULT_MAX_OUTPUT, thinking: options.thinking ?? true };
  const title = transcriptTitle(session, path);
  const labels = session.labels(reader);
  const sections = path.map((entry) => entrySection(entry, format, labels.get(entry.id)?.label ?? null)).filter((s): s is string => s !== null);
  return [
    "<!DOCTYPE html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${TRANSCRIPT_CSP}">`,
    '<meta name="referrer" content="no-referrer">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${TRANSCRIPT_CSS}</style>`,
    "</head>",
    "<body>",
    "<main>",
    `<h1>${escapeHtml(title)}</h1>`,
    facts(session, path, id, reader),
    ...sections,
    "<footer>Exported from the pi session viewer. This file makes no network requests and runs no scripts.</footer>",
    "</main>",
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

function facts(session: Session, path: readonly TreeEntry[], id: string, reader: Reader): string {
  const items: string[] = [];
  const header = session.header;
  if (typeof header?.id === "string") items.push(`Session: <code>${escapeHtml(header.id)}</code>`);
  if (typeof header?.cwd === "string") items.push(`Working directory: <code>${escapeHtml(header.cwd)}</code>`);
  const model = modelInForce(session, id, reader);
  if (model) items.push(`Model: ${escapeHtml(model)}`);
  items.push(`Path: ${path.length} ${path.length === 1 ? "entry" : "entries"}, ending at <code>${escapeHtml(id)}</code>${RULE_SETS[reader].pathStopsAtCompaction ? " (harness reader)" : ""}`);
  return `<ul class="facts">${items.map((item) => `<li>${item}</li>`).join("")}</ul>`;
}

/** pi's model at the entry (what its context settles on); none when pi cannot build that context. */
function modelInForce(session: Session, id: string, reader: Reader): string | null {
  try {
    const model = session.context(id, reader).model;
    return model ? modelName(model.provider, model.modelId) : null;
  } catch {
    return null; // the path itself is still worth exporting; the error shows in the viewer
  }
}

function modelName(provider: unknown, modelId: unknown): string | null {
  const parts = [provider, modelId].filter((p): p is string => typeof p === "string" && p.length > 0);
  return parts.length ? parts.join("/") : null;
}

function section(kind: string, entry: TreeEntry, heading: string, label: string | null, body: string): string {
  const tag = label ? `<span class="label">#${escapeHtml(label)}</span>` : "";
  return `<section class="${kind}" data-entry-id="${escapeHtml(entry.id)}"><h2>${heading}<span class="id mono">${escapeHtml(entry.id)}</span>${tag}</h2>${body}</section>`;
}

function entrySection(entry: TreeEntry, format: Format, label: string | null): string | null {
  switch (entry.type) {
    case "message":
      return isObject(entry.message) ? messageSection(entry, entry.message, format, label) : section("error", entry, "Message", label, '<p class="note">(message entry without a message)</p>');
    case "custom_message":
      return section("custom", entry, `Custom message${suffix(entry.customType)}`, label, contentHtml(entry.content, format));
    case "compaction":
      return section("summary", entry, `Compaction${typeof entry.tokensBefore === "number" ? ` (${entry.tokensBefore} tokens before)` : ""}`, label, quote(entry.summary));
    case "branch_summary":
      return entry.summary ? section("summary", entry, `Branch summary${typeof entry.fromId === "string" ? ` (from ${escapeHtml(entry.fromId)})` : ""}`, label, quote(entry.summary)) : null;
    case "model_change":
      return section("setting", entry, "Model", label, `<p class="note">Model changed to ${escapeHtml(modelName(entry.provider, entry.modelId) ?? "(unknown)")}</p>`);
    case "thinking_level_change":
      return section("setting", entry, "Thinking", label, `<p class="note">Thinking level set to ${escapeHtml(str(entry.thinkingLevel))}</p>`);
    default:
      return null;
  }
}

function messageSection(entry: TreeEntry, message: JsonObject, format: Format, label: string | null): string {
  switch (message.role) {
    case "user":
      return section("user", entry, "User", label, contentHtml(message.content, format));
    case "assistant": {
      const model = modelName(message.provider, message.model);
      const stopped = message.stopReason === "error" || message.stopReason === "aborted" || message.stopReason === "length";
      const heading = `Assistant${model ? ` · <span class="meta">${escapeHtml(model)}</span>` : ""}${stopped ? ` — stopped: ${escapeHtml(str(message.stopReason))}` : ""}`;
      const error = typeof message.errorMessage === "string" ? `<p class="err">Error: ${escapeHtml(message.errorMessage)}</p>` : "";
      return section(stopped ? "assistant error" : "assistant", entry, heading, label, contentHtml(message.content, format) + error);
    }
    case "toolResult": {
      const name = typeof message.toolName === "string" ? ` <code>${escapeHtml(message.toolName)}</code>` : "";
      const failed = message.isError === true;
      return section(failed ? "toolResult error" : "toolResult", entry, `Tool result${name}${failed ? " (error)" : ""}`, label, resultHtml(message.content, format));
    }
    case "bashExecution":
      return bashSection(entry, message, format, label);
    case "custom":
      return section("custom", entry, `Custom${suffix(message.customType)}`, label, contentHtml(message.content, format));
    case "branchSummary":
      return section("summary", entry, "Branch summary", label, quote(message.summary));
    case "compactionSummary":
      return section("summary", entry, "Compaction summary", label, quote(message.summary));
    default:
      return section("unknown", entry, escapeHtml(typeof message.role === "string" ? message.role : "Message"), label, pre(JSON.stringify(message, null, 2)));
  }
}

function bashSection(entry: TreeEntry, message: JsonObject, format: Format, label: string | null): string {
  const flags: string[] = [];
  if (typeof message.exitCode === "number") flags.push(`exit code ${message.exitCode}`);
  if (message.cancelled === true) flags.push("cancelled");
  if (message.truncated === true) flags.push("output truncated by pi");
  if (message.excludeFromContext === true) flags.push("not sent to the model");
  const output = truncate(typeof message.output === "string" ? message.output : "", format.maxOutput);
  return section("bashExecution", entry, `Bash${flags.length ? ` (${flags.join(", ")})` : ""}`, label, pre(`$ ${str(message.command)}\n${output}`));
}

function contentHtml(content: unknown, format: Format): string {
  if (typeof content === "string") return text(content);
  if (!Array.isArray(content)) return content == null ? '<p class="note">(no content)</p>' : pre(JSON.stringify(content, null, 2));
  const parts: string[] = [];
  for (const block of content) {
    if (!isObject(block)) continue;
    if (block.type === "text" && typeof block.text === "string") parts.push(text(block.text));
    else if (block.type === "thinking" && format.thinking && typeof block.thinking === "string") parts.push(`<details><summary>Thinking</summary>${text(block.thinking)}</details>`);
    else if (block.type === "toolCall") parts.push(`<p><strong>Tool call</strong> <code>${escapeHtml(str(block.name))}</code></p>${pre(JSON.stringify(block.arguments ?? {}, null, 2))}`);
    else if (block.type === "image") parts.push(image(block));
  }
  return parts.length ? parts.join("") : '<p class="note">(no content)</p>';
}

function resultHtml(content: unknown, format: Format): string {
  if (typeof content === "string") return pre(truncate(content, format.maxOutput));
  if (!Array.isArray(content)) return '<p class="note">(no content)</p>';
  const parts: string[] = [];
  for (const block of content) {
    if (!isObject(block)) continue;
    if (block.type === "text" && typeof block.text === "string") parts.push(pre(truncate(block.text, format.maxOutput)));
    else if (block.type === "image") parts.push(image(block));
  }
  return parts.length ? parts.join("") : '<p class="note">(no content)</p>';
}

/** A raster image block from the session as a data: URL; anything else as a note. */
function image(block: JsonObject): string {
  const mime = typeof block.mimeType === "string" ? block.mimeType : "";
  const data = typeof block.data === "string" ? block.data.replace(/\s+/g, "") : "";
  if (IMAGE_MIME.test(mime) && data && BASE64.test(data)) {
    return `<img alt="image from the session (${escapeHtml(mime)})" src="data:${mime.toLowerCase()};base64,${data}">`;
  }
  return `<p class="note">[image not embedded: ${escapeHtml(mime || "no mime type")}]</p>`;
}

const text = (value: string) => `<div class="text">${escapeHtml(value)}</div>`;
const pre = (value: string) => `<pre>${escapeHtml(value)}</pre>`;

function quote(body: unknown): string {
  return `<blockquote>${text(typeof body === "string" && body.length ? body : "(empty)")}</blockquote>`;
}

function truncate(value: string, max: number): string {
  if (value.length <= max) return value;
  return `${value.slice(0, max)}\n… (truncated: ${max} of ${value.length} characters shown)`;
}

function suffix(customType: unknown): string {
  return typeof customType === "string" ? ` (${escapeHtml(customType)})` : "";
}
