"use client";

// Progress while a session is read (bytes so far / in all) and the way to give up.
import { Button } from "@/components/ui/Button";
import { formatBytes } from "@/components/ui/format";
import { ProgressBar } from "@/components/ui/ProgressBar";
import { useViewer } from "./store";

export function LoadingView({ onCancel }: { onCancel: () => void }) {
  const load = useViewer((s) => s.load);
  const fileName = useViewer((s) => s.fileName);
  return (
    <div className="flex flex-1 items-center justify-center p-6" data-testid="loading">
      <div className="w-full max-w-sm rounded-lg border border-border bg-surface p-5">
        <p className="truncate text-[13px] font-medium">Reading {fileName ?? "session"}…</p>
        <ProgressBar className="mt-3" value={load.done} max={load.total} label="Reading the session file" />
        <div className="mt-3 flex items-center justify-between text-xs text-muted tabular-nums">
          <span data-testid="progress-text">{load.total > 0 ? `${formatBytes(load.done)} of ${formatBytes(load.total)}` : formatBytes(load.done)}</span>
          <Button size="sm" onClick={onCancel}>
            Cancel
          </Button>
        </div>
      </div>
    </div>
  );
}
