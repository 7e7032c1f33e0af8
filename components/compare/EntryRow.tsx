"use client";

/**
 * One line for an entry or a context message in the compare pane: kind, first
 * words, label, id. Clicking selects the entry (the comparison stays put).
 */
import type { EntryLook } from "@/components/inspector/entry-kind";
import { KindBadge } from "@/components/inspector/KindBadge";
import { LabelChip } from "@/components/labels/LabelChip";
import { viewer } from "@/components/viewer/store";

export const ROW_HEIGHT = 26;

export function EntryRow({
  id,
  kind,
  text,
  label,
  n,
  selected,
}: {
  id: string;
  kind: EntryLook;
  text: string;
  label: string | null;
  n?: number;
  selected: boolean;
}) {
  return (
    <button
      type="button"
      data-row-focus
      aria-current={selected ? "true" : undefined}
      onClick={() => viewer.select(id)}
      title={`Select ${id}`}
      className={`flex h-[26px] w-full items-center gap-2 px-2 text-left text-[12px] hover:bg-surface focus-visible:bg-surface focus-visible:outline-none focus-visible:ring-1 focus-visible:ring-accent focus-visible:ring-inset ${selected ? "bg-accent/10" : ""}`}
    >
      {n !== undefined ? <span className="w-6 shrink-0 text-right font-mono text-[10.5px] text-muted tabular-nums">{n}</span> : null}
      <KindBadge kind={kind} />
      <span className="min-w-0 flex-1 truncate">{text}</span>
      {label ? <LabelChip label={label} /> : null}
      <span className="shrink-0 font-mono text-[10.5px] text-muted">{id}</span>
    </button>
  );
}
