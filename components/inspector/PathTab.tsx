"use client";

/** The Path tab: `session.branch(id)` root → selected entry, one row per entry; clicking a row selects it. */
import { viewer } from "@/components/viewer/store";
import { TreePath, type Session } from "@/lib/session";
import { entryKind, entrySnippet } from "./entry-kind";
import { KindBadge } from "./KindBadge";
import { BranchSummaryPreview } from "./BranchSummaryPreview";
import { QueryError } from "./QueryError";
import { UsageLine } from "./UsageLine";
import { VirtualList } from "./VirtualList";
import { useSessionMemo } from "@/components/viewer/use-session-memo";

const ROW_HEIGHT = 26;

export function PathTab({ session, id }: { session: Session; id: string }) {
  const result = useSessionMemo(
    (open) => {
      try {
        return { path: open.sharedBranch(id), summary: open.pathSummary(id), error: null };
      } catch (error) {
        return { path: TreePath.ofEntries([]), summary: null, error };
      }
    },
    [id],
  ) ?? { path: TreePath.ofEntries([]), summary: null, error: new Error("No session is open.") };
  const labels = session.labels();

  if (result.error) return <QueryError error={result.error} what="path" />;
  const { path, summary } = result;
  const truncated = session.rules.pathStopsAtCompaction && summary !== null && summary.depth !== path.length;
  return (
    <div className="flex h-full min-h-0 flex-col">
      <div className="flex flex-col gap-0.5 border-b border-border px-3 py-2 text-[12px]">
        <div className="flex flex-wrap items-baseline gap-x-3">
          <span>
            <span className="font-semibold tabular-nums">{path.length}</span> {path.length === 1 ? "entry" : "entries"}
          </span>
          {summary ? <span className="text-muted tabular-nums">depth {summary.depth}</span> : null}
          {summary ? <UsageLine usage={summary.usage} /> : null}
        </div>
        {truncated ? <p className="text-muted">Harness path: it stops at a compaction, so it is shorter than the full depth.</p> : null}
      </div>
      <BranchSummaryPreview session={session} id={id} />
      <VirtualList
        label="Path"
        testId="path-list"
        className="flex-1"
        count={path.length}
        revealIndex={path.length - 1}
        estimateSize={() => ROW_HEIGHT}
        getKey={(i) => `${i}:${path.idAt(i)!}`}
        rowProps={(i) => ({ "data-entry-id": path.idAt(i)! })}
        renderRow={(i) => {
          const entry = path.at(i)!;
          const selected = i === path.length - 1;
          const label = labels.get(entry.id);
          return (
            <button
              type="button"
              data-row-focus
              aria-current={selected ? "true" : undefined}
              onClick={() => viewer.select(entry.id)}
              className={`flex h-[26px] w-full items-center gap-2 px-3 text-left text-[12.5px] hover:bg-surface focus-visible:bg-surface focus-visible:outline-none focus-visible:ring-1 focus-visible:ring-accent focus-visible:ring-inset ${selected ? "bg-accent/10 font-medium" : ""}`}
            >
              <span className="w-7 shrink-0 text-right font-mono text-[11px] text-muted tabular-nums">{i + 1}</span>
              <KindBadge kind={entryKind(entry)} />
              <span className="min-w-0 flex-1 truncate">{entrySnippet(entry)}</span>
              {label ? (
                <span className="max-w-24 shrink-0 truncate rounded-full border border-amber-300 px-1.5 text-[10.5px] text-amber-800 dark:border-amber-800 dark:text-amber-300">
                  # {label.label}
                </span>
              ) : null}
              <span className="shrink-0 font-mono text-[11px] text-muted">{entry.id}</span>
            </button>
          );
        }}
      />
    </div>
  );
}
