"use client";

// A strip under the top bar when the file has problems ("1 line could not be read"), opening the full list.
import { useState } from "react";
import { Button } from "@/components/ui/Button";
import { cn } from "@/components/ui/cn";
import { Icon } from "@/components/ui/Icon";
import { DiagnosticsList } from "./DiagnosticsList";
import { diagnosticsHeadline, summarizeDiagnostics } from "./diagnostics-summary";
import { sessionOf, useViewer } from "./store";
import { useSessionMemo } from "@/components/viewer/use-session-memo";

export function DiagnosticsBanner() {
  const session = useViewer(sessionOf);
  const fileName = useViewer((s) => s.fileName);
  const [open, setOpen] = useState(false);
  const summary = useSessionMemo(summarizeDiagnostics, [], { diagnostics: true });
  if (!summary || summary.worst === null) return null;
  const error = summary.worst === "error";
  const refused = session?.parser.caRefused;
  return (
    <div
      role="status"
      data-testid="diagnostics-banner"
      className={cn("shrink-0 border-b", error ? "border-danger/30 bg-danger-soft" : "border-warning/30 bg-warning-soft")}
    >
      <div className="flex h-8 items-center gap-2 px-3 text-xs">
        <Icon name={error ? "error" : "warning"} size={15} className={error ? "text-danger" : "text-warning"} />
        <span className="font-medium">{diagnosticsHeadline(summary)}</span>
        {refused && <span className="text-muted">· pi would refuse to open this file</span>}
        <Button variant="ghost" size="sm" className="ml-auto" aria-expanded={open} aria-controls="diagnostics-list" onClick={() => setOpen(!open)}>
          {open ? "Hide details" : `Show details (${summary.all.length})`}
          <Icon name="chevron-down" size={14} className={cn("transition-transform", open && "rotate-180")} />
        </Button>
      </div>
      {open && (
        <div id="diagnostics-list" className="max-h-64 overflow-auto border-t border-border bg-background">
          <DiagnosticsList diagnostics={summary.all} fileName={fileName} />
        </div>
      )}
    </div>
  );
}
