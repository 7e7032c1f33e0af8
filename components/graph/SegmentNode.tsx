"use client";

/**
 * A folded run of single-child entries, drawn as a stack of cards: how many,
 * the first and last words, counts by role. Clicking (or Enter/Space on the
 * keyboard) expands it in place.
 */
import { Handle, Position, type NodeProps } from "@xyflow/react";
import { memo, useMemo } from "react";
import { useSegmentFirstHit, useSegmentHits } from "@/components/search/use-search";
import { useViewer } from "@/components/viewer/store";
import { describeEntry } from "@/lib/layout/describe";
import type { SegmentFlowNode } from "./flow-elements";
import { FirstKeptMark } from "./EntryNode";
import { Icon } from "./icons";
import { cardState, HIDDEN_HANDLE } from "./node-style";

function Count({ n, label, className }: { n: number; label: string; className: string }) {
  if (!n) return null;
  return (
    <span title={`${n} ${label}`} className={`tabular-nums ${className}`}>
      {n.toLocaleString("en-US")}
      <span className="ml-px opacity-70">{label[0]}</span>
    </span>
  );
}

function SegmentNodeView({ data }: NodeProps<SegmentFlowNode>) {
  const { counts } = data;
  const hits = useSegmentHits(data.ids);
  const firstHit = useSegmentFirstHit(data.ids);
  const hitEntry = useViewer((s) => (firstHit === null ? undefined : s.doc?.session.tree.get(firstHit)));
  const firstKept = useViewer((s) => s.firstKeptPreview !== null && ` ${data.ids} `.includes(` ${s.firstKeptPreview} `));
  const family = useViewer((s) => s.family);
  // a fork's folded run may start in what it copied from its source and go on with its own work
  const inherited = useMemo(() => (family?.inherited.size ? data.ids.split(" ").filter((id) => family.inherited.has(id)).length : 0), [family, data.ids]);
  return (
    <div
      data-entry-ids={data.ids}
      data-segment={data.segment}
      data-leaf={data.leaf ? "true" : "false"}
      data-active-path={data.activePath ? "true" : "false"}
      data-selected={data.selected ? "true" : "false"}
      data-selected-entry-id={data.selectedEntry ?? undefined}
      data-ghost={data.ghost ? "true" : undefined}
      data-search-hits={hits || undefined}
      data-filtered={data.filtered || undefined}
      data-first-kept={firstKept ? "true" : undefined}
      data-inherited={inherited ? (inherited === data.count ? "all" : String(inherited)) : undefined}
      title={`${data.count} entries folded${inherited ? ` (${inherited === data.count ? "all" : inherited} inherited from the session this one was forked from)` : ""}: click to expand`}
      className={`relative flex h-full w-full cursor-pointer flex-col justify-center gap-0.5 rounded-md border border-dashed px-2 text-[11px] leading-[14px] ${cardState(data)} ${hits ? "outline-[2.5px] outline-offset-[3px] outline-yellow-400 outline-dashed dark:outline-yellow-300/90" : ""}`}
    >
      {/* the stack under the card says "more than one" at a glance */}
      <span aria-hidden="true" className="absolute inset-x-1.5 -bottom-[4px] -z-10 h-full rounded-md border border-border bg-surface" />
      <span aria-hidden="true" className="absolute inset-x-3 -bottom-[8px] -z-20 h-full rounded-md border border-border bg-surface" />
      <Handle type="target" position={Position.Top} id="in" isConnectable={false} className={HIDDEN_HANDLE} />
      <Handle type="target" position={Position.Right} id="move-in" isConnectable={false} className={HIDDEN_HANDLE} />
      <Handle type="source" position={Position.Bottom} id="out" isConnectable={false} className={HIDDEN_HANDLE} />
      <div className="flex items-center gap-1">
        <Icon name="segment" className="h-3 w-3 text-muted" />
        <span className="font-medium tabular-nums">{data.count.toLocaleString("en-US")} entries</span>
        {data.selectedIndex > 0 && <span className="text-[10px] text-accent tabular-nums">· at {data.selectedIndex}</span>}
        <span className="ml-auto flex gap-1.5 text-[10px]">
          <Count n={counts.user} label="user" className="text-sky-700 dark:text-sky-400" />
          <Count n={counts.assistant} label="assistant" className="text-violet-700 dark:text-violet-400" />
          <Count n={counts.tool} label="tool" className="text-amber-700 dark:text-amber-400" />
          <Count n={counts.other} label="other" className="text-muted" />
          {data.filtered > 0 && (
            <span
              data-testid="segment-filtered"
              title={`${data.filtered.toLocaleString("en-US")} more ${data.filtered === 1 ? "entry lies" : "entries lie"} between these, hidden by the tree filter`}
              className="flex items-center gap-px text-muted tabular-nums"
            >
              <Icon name="filter" className="h-2.5 w-2.5" />
              {data.filtered.toLocaleString("en-US")}
            </span>
          )}
        </span>
      </div>
      {hitEntry ? (
        <p
          className="truncate text-muted"
          data-testid="segment-first-hit"
          data-entry-id={hitEntry.id}
          title="the first entry here that matches the search (Enter opens the segment at it)"
        >
          <span className="rounded-sm bg-yellow-200/80 px-0.5 text-yellow-950 dark:bg-yellow-300/30 dark:text-yellow-100">
            {describeEntry(hitEntry).text || "…"}
          </span>
        </p>
      ) : (
        <p className="truncate text-muted">
          <span className="text-foreground/80">{data.first || "…"}</span>
        </p>
      )}
      <p className="truncate text-muted">
        <span aria-hidden="true">… </span>
        {data.last || "…"}
      </p>
      {firstKept && <FirstKeptMark />}
      {data.leaf && (
        <span className="absolute -top-2.5 left-2.5 rounded-full bg-accent px-1.5 text-[9px] leading-[15px] font-semibold tracking-wide text-white uppercase dark:text-slate-950">
          leaf inside
        </span>
      )}
      {inherited > 0 && hits === 0 && (
        <span
          data-testid="segment-inherited"
          className="absolute -top-2.5 right-2.5 rounded-full border border-border bg-surface px-1.5 text-[9px] leading-[13px] font-medium tracking-wide text-muted uppercase tabular-nums"
        >
          {inherited === data.count ? "inherited" : `${inherited.toLocaleString("en-US")} inherited`}
        </span>
      )}
      {hits > 0 && (
        <span
          title={`${hits} of these entries match the search`}
          className="absolute -top-2.5 right-2 rounded-full bg-yellow-300 px-1.5 text-[9px] leading-[15px] font-semibold text-yellow-950 tabular-nums shadow-sm dark:bg-yellow-300"
        >
          {hits.toLocaleString("en-US")} {hits === 1 ? "hit" : "hits"}
        </span>
      )}
    </div>
  );
}

export const SegmentNode = memo(SegmentNodeView);
