"use client";

// "What will be masked, and where": counts per rule and the first matches in their context, each linked to its
// entry. Shown only on the sender's screen; the file records names and counts alone.
import { useState } from "react";
import { viewer } from "@/components/viewer/store";
import type { RedactionFindings } from "@/lib/export/redaction-find";

export function RedactionPreview({ findings }: { findings: RedactionFindings }) {
  const [open, setOpen] = useState(false);
  const rules = Object.entries(findings.counts).filter(([, n]) => n > 0);
  return (
    <div className="mt-2 rounded-md border border-border bg-surface px-2.5 py-2 text-[12px]" data-testid="redaction-preview">
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <span className="font-medium" data-testid="redaction-total">
          {findings.total === 0 ? "Nothing to mask" : `Will mask ${findings.total.toLocaleString("en-US")}`}
        </span>
        {rules.map(([name, n]) => (
          <span key={name} className="rounded border border-border bg-background px-1.5 font-mono text-[11px]" data-testid="redaction-count" data-rule={name}>
            {name} {n}
          </span>
        ))}
        {findings.hits.length > 0 && (
          <button type="button" className="ml-auto text-accent underline-offset-2 hover:underline" onClick={() => setOpen(!open)} aria-expanded={open}>
            {open ? "Hide where" : `Show where${findings.truncated ? ` (first ${findings.hits.length})` : ""}`}
          </button>
        )}
      </div>
      {open && (
        <ol className="mt-2 max-h-56 space-y-1 overflow-auto" data-testid="redaction-hits">
          {findings.hits.map((hit, i) => (
            <li key={i} className="grid grid-cols-[auto_1fr] gap-x-2">
              <span className="font-mono text-[11px] text-muted">
                {hit.entryId ? (
                  <button
                    type="button"
                    className="text-accent hover:underline"
                    onClick={() => viewer.select(hit.entryId)}
                    title={`Select entry ${hit.entryId} (line ${hit.line})`}
                  >
                    {hit.entryId}
                  </button>
                ) : (
                  `line ${hit.line}`
                )}
              </span>
              <span className="min-w-0">
                <span className="mr-1.5 font-mono text-[11px] text-subtle">
                  {hit.rule} · {hit.field || "line"}
                </span>
                <span className="font-mono text-[11px] break-all text-muted">
                  {hit.before}
                  <mark className="rounded-sm bg-warning-soft px-0.5 text-warning">{hit.match}</mark>
                  {hit.after}
                </span>
              </span>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
