"use client";

/** The compare pane's head: A and B as cards (kind, id, label, first words) and the common ancestor between them. */
import { entryKind, entrySnippet } from "@/components/inspector/entry-kind";
import { KindBadge } from "@/components/inspector/KindBadge";
import { LabelChip } from "@/components/labels/LabelChip";
import { viewer } from "@/components/viewer/store";
import type { LabelState, Session } from "@/lib/session";

const SIDE_TONE = { A: "border-sky-400 dark:border-sky-600", B: "border-rose-400 dark:border-rose-600" } as const;
const SIDE_BADGE = { A: "bg-sky-500", B: "bg-rose-500" } as const;

export function EndpointCard({ side, id, session, labels }: { side: "A" | "B"; id: string; session: Session; labels: ReadonlyMap<string, LabelState> }) {
  const entry = session.tree.get(id);
  const label = labels.get(id)?.label ?? null;
  const kind = entry ? entryKind(entry) : null;
  return (
    <button
      type="button"
      onClick={() => entry && viewer.select(id)}
      disabled={!entry}
      data-testid={`compare-${side.toLowerCase()}`}
      data-entry-id={id}
      title={entry ? `Select ${id}` : `${id} is not in this file`}
      className={`flex min-w-0 flex-col gap-1 rounded-md border-l-4 border border-border px-2 py-1.5 text-left hover:bg-surface focus-visible:outline focus-visible:outline-2 focus-visible:outline-accent ${SIDE_TONE[side]}`}
    >
      <span className="flex min-w-0 items-center gap-1.5">
        <span className={`inline-flex h-4 w-4 shrink-0 items-center justify-center rounded-[3px] text-[10px] font-bold text-white ${SIDE_BADGE[side]}`}>
          {side}
        </span>
        {kind ? <KindBadge kind={kind} /> : null}
        <span className="truncate text-[12px] font-semibold">{kind?.label ?? "not in the file"}</span>
        <span className="ml-auto shrink-0 font-mono text-[11px] text-muted">{id}</span>
      </span>
      <span className="flex min-w-0 items-center gap-1.5 text-[12px] text-muted">
        <span className="min-w-0 flex-1 truncate">{entry ? entrySnippet(entry) : "—"}</span>
        {label ? <LabelChip label={label} /> : null}
      </span>
    </button>
  );
}

export function AncestorLine({ id, session, labels }: { id: string | null; session: Session; labels: ReadonlyMap<string, LabelState> }) {
  const entry = id === null ? undefined : session.tree.get(id);
  const label = id === null ? null : (labels.get(id)?.label ?? null);
  return (
    <div
      className="flex min-w-0 items-center gap-2 border-t border-border px-3 py-1.5 text-[12px]"
      data-testid="compare-ancestor"
      data-entry-id={id ?? undefined}
    >
      <span className="h-2.5 w-2.5 shrink-0 rounded-sm bg-amber-500" aria-hidden="true" />
      <span className="shrink-0 font-semibold">Common ancestor</span>
      {entry ? (
        <button
          type="button"
          onClick={() => viewer.select(entry.id)}
          title={`Select ${entry.id}`}
          className="flex min-w-0 flex-1 items-center gap-1.5 rounded px-1 text-left hover:bg-surface focus-visible:outline focus-visible:outline-2 focus-visible:outline-accent"
        >
          <KindBadge kind={entryKind(entry)} />
          <span className="min-w-0 flex-1 truncate text-muted">{entrySnippet(entry)}</span>
          {label ? <LabelChip label={label} /> : null}
          <span className="shrink-0 font-mono text-[11px] text-accent underline decoration-dotted underline-offset-2">{entry.id}</span>
        </button>
      ) : (
        <span className="text-muted">none: the two entries are in different trees (no shared root)</span>
      )}
    </div>
  );
}
