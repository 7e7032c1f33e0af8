"use client";

/** The two divergent segments side by side: what each path adds after the common ancestor, in order. */
import { entryKind, entrySnippet } from "@/components/inspector/entry-kind";
import { VirtualList } from "@/components/inspector/VirtualList";
import type { LabelState, Session } from "@/lib/session";
import { EntryRow, ROW_HEIGHT } from "./EntryRow";

/** Why a segment is empty: its entry is the common ancestor itself, on the other entry's path (or both are one entry). */
function emptySegmentNote(side: "A" | "B", otherCount: number): string {
  const other = side === "A" ? "B" : "A";
  if (otherCount === 0) return "A and B are the same entry: nothing lies after it on either side.";
  return `${side} is the common ancestor: it lies on ${other}'s path, which goes on from it.`;
}

function Column({
  side,
  ids,
  otherCount,
  session,
  labels,
  selectedId,
  tone,
}: {
  side: "A" | "B";
  ids: readonly string[];
  otherCount: number;
  session: Session;
  labels: ReadonlyMap<string, LabelState>;
  selectedId: string | null;
  tone: string;
}) {
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
        <p className="px-2 pb-2 text-[12px] text-muted">{emptySegmentNote(side, otherCount)}</p>
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
            return (
              <EntryRow
                id={entry.id}
                kind={entryKind(entry)}
                text={entrySnippet(entry)}
                label={labels.get(entry.id)?.label ?? null}
                selected={entry.id === selectedId}
              />
            );
          }}
        />
      )}
    </div>
  );
}

export function SegmentColumns({
  a,
  b,
  session,
  labels,
  selectedId,
}: {
  a: readonly string[];
  b: readonly string[];
  session: Session;
  labels: ReadonlyMap<string, LabelState>;
  selectedId: string | null;
}) {
  return (
    <div className="flex min-w-0 divide-x divide-border border-t border-border">
      <Column side="A" ids={a} otherCount={b.length} session={session} labels={labels} selectedId={selectedId} tone="bg-sky-500" />
      <Column side="B" ids={b} otherCount={a.length} session={session} labels={labels} selectedId={selectedId} tone="bg-rose-500" />
    </div>
  );
}
