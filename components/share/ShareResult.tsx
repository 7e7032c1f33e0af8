"use client";

// What was written: the file's name and size against the session's, what it records, and for a file sealed
// with a random key the key to send with it (oh-my-pi's model: the key rides in the link's fragment, which
// browsers never send to a server).
import { useEffect, useRef, useState } from "react";
import { formatBytes } from "@/components/ui/format";
import type { ShareWritten } from "../../lib/client/share-protocol";

export function ShareResult({ file, name }: { file: ShareWritten; name: string }) {
  const [copied, setCopied] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => box.current?.scrollIntoView({ block: "nearest" }), [file]);
  const { manifest, sizes, key } = file;
  const copy = (text: string) =>
    navigator.clipboard?.writeText(text).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  return (
    <div ref={box} className="rounded-md border border-success/30 bg-success-soft px-3 py-2 text-[12.5px]" role="status" data-testid="share-result">
      <p>
        Downloaded <span className="font-mono font-medium">{name}</span>: {formatBytes(sizes.file)} for {formatBytes(sizes.session)} of session (
        {manifest.lines.toLocaleString("en-US")} lines, {formatBytes(sizes.compressed)} compressed).
        {manifest.redaction && ` Masked ${manifest.redaction.total.toLocaleString("en-US")}.`}
        {manifest.images && manifest.images.dropped > 0 && ` Left out ${manifest.images.dropped} image${manifest.images.dropped === 1 ? "" : "s"}.`}
      </p>
      {key && (
        <div className="mt-2">
          <p className="text-muted">
            Sealed with a random key. Open the file with the key after <span className="font-mono">#k=</span> in its address, or send the key separately from
            the file:
          </p>
          <div className="mt-1 flex items-center gap-2">
            <code className="min-w-0 flex-1 truncate rounded border border-border bg-background px-1.5 py-0.5 font-mono text-[12px]" data-testid="share-key">
              {`${name}#k=${key}`}
            </code>
            <button
              type="button"
              className="rounded border border-border bg-background px-2 py-0.5 text-[12px] hover:bg-surface-2"
              onClick={() => copy(`${name}#k=${key}`)}
            >
              {copied ? "Copied" : "Copy link"}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
