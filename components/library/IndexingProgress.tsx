// "Indexing 312 of 1,000 sessions…" with a bar, while the server's library index catches up; `idle` otherwise.
import { formatCount } from "@/components/ui/format";
import { ProgressBar } from "@/components/ui/ProgressBar";
import type { IndexProgress } from "@/lib/library/search-api";

export function IndexingProgress({ progress, idle }: { progress: IndexProgress | null; idle: string }) {
  const indexing = progress !== null && progress.total > 0;
  return (
    <div className="space-y-1.5" data-testid="indexing-progress">
      <p className="text-xs text-muted tabular-nums">
        {indexing ? `Indexing ${formatCount(progress.done)} of ${formatCount(progress.total)} sessions…` : idle}
        {indexing && progress.file && <span className="ml-2 font-mono text-subtle">{progress.file}</span>}
      </p>
      {indexing && <ProgressBar value={progress.done} max={progress.total} label="Indexing sessions" />}
    </div>
  );
}
