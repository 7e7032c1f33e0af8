"use client";

// In a share file: what the sender shared and what was done to it (scope, when, masks by rule, images left
// out), from the file's manifest. Names and counts only: that is all the file knows.
import { useState } from "react";
import { Badge } from "@/components/ui/Badge";
import { formatDateTime } from "@/components/ui/format";
import { Icon } from "@/components/ui/Icon";
import { useViewer } from "@/components/viewer/store";

const SCOPE_TEXT = { session: "the whole session", fork: "the fork at one entry", path: "the path to one entry" } as const;

export function ShareBadge() {
  const share = useViewer((s) => s.share);
  const [open, setOpen] = useState(false);
  if (!share) return null;
  const masked = share.redaction ? share.redaction.rules.filter((r) => r.count > 0) : [];
  return (
    <div className="relative shrink-0">
      <button type="button" onClick={() => setOpen(!open)} aria-expanded={open} data-testid="share-badge">
        <Badge tone={share.redaction ? "success" : "neutral"}>
          <Icon name="share" size={11} /> Shared{share.redaction ? ` · ${share.redaction.total} masked` : ""}
        </Badge>
      </button>
      {open && (
        <div
          role="dialog"
          aria-label="About this shared file"
          className="absolute top-7 right-0 z-30 w-80 rounded-lg border border-border bg-background p-3 text-[12px] shadow-xl"
          data-testid="share-info"
        >
          <p>
            This file holds {SCOPE_TEXT[share.scope]}, {share.lines.toLocaleString("en-US")} lines of <span className="font-mono">{share.fileName}</span>,
            shared {formatDateTime(share.createdAt)}.
          </p>
          <p className="mt-2">
            {share.redaction === null
              ? "It was not redacted."
              : share.redaction.total === 0
                ? `Redaction found nothing to mask (${share.redaction.rules.length} rules).`
                : `Masked ${share.redaction.total}:`}
          </p>
          {masked.length > 0 && (
            <ul className="mt-1 space-y-0.5" data-testid="share-info-rules">
              {masked.map((rule) => (
                <li key={rule.name} className="flex gap-2">
                  <span className="font-mono">{rule.name}</span>
                  <span className="tabular-nums">{rule.count}</span>
                  <span className="truncate text-muted" title={rule.description}>
                    {rule.description}
                  </span>
                </li>
              ))}
            </ul>
          )}
          {share.images && share.images.dropped > 0 && <p className="mt-2">{share.images.dropped} image(s) were left out to make it smaller.</p>}
        </div>
      )}
    </div>
  );
}
