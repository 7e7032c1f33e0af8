"use client";

/** An image block from the session (a user's paste, what `read` returned for an image file), from its own base64 data only. */
import type { JsonObject } from "@/lib/session";
import { formatSize } from "@/components/inspector/TruncatedText";

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
