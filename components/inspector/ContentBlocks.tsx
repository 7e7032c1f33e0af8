"use client";

/**
 * Message content as pi stores it — a string or a list of text, thinking,
 * tool-call and image blocks — rendered for reading. Text is Markdown (see
 * Markdown.tsx), tool calls are drawn by their tool (ToolCallView), images come
 * only from the file's own base64 data.
 */
import type { JsonObject } from "@/lib/session";
import { Markdown } from "./Markdown";
import { TruncatedText, formatSize } from "./TruncatedText";
import { isObject } from "@/lib/session/json";
import { toolCallOf, toolViewOf } from "@/lib/session/features/tool-view";
import { ImageBlock } from "@/components/transcript/ImageBlock";
import { ToolCallView } from "@/components/transcript/ToolCallView";
import { useToolLinks } from "@/components/transcript/tool-links";
import { useViewer } from "@/components/viewer/store";

export { ImageBlock, imageDataUrl } from "@/components/transcript/ImageBlock";

function ThinkingBlock({ block }: { block: JsonObject }) {
  const text = typeof block.thinking === "string" ? block.thinking : "";
  const shown = useViewer((s) => s.reading.thinking);
  if (!shown)
    return (
      <p className="my-1 text-[12px] text-subtle" data-thinking="hidden">
        Thinking hidden ({formatSize(text.length)}) · press <kbd className="font-mono">t</kbd> to show
      </p>
    );
  return (
    <details className="group my-1 rounded border border-dashed border-border">
      <summary className="cursor-pointer px-2 py-1 text-[12px] text-muted select-none">
        Thinking{block.redacted === true ? " (redacted)" : ""} · {formatSize(text.length)}
      </summary>
      <div className="px-2 pb-2 text-[12.5px] leading-relaxed whitespace-pre-wrap text-muted italic">{text || "(empty)"}</div>
    </details>
  );
}

/** A tool call drawn by its tool (ToolCallView), with its result when it is near (tool-links.tsx). */
export function ToolCallBlock({ block }: { block: JsonObject }) {
  const { links, separate } = useToolLinks();
  const call = toolCallOf(block);
  if (!call) return null;
  return <ToolCallView view={toolViewOf(call, links.results.get(call.id) ?? null)} parts={separate ? "call" : "both"} />;
}

/** Content of user, assistant and custom messages. */
export function MessageContent({ content }: { content: unknown }) {
  if (typeof content === "string") return <Markdown text={content} />;
  if (!Array.isArray(content)) return <p className="text-[12px] text-muted">{content == null ? "(no content)" : "(content is not a list)"}</p>;
  if (content.length === 0) return <p className="text-[12px] text-muted">(empty content)</p>;
  return (
    <div className="flex flex-col gap-1">
      {content.map((block, i) => {
        if (!isObject(block)) return <TruncatedText key={i} text={JSON.stringify(block)} />;
        switch (block.type) {
          case "text":
            return <Markdown key={i} text={typeof block.text === "string" ? block.text : ""} />;
          case "thinking":
            return <ThinkingBlock key={i} block={block} />;
          case "toolCall":
            return <ToolCallBlock key={i} block={block} />;
          case "image":
            return <ImageBlock key={i} block={block} />;
          default:
            return <TruncatedText key={i} text={JSON.stringify(block, null, 2)} />;
        }
      })}
    </div>
  );
}
