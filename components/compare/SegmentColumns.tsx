"use client";

/** The two divergent segments side by side: what each path adds after the common ancestor, in order. */
import { entryKind, entrySnippet } from "@/components/inspector/entry-kind";
import { VirtualList } from "@/components/inspector/VirtualList";
import type { LabelState, Session } from "@/lib/session";
import { EntryRow, ROW_HEIGHT } from "./EntryRow";

function Column({ side, ids, session, labels, selectedId, tone }: { side: "A" | "B"; ids: readonly string[]; session: Session; labels: ReadonlyMap<string, LabelState>; selectedId: string | null; tone: string }) {
  const title = `Segment ${side}`;
  return (
    <div className="flex min-w-0 flex-1 flex-col" data-testid={`compare-segment-${side.toLowerCase()}`}>
      <h3 className="flex items-center gap-1.5 px-2 pt-2 pb-1 text-[11.5px] font-semibold">
        <span aria-hidden="true" className={`h-2.5 w-2.5 rounded-sm ${tone}`} />
        {title}
        <span className="font-normal text-muted tabular-nums">
          {ids.length} {ids.length === 1 ? "entry" : "entries"}
        </span>
      </h3>
      {ids.length === 0 ? (
        <p className="px-2 pb-2 text-[12px] text-muted">Nothing after the common ancestor: this entry is on the other path.</p>
      ) : (
        <VirtualList
          label={title}
          className="max-h-64"
          count={ids.length}
          estimateSize={() => ROW_HEIGHT}
          getKey={(i) => ids[i]!}
          rowProps={(i) => ({ "data-entry-id": ids[i]! })}
          renderRow={(i) => {
            const entry = session.tree.get(ids[i]!)!;
            return <EntryRow id={entry.id} kind={entryKind(entry)} text={entrySnippet(entry)} label={labels.get(entry.id)?.label ?? null} selected={entry.id === selectedId} />;
          }}
        />
      )}
    </div>
  );
}

export function SegmentColumns({ a, b, session, labels, selectedId }: { a: readonly string[]; b: readonly string[]; session: Session; labels: ReadonlyMap<string, LabelState>; selectedId: string | null }) {
  return (
    <div className="flex min-w-0 divide-x divide-border border-t border-border">
      <Column side="A" ids={a} session={session} labels={labels} selectedId={selectedId} tone="bg-sky-500" />
      <Column side="B" ids={b} session={session} labels={labels} selectedId={selectedId} tone="bg-rose-500" />
    </div>
  );
}
