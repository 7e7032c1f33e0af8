// Every diagnostic of a session, by line: what pi skips, refuses or reads differently.
import type { Diagnostic } from "@/lib/session";
import { Badge, type BadgeTone } from "@/components/ui/Badge";
import { viewer } from "./store";

const TONE: Record<Diagnostic["severity"], BadgeTone> = { error: "danger", warning: "warning", info: "neutral" };

export function DiagnosticsList({ diagnostics, fileName }: { diagnostics: Diagnostic[]; fileName: string | null }) {
  return (
    <ol data-testid="diagnostics" aria-label={`Diagnostics${fileName ? ` for ${fileName}` : ""}`} className="divide-y divide-border font-mono text-xs">
      {diagnostics.map((d, i) => (
        <li key={i} data-line={d.line} data-kind={d.kind} data-severity={d.severity} className="flex items-baseline gap-3 px-4 py-1.5">
          <span className="w-16 shrink-0 text-right text-muted tabular-nums">{d.line > 0 ? `line ${d.line}` : "file"}</span>
          <Badge tone={TONE[d.severity]} className="w-16 justify-center font-sans">
            {d.severity}
          </Badge>
          <span className="min-w-0 flex-1 font-sans text-foreground">{d.message}</span>
          {d.entryId && (
            <button type="button" onClick={() => viewer.select(d.entryId!)} className="shrink-0 text-accent hover:underline">
              {d.entryId}
            </button>
          )}
        </li>
      ))}
    </ol>
  );
}
