"use client";

/**
 * Preformatted text that may be huge (tool output, raw JSON): the first part
 * is shown, the rest on request, so a multi-megabyte entry never lands in the
 * DOM unasked.
 */
import { useState } from "react";

const DEFAULT_LIMIT = 4000;

export function formatSize(chars: number): string {
  if (chars < 1024) return `${chars} chars`;
  if (chars < 1024 * 1024) return `${(chars / 1024).toFixed(1)} KB`;
  return `${(chars / 1024 / 1024).toFixed(1)} MB`;
}

export function TruncatedText({ text, limit = DEFAULT_LIMIT, className = "" }: { text: string; limit?: number; className?: string }) {
  const [all, setAll] = useState(false);
  const cut = !all && text.length > limit;
  return (
    <div className="min-w-0">
      <pre
        className={`overflow-x-auto rounded border border-border bg-surface p-2 font-mono text-[12px] leading-snug whitespace-pre-wrap break-words ${className}`}
      >
        {cut ? text.slice(0, limit) : text}
        {cut ? <span className="text-muted">…</span> : null}
      </pre>
      {text.length > limit ? (
        <button type="button" onClick={() => setAll(!all)} className="mt-1 text-[12px] text-accent hover:underline">
          {all ? "Show less" : `Show all (${formatSize(text.length)})`}
        </button>
      ) : null}
    </div>
  );
}
