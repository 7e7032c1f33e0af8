/**
 * A Markdown transcript of one root→entry path (transcript-model.ts), for
 * reading or sharing outside the viewer.
 */
import { transcriptOf, type HeadingPart, type Transcript, type TranscriptBlock, type TranscriptOptions, type TranscriptSection } from "./transcript-model";
import type { Session } from "../session";

export { transcriptTitle, type TranscriptOptions } from "./transcript-model";

/**
 * The transcript of `session.branch(id)`: title, session facts, then one
 * section per message; summaries as blockquotes, settings changes as notes.
 * Throws what `branch` throws (SessionQueryError for a cycle or unknown id).
 */
export function transcriptMarkdown(session: Session, id: string, options: TranscriptOptions = {}): string {
  const transcript = transcriptOf(session, id, options);
  const out: string[] = [`# ${escapeInline(transcript.title)}`, "", ...facts(transcript), ""];
  for (const section of transcript.sections) out.push(sectionMarkdown(section), "");
  return `${out
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trimEnd()}\n`;
}

function facts(transcript: Transcript): string[] {
  const lines: string[] = [];
  if (transcript.sessionId !== null) lines.push(`- Session: \`${transcript.sessionId}\``);
  if (transcript.cwd !== null) lines.push(`- Working directory: \`${transcript.cwd}\``);
  if (transcript.model) lines.push(`- Model: ${transcript.model}`);
  const { pathLength, endId } = transcript;
  lines.push(`- Path: ${pathLength} ${pathLength === 1 ? "entry" : "entries"}, ending at \`${endId}\`${transcript.harnessPath ? " (harness reader)" : ""}`);
  return lines;
}

function sectionMarkdown(section: TranscriptSection): string {
  const body = section.blocks.map(blockMarkdown).join("\n\n");
  if (section.form === "line") return `_${section.blocks.map((b) => ("text" in b ? b.text : "")).join(" ")}_`;
  if (section.form === "quote") {
    const [title, ...rest] = section.heading;
    return quote(`**${partMarkdown(title!)}**${rest.map(partMarkdown).join("")}`, body);
  }
  return `${"#".repeat(section.level)} ${section.heading.map(partMarkdown).join("")}\n\n${body}`;
}

function partMarkdown(part: HeadingPart): string {
  if (typeof part === "string") return part;
  return "code" in part ? `\`${part.code}\`` : part.meta;
}

function blockMarkdown(block: TranscriptBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "thinking":
      return `<details>\n<summary>Thinking</summary>\n\n${block.text}\n\n</details>`;
    case "toolCall":
      return `**Tool call** \`${block.name}\`\n\n${fenced(block.json, "json")}`;
    case "image":
      return imageNote(block.image);
    case "pre":
      return fenced(block.text, block.lang);
    case "note":
      return `_${block.text}_`;
    case "error":
      return `> Error: ${block.text}`;
  }
}

function imageNote(image: Record<string, unknown>): string {
  const mime = typeof image.mimeType === "string" ? image.mimeType : "image";
  const size = typeof image.data === "string" ? `, ${Math.floor((image.data.length * 3) / 4)} bytes` : "";
  return `_[image: ${mime}${size}]_`;
}

/** A code fence longer than any backtick run inside, so the content cannot close it. */
function fenced(text: string, lang = ""): string {
  const longest = Math.max(2, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}${lang}\n${text}\n${fence}`;
}

function quote(heading: string, body: string): string {
  return [heading, "", ...body.split("\n")].map((line) => (line ? `> ${line}` : ">")).join("\n");
}

function escapeInline(text: string): string {
  return text.replace(/\s+/g, " ").replace(/([\\`*_[\]<>#])/g, "\\$1");
}
