"use client";

/**
 * Message content as pi stores it — a string or a list of text, thinking,
 * tool-call and image blocks — rendered for reading. Text is Markdown (see
 * Markdown.tsx), tool output stays preformatted, images come only from the
 * file's own base64 data.
 */
import type { JsonObject } from "@/lib/session";
import { Markdown } from "./Markdown";
import { TruncatedText, formatSize } from "./TruncatedText";
import { isObject } from "@/lib/session/json";

const IMAGE_MIME = /^image\/[a-z0-9.+-]+$/i;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** `data:` URL for an image block, or null when its mime type or data could carry anything but an image. */
export function imageDataUrl(block: JsonObject): string | null {
  const mime = block.mimeType;
  const data = typeof block.data === "string" ? block.data.replace(/\s+/g, "") : null;
  if (typeof mime !== "string" || !IMAGE_MIME.test(mime) || !data || !BASE64.test(data)) return null;
  return `data:${mime.toLowerCase()};base64,${data}`;
}

export function ImageBlock({ block }: { block: JsonObject }) {
  const url = imageDataUrl(block);
  const size = typeof block.data === "string" ? formatSize(Math.floor((block.data.length * 3) / 4)).replace("chars", "bytes") : "no data";
  if (!url) {
    return (
      <p className="text-[12px] text-muted">
        [image not shown: mime type {JSON.stringify(block.mimeType) ?? "missing"}, {size}]
      </p>
    );
  }
  return (
    <figure className="my-1">
      {/* eslint-disable-next-line @next/next/no-img-element -- inline data from the session, nothing to optimise */}
      <img
        src={url}
        alt={`image from the session (${String(block.mimeType)})`}
        className="max-h-80 min-h-6 max-w-full min-w-6 rounded border border-border bg-[repeating-conic-gradient(#8882_0_25%,transparent_0_50%)] bg-[length:12px_12px] [image-rendering:pixelated]"
      />
      <figcaption className="text-[11px] text-muted">
        {String(block.mimeType)} · {size}
      </figcaption>
    </figure>
  );
}

function ThinkingBlock({ block }: { block: JsonObject }) {
  const text = typeof block.thinking === "string" ? block.thinking : "";
  return (
    <details className="group my-1 rounded border border-dashed border-border">
      <summary className="cursor-pointer px-2 py-1 text-[12px] text-muted select-none">
        Thinking{block.redacted === true ? " (redacted)" : ""} · {formatSize(text.length)}
      </summary>
      <div className="px-2 pb-2 text-[12.5px] leading-relaxed whitespace-pre-wrap text-muted italic">{text || "(empty)"}</div>
    </details>
  );
}

export function ToolCallBlock({ block }: { block: JsonObject }) {
  return (
    <div className="my-1 rounded border border-border">
      <div className="flex items-baseline gap-2 border-b border-border bg-surface px-2 py-1 text-[12px]">
        <span className="text-muted">Tool call</span>
        <span className="font-mono font-semibold">{String(block.name)}</span>
        {typeof block.id === "string" ? <span className="ml-auto truncate font-mono text-[11px] text-muted">{block.id}</span> : null}
      </div>
      <TruncatedText text={JSON.stringify(block.arguments ?? {}, null, 2)} className="rounded-none border-0" />
    </div>
  );
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

/** Content of tool results: text stays preformatted (it is program output), images as images. */
export function ResultContent({ content }: { content: unknown }) {
  if (typeof content === "string") return <TruncatedText text={content} />;
  if (!Array.isArray(content) || content.length === 0) return <p className="text-[12px] text-muted">(no output)</p>;
  return (
    <div className="flex flex-col gap-1">
      {content.map((block, i) => {
        if (isObject(block) && block.type === "text") return <TruncatedText key={i} text={typeof block.text === "string" ? block.text : ""} />;
        if (isObject(block) && block.type === "image") return <ImageBlock key={i} block={block} />;
        return <TruncatedText key={i} text={JSON.stringify(block, null, 2)} />;
      })}
    </div>
  );
}
