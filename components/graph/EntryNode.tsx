"use client";

/**
 * One entry as a compact card: kind icon, title, the first words, badges
 * (label, model, branch count), and the marks the view computed (leaf,
 * active path, selected, cut from the context, after the scrubbed line).
 */
import { Handle, Position, type NodeProps } from "@xyflow/react";
import { memo, type MouseEvent } from "react";
import { useSearchHit } from "@/components/search/use-search";
import { isInherited, viewer, useViewer } from "@/components/viewer/store";
import { compareRoleOf } from "@/components/compare/compare-model";
import { CompareMark, COMPARE_OUTLINE } from "@/components/compare/CompareMark";
import type { EntryFlowNode } from "./flow-elements";
import { Icon, KIND_TEXT } from "./icons";
import { cardState, HIDDEN_HANDLE } from "./node-style";

/** A card copied from the fork's source: drawn dashed, its work is the source's */
const INHERITED_CARD = "!border-dashed";

const KIND_BAR: Record<string, string> = {
  user: "bg-sky-500",
  assistant: "bg-violet-500",
  toolResult: "bg-amber-500",
  bashExecution: "bg-emerald-500",
  custom: "bg-teal-500",
  branchSummary: "bg-orange-500",
  compaction: "bg-orange-500",
  model: "bg-slate-400",
  thinking: "bg-slate-400",
  label: "bg-pink-500",
  sessionInfo: "bg-pink-500",
  unknown: "bg-zinc-400",
};

function stop(event: MouseEvent, action: () => void) {
  event.stopPropagation();
  action();
}

function shortModel(model: string): string {
  const slash = model.lastIndexOf("/");
  return slash >= 0 ? model.slice(slash + 1) : model;
}

/** Where a compaction at the selection would start keeping: a line above the card and a tag. */
export function FirstKeptMark() {
  return (
    <>
      <span
        aria-hidden="true"
        className="pointer-events-none absolute -top-2 -right-4 -left-4 border-t-2 border-dashed border-emerald-500 dark:border-emerald-400"
      />
      <span className="absolute -top-[17px] right-2 rounded-full bg-emerald-600 px-1.5 text-[9px] leading-[15px] font-semibold tracking-wide text-white uppercase dark:bg-emerald-500 dark:text-slate-950">
        kept from here
      </span>
    </>
  );
}

