/**
 * A Markdown transcript of one root→entry path (transcript-model.ts), for
 * reading or sharing outside the viewer.
 */
import type { ToolView } from "@/lib/session/features/tool-view";
import {
  transcriptOf,
  truncate,
  type HeadingPart,
  type Transcript,
  type TranscriptBlock,
  type TranscriptOptions,
  type TranscriptSection,
} from "@/lib/session/features/transcript-model";
import { stripAnsi } from "@/lib/render/ansi";
import { languageOfPath } from "@/lib/render/languages";
import type { Session } from "@/lib/session/session";

export { transcriptTitle, type TranscriptOptions } from "@/lib/session/features/transcript-model";

/**
 * The transcript of `session.branch(id)`: title, session facts, then one
 * section per message; summaries as blockquotes, settings changes as notes.
 * Throws what `branch` throws (SessionQueryError for a cycle or unknown id).
 */
export function transcriptMarkdown(session: Session, id: string, options: TranscriptOptions = {}): string {
  const transcript = transcriptOf(session, id, options);
  const out: string[] = [`# ${escapeInline(transcript.title)}`, "", ...facts(transcript), ""];
  for (const section of transcript.sections) out.push(sectionMarkdown(section, transcript.maxOutput), "");
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

function sectionMarkdown(section: TranscriptSection, max: number): string {
  const body = section.blocks.map((block) => blockMarkdown(block, max)).join("\n\n");
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

function blockMarkdown(block: TranscriptBlock, max: number): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "thinking":
      return `<details>\n<summary>Thinking</summary>\n\n${block.text}\n\n</details>`;
    case "toolCall":
      return callMarkdown(block.view, block.json, max);
    case "toolResult":
      return resultMarkdown(block.view, max);
    case "image":
      return imageNote(block.image);
    case "pre":
      return fenced(block.text, block.lang);
    case "note":
      return `_${block.text}_`;
    case "error":
      return `> Error: ${block.text}`;
    case "system":
      return systemMarkdown(block);
  }
}

/** The prompt's text as a plain block (it is the model's input, not prose to render), then its tools. */
function systemMarkdown(block: Extract<TranscriptBlock, { type: "system" }>): string {
  const parts = [block.text ? fenced(block.text, "text") : "_(no prompt text)_"];
  if (block.tools.length) {
    const title = block.leading ? "Tools" : "Tools added";
    parts.push(`**${title}**\n\n${block.tools.map((tool) => `- ${code(tool.name)}${tool.description ? ` — ${tool.description}` : ""}`).join("\n")}`);
  }
  if (block.removed.length) parts.push(`**Tools removed**: ${block.removed.map(code).join(", ")}`);
  return parts.join("\n\n");
}

const code = (text: string) => `\`${text.replace(/`/g, "ˋ")}\``;

/**
 * A call as its tool means it: an edit as a ```diff block, a bash run as its ```bash command, a write as the
 * code it wrote; a read or a search by what it asked; any other tool by its arguments as JSON.
 */
function callMarkdown(view: ToolView, json: string, max: number): string {
  const head = `**Tool call** ${code(view.name)}`;
  switch (view.tool) {
    case "edit":
      if (!view.diff) return view.result ? `${head} ${code(view.path ?? "")}` : `${head}\n\n${fenced(json, "json")}`;
      return `${head} ${code(view.path ?? "")}\n\n${fenced(truncate(view.diff.map((line) => (line.gap ? " ..." : `${line.sign}${line.text}`)).join("\n"), max), "diff")}`;
    case "bash":
      return `${head}\n\n${fenced(view.command ?? "", view.shell)}`;
    case "write":
      return `${head} ${code(view.path ?? "")} (${view.lineCount} ${view.lineCount === 1 ? "line" : "lines"})\n\n${fenced(truncate(view.content ?? "", max), languageOfPath(view.path) ?? "")}`;
    case "read":
      return `${head} ${code(`${view.path ?? ""}${view.range}`)}`;
    case "grep":
    case "find":
      return `${head} ${code(view.query)} in ${code(view.path ?? ".")}`;
    case "ls":
      return `${head} ${code(view.path ?? ".")}`;
    default:
      return `${head}\n\n${fenced(json, "json")}`;
  }
}

/** A result's output as a block (a read's in its file's language, a terminal's without its escape codes) and its facts. */
function resultMarkdown(view: ToolView, max: number): string {
  const parts = view.images.map(imageNote);
  if (view.tool === "bash") {
    if (view.shown.trim()) parts.push(fenced(truncate(stripAnsi(view.shown.replace(/\n+$/, "")), max)));
    const status = view.status === "exited" ? `exit code ${view.exitCode}` : view.status;
    parts.push(`_${status}${view.truncation ? `; ${view.truncation}` : view.fullOutputPath ? `; full output: ${view.fullOutputPath}` : ""}_`);
  } else if (view.tool === "read" && !view.failed) {
    if (view.content) parts.push(fenced(truncate(view.content, max), languageOfPath(view.path) ?? ""));
    if (view.note) parts.push(`_${view.note}_`);
  } else if (view.output || !parts.length) parts.push(fenced(truncate(stripAnsi(view.output), max)));
  return parts.join("\n\n");
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
