/**
 * The selected path as ONE self-contained, inert HTML file: the transcript
 * model the Markdown export writes too (transcript-model.ts), as escaped text. No scripts, no links, nothing fetched: the CSP
 * allows only inline style and `data:` images, and the only images are the
 * session's own raster image blocks.
 */
import {
  transcriptOf,
  truncate,
  type HeadingPart,
  type Transcript,
  type TranscriptBlock,
  type TranscriptOptions,
  type TranscriptSection,
} from "@/lib/session/features/transcript-model";
import type { Session } from "@/lib/session/session";
import type { JsonObject } from "@/lib/session/types";
import { TRANSCRIPT_CSS } from "./html-transcript-style";

export const TRANSCRIPT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

/** raster formats only: an SVG can carry script and external references */
const IMAGE_MIME = /^image\/(png|jpeg|gif|webp|avif|bmp)$/i;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text safe in element content and in double- or single-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** The transcript of `session.branch(id)` as an HTML document. Throws what `branch` throws. */
export function transcriptHtml(session: Session, id: string, options: TranscriptOptions = {}): string {
  const transcript = transcriptOf(session, id, options);
  return [
    "<!DOCTYPE html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${TRANSCRIPT_CSP}">`,
    '<meta name="referrer" content="no-referrer">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(transcript.title)}</title>`,
    `<style>${TRANSCRIPT_CSS}</style>`,
    "</head>",
    "<body>",
    "<main>",
    `<h1>${escapeHtml(transcript.title)}</h1>`,
    facts(transcript),
    ...transcript.sections.map((section) => sectionHtml(section, transcript.maxOutput)),
    "<footer>Exported from the pi session viewer. This file makes no network requests and runs no scripts.</footer>",
    "</main>",
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

function facts(transcript: Transcript): string {
  const items: string[] = [];
  if (transcript.sessionId !== null) items.push(`Session: <code>${escapeHtml(transcript.sessionId)}</code>`);
  if (transcript.cwd !== null) items.push(`Working directory: <code>${escapeHtml(transcript.cwd)}</code>`);
  if (transcript.model) items.push(`Model: ${escapeHtml(transcript.model)}`);
  const { pathLength, endId } = transcript;
  items.push(
    `Path: ${pathLength} ${pathLength === 1 ? "entry" : "entries"}, ending at <code>${escapeHtml(endId)}</code>${transcript.harnessPath ? " (harness reader)" : ""}`,
  );
  return `<ul class="facts">${items.map((item) => `<li>${item}</li>`).join("")}</ul>`;
}

function sectionHtml(section: TranscriptSection, max: number): string {
  const kind = section.failed ? `${section.kind} error` : section.kind;
  const tag = section.label ? `<span class="label">#${escapeHtml(section.label)}</span>` : "";
  const heading = section.heading.map(partHtml).join("");
  const blocks = section.blocks.map((block) => blockHtml(block, max)).join("");
  const body = section.form === "quote" ? `<blockquote>${blocks}</blockquote>` : blocks;
  return `<section class="${kind}" data-entry-id="${escapeHtml(section.entry.id)}"><h2>${heading}<span class="id mono">${escapeHtml(section.entry.id)}</span>${tag}</h2>${body}</section>`;
}

function partHtml(part: HeadingPart): string {
  if (typeof part === "string") return escapeHtml(part);
  return "code" in part ? `<code>${escapeHtml(part.code)}</code>` : `<span class="meta">${escapeHtml(part.meta)}</span>`;
}

function blockHtml(block: TranscriptBlock, max: number): string {
  switch (block.type) {
    case "text":
      return text(block.text);
    case "thinking":
      return `<details><summary>Thinking</summary>${text(block.text)}</details>`;
    case "toolCall":
      return `<p><strong>Tool call</strong> <code>${escapeHtml(block.name)}</code></p>${pre(block.json)}`;
    case "toolResult":
      return [...block.view.images.map(image), pre(truncate(block.view.output, max))].join("");
    case "image":
      return image(block.image);
    case "pre":
      return pre(block.text);
    case "note":
      return `<p class="note">${escapeHtml(block.text)}</p>`;
    case "error":
      return `<p class="err">Error: ${escapeHtml(block.text)}</p>`;
  }
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
