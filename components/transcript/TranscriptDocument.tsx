/**
 * A transcript (transcript-model.ts) as a page to read, drawn by the app's own renderers: messages as Markdown,
 * tool calls by their tool (ToolCallView), code highlighted, outputs in their terminal colours. The exported HTML
 * file is this component rendered once (transcript-html.tsx); long texts are cut to the transcript's limit first.
 */
import { Markdown } from "@/components/inspector/Markdown";
import { boundedToolView } from "@/lib/export/bounded-tool-view";
import { knownLanguage } from "@/lib/render/languages";
import type { HeadingPart, Transcript, TranscriptBlock, TranscriptSection } from "@/lib/session/features/transcript-model";
import { AnsiBlock } from "./AnsiBlock";
import { CodeBlock } from "./CodeBlock";
import { ImageBlock } from "./ImageBlock";
import { SystemText, ToolsList } from "./SystemPromptView";
import { ToolCallView } from "./ToolCallView";

const EDGE: Record<string, string> = {
  user: "border-sky-500",
  assistant: "border-violet-500",
  toolResult: "border-amber-500",
  bashExecution: "border-emerald-500",
  summary: "border-orange-500",
  custom: "border-teal-500",
  system: "border-slate-400",
  error: "border-danger",
};

export function TranscriptDocument({ transcript }: { transcript: Transcript }) {
  return (
    <main className="mx-auto max-w-[920px] px-5 pt-8 pb-16 text-[13px] leading-relaxed">
      <h1 className="mb-3 text-[22px] leading-tight font-semibold">{transcript.title}</h1>
      <Facts transcript={transcript} />
      {transcript.sections.map((section, i) => (
        <Section key={`${i}-${section.entry.id}`} section={section} max={transcript.maxOutput} />
      ))}
      <footer className="mt-10 text-[12px] text-muted">Exported from the pi session viewer. This file makes no network requests and runs no scripts.</footer>
    </main>
  );
}

function Facts({ transcript }: { transcript: Transcript }) {
  const { pathLength, endId } = transcript;
  return (
    <ul className="mb-7 rounded-lg border border-border bg-surface px-3.5 py-2.5 text-[12.5px] text-muted">
      {transcript.sessionId !== null ? (
        <li>
          Session: <code className="font-mono">{transcript.sessionId}</code>
        </li>
      ) : null}
      {transcript.cwd !== null ? (
        <li>
          Working directory: <code className="font-mono">{transcript.cwd}</code>
        </li>
      ) : null}
      {transcript.model ? <li>Model: {transcript.model}</li> : null}
      <li>
        Path: {pathLength} {pathLength === 1 ? "entry" : "entries"}, ending at <code className="font-mono">{endId}</code>
        {transcript.harnessPath ? " (harness reader)" : ""}
      </li>
    </ul>
  );
}

function Section({ section, max }: { section: TranscriptSection; max: number }) {
  const kind = section.failed ? "error" : section.kind;
  const blocks = section.blocks.map((block, i) => <Block key={i} block={block} max={max} />);
  return (
    <section data-entry-id={section.entry.id} data-kind={section.kind} className={`mb-4 min-w-0 border-l-[3px] pl-3.5 ${EDGE[kind] ?? "border-border"}`}>
      <h2 className="mb-1 flex flex-wrap items-baseline gap-x-1.5 text-[11.5px] font-semibold tracking-wide text-muted">
        <span className="uppercase">{section.heading.map(headingPart)}</span>
        <span className="font-mono font-normal tracking-normal text-subtle">{section.entry.id}</span>
        {section.label ? (
          <span className="rounded-full bg-pink-100 px-1.5 font-normal tracking-normal text-pink-800 dark:bg-pink-950 dark:text-pink-300">
            #{section.label}
          </span>
        ) : null}
      </h2>
      {section.form === "quote" ? <blockquote className="rounded-md bg-surface px-3 py-1">{blocks}</blockquote> : blocks}
    </section>
  );
}

function headingPart(part: HeadingPart, i: number) {
  if (typeof part === "string") return part;
  return "code" in part ? (
    <code key={i} className="font-mono normal-case">
      {part.code}
    </code>
  ) : (
    <span key={i} className="font-normal normal-case">
      {part.meta}
    </span>
  );
}

function Block({ block, max }: { block: TranscriptBlock; max: number }) {
  switch (block.type) {
    case "text":
      return <Markdown text={block.text} />;
    case "thinking":
      return (
        <details className="my-1 text-muted">
          <summary className="cursor-pointer text-[12px]">Thinking</summary>
          <div className="border-l-2 border-border pl-3 italic">
            <Markdown text={block.text} />
          </div>
        </details>
      );
    case "toolCall":
      return <ToolCallView view={boundedToolView(block.view, max)} parts="call" />;
    case "toolResult":
      return <ToolCallView view={boundedToolView(block.view, max)} parts="result" />;
    case "image":
      return <ImageBlock block={block.image} />;
    case "pre":
      return block.lang === "console" ? (
        <AnsiBlock text={block.text} label="command and output" />
      ) : (
        <CodeBlock code={block.text} language={knownLanguage(block.lang)} label={`${block.lang || "text"} block`} />
      );
    case "note":
      return <p className="my-1 text-muted italic">{block.text}</p>;
    case "error":
      return <p className="my-1 text-danger">Error: {block.text}</p>;
    case "system":
      return (
        <div className="my-1 flex min-w-0 flex-col gap-1.5">
          <SystemText text={block.text} label={block.leading ? "system prompt" : "system prompt update"} />
          <ToolsList tools={block.tools} removed={block.removed} title={block.leading ? "Available tools" : "Tools changed"} />
        </div>
      );
  }
}