function EntryNodeView({ data }: NodeProps<EntryFlowNode>) {
  const compaction = data.kind === "compaction";
  const summary = data.kind === "branchSummary";
  const role = useViewer((s) => compareRoleOf(s, data.id));
  const hit = useSearchHit(data.id);
  const firstKept = useViewer((s) => s.firstKeptPreview === data.id);
  const inherited = useViewer((s) => isInherited(s, data.id));
  return (
    <div
      data-entry-id={data.id}
      data-kind={data.kind}
      data-leaf={data.leaf ? "true" : "false"}
      data-active-path={data.activePath ? "true" : "false"}
      data-selected={data.selected ? "true" : "false"}
      data-cut={data.cut ? "true" : undefined}
      data-ghost={data.ghost ? "true" : undefined}
      data-compare={role ?? undefined}
      data-search-hit={hit ? "true" : undefined}
      data-first-kept={firstKept ? "true" : undefined}
      data-inherited={inherited ? "true" : undefined}
      data-coming={data.coming ? "true" : undefined}
      title={`${data.title} · ${data.id}${inherited ? " · inherited from the session this one was forked from" : ""}`}
      className={`group relative flex h-full w-full cursor-pointer flex-col gap-0.5 rounded-md border py-1 pr-2 pl-3 text-[11px] leading-[14px] ${cardState(data)} ${
        compaction
          ? "border-y-2 !border-orange-400 bg-[repeating-linear-gradient(135deg,transparent_0_7px,rgb(249_115_22/0.07)_7px_14px)] dark:!border-orange-500/80"
          : ""
      } ${summary ? "!border-orange-300 dark:!border-orange-700" : ""} ${role ? COMPARE_OUTLINE[role] : ""} ${hit ? "outline-[2.5px] outline-offset-[3px] outline-yellow-400 outline-solid dark:outline-yellow-300/90" : ""} ${inherited ? INHERITED_CARD : ""}`}
    >
      {compaction && (
        <span aria-hidden="true" className="pointer-events-none absolute top-1/2 -right-3 -left-3 -z-10 border-t-2 border-dashed border-orange-400/70" />
      )}
      {firstKept && <FirstKeptMark />}
      <span
        aria-hidden="true"
        className={`absolute top-1 bottom-1 left-1 w-[3px] rounded-full ${data.error ? "bg-red-500" : (KIND_BAR[data.kind] ?? "bg-zinc-400")}`}
      />
      <Handle type="target" position={Position.Top} id="in" isConnectable={false} className={HIDDEN_HANDLE} />
      <Handle type="target" position={Position.Right} id="move-in" isConnectable={false} className={HIDDEN_HANDLE} />
      <Handle type="source" position={Position.Bottom} id="out" isConnectable={false} className={HIDDEN_HANDLE} />

      <div className="flex h-4 min-w-0 items-center gap-1">
        <span className={data.error ? "text-red-600 dark:text-red-400" : KIND_TEXT[data.kind]}>
          <Icon name={data.kind} className="h-3 w-3" />
        </span>
        <span className={`min-w-0 truncate font-medium ${data.error ? "text-red-700 dark:text-red-400" : ""}`}>{data.title}</span>
        <span className="ml-auto flex min-w-0 shrink items-center gap-1">
          {data.label && (
            <span
              title={`label: ${data.label}`}
              className="max-w-[88px] truncate rounded-sm bg-pink-100 px-1 text-[10px] leading-[14px] font-medium text-pink-800 dark:bg-pink-950 dark:text-pink-300"
            >
              #{data.label}
            </span>
          )}
          {data.model && (
            <span
              title={`model: ${data.model}`}
              className="max-w-[96px] truncate rounded-sm bg-slate-200/80 px-1 font-mono text-[10px] leading-[14px] text-slate-700 dark:bg-slate-800 dark:text-slate-300"
            >
              {shortModel(data.model)}
            </span>
          )}
        </span>
      </div>
      {data.tools && data.text ? (
        <>
          <p className="truncate text-muted">{data.text}</p>
          <p className="truncate font-mono text-[10px] text-muted">{data.tools}</p>
        </>
      ) : data.tools ? (
        <p className="line-clamp-2 font-mono text-[10px] leading-[14px] break-all text-muted">{data.tools}</p>
      ) : data.coming ? (
        <p className="mt-1 h-2 w-3/4 animate-pulse rounded-sm bg-slate-200 motion-reduce:animate-none dark:bg-slate-700">
          <span className="sr-only">reading…</span>
        </p>
      ) : (
        <p className="line-clamp-2 break-words text-muted">{data.text || "\u00a0"}</p>
      )}

      {inherited && (
        <span className="absolute -top-2.5 right-2.5 rounded-full border border-border bg-surface px-1.5 text-[9px] leading-[13px] font-medium tracking-wide text-muted uppercase">
          inherited
        </span>
      )}
      {data.leaf && (
        <span className="absolute -top-2.5 left-2.5 flex items-center gap-0.5 rounded-full bg-accent px-1.5 text-[9px] leading-[15px] font-semibold tracking-wide text-white uppercase shadow-sm dark:text-slate-950">
          <Icon name="leaf" className="h-2.5 w-2.5" />
          leaf
        </span>
      )}
      {role && <CompareMark role={role} />}
      {data.runStart && (
        <button
          type="button"
          tabIndex={-1}
          title={`Fold these ${data.runSize} entries back into one segment`}
          onClick={(e) => stop(e, () => viewer.toggleSegment(data.runStart!))}
          className="absolute -top-2.5 right-2 flex items-center gap-0.5 rounded-full border border-border bg-background px-1.5 text-[9px] leading-[13px] text-muted hover:border-accent hover:text-accent"
        >
          <Icon name="segment" className="h-2.5 w-2.5" />
          fold {data.runSize}
        </button>
      )}
      {(data.childCount > 1 || data.hidden > 0) && (
        <button
          type="button"
          tabIndex={-1}
          title={data.hidden > 0 ? `Show the ${data.hidden} hidden entries` : `Branch point: ${data.childCount} children. Click to collapse the subtree`}
          onClick={(e) => stop(e, () => viewer.toggleCollapsed(data.id))}
          className={`absolute -bottom-2.5 left-1/2 flex -translate-x-1/2 items-center gap-0.5 rounded-full border px-1.5 text-[10px] leading-[14px] font-medium tabular-nums shadow-sm ${
            data.hidden > 0
              ? "border-accent bg-accent text-white dark:text-slate-950"
              : "border-border bg-background text-muted hover:border-accent hover:text-accent"
          }`}
        >
          {data.hidden > 0 ? (
            `+${data.hidden.toLocaleString("en-US")}`
          ) : (
            <>
              <Icon name="branch" className="h-2.5 w-2.5" />
              {data.childCount}
            </>
          )}
        </button>
      )}
    </div>
  );
}

export const EntryNode = memo(EntryNodeView);
