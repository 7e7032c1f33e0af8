"use client";

/** The small bar over the canvas: jump to the leaf or the newest leaf below, the context overlay, keys help, and what is shown. */
import type { ReactNode } from "react";
import { viewer, useViewer } from "@/components/viewer/store";
import { Icon, type IconName } from "./icons";

function ToolButton({
  icon,
  label,
  onClick,
  pressed,
  disabled,
  title,
}: {
  icon: IconName;
  label: ReactNode;
  onClick: () => void;
  pressed?: boolean;
  disabled?: boolean;
  title: string;
}) {
  return (
    <button
      type="button"
      title={title}
      aria-pressed={pressed}
      disabled={disabled}
      onClick={onClick}
      className={`flex h-6 items-center gap-1 rounded px-1.5 text-[11px] whitespace-nowrap disabled:opacity-40 ${
        pressed ? "bg-[color-mix(in_oklab,var(--accent)_14%,transparent)] text-accent" : "text-foreground/80 hover:bg-surface hover:text-foreground"
      }`}
    >
      <Icon name={icon} className="h-3.5 w-3.5" />
      {label}
    </button>
  );
}

export interface GraphToolbarProps {
  entries: number;
  nodes: number;
  scrubbing: boolean;
  canGoNewest: boolean;
  helpOpen: boolean;
  onLeaf: () => void;
  onNewest: () => void;
  onHelp: () => void;
}

export function GraphToolbar(props: GraphToolbarProps) {
  const overlay = useViewer((s) => s.contextOverlay);
  return (
    <div className="pointer-events-none absolute inset-x-2 top-2 z-10 flex items-start justify-between gap-2">
      <div
        role="toolbar"
        aria-label="Graph"
        className="pointer-events-auto flex items-center gap-0.5 rounded-md border border-border bg-(--graph-card)/95 p-0.5 shadow-sm backdrop-blur"
      >
        <ToolButton icon="leaf" label="Leaf" title="Select the leaf (End)" onClick={props.onLeaf} />
        <ToolButton
          icon="newest"
          label="Newest leaf below"
          title="Follow the newest child down from the selected entry (n)"
          disabled={!props.canGoNewest}
          onClick={props.onNewest}
        />
        <span className="mx-0.5 h-4 w-px bg-border" aria-hidden="true" />
        <ToolButton
          icon="compaction"
          label="Context cut"
          title="Fade the entries on the selected entry's path that its context leaves out (c)"
          pressed={overlay}
          onClick={() => viewer.setContextOverlay(!overlay)}
        />
        <ToolButton icon="keyboard" label="Keys" title="Keyboard help (?)" pressed={props.helpOpen} onClick={props.onHelp} />
      </div>
      <div className="pointer-events-auto flex items-center gap-2 rounded-md border border-border bg-(--graph-card)/95 px-2 py-1 text-[11px] text-muted shadow-sm backdrop-blur">
        {props.scrubbing && (
          <button
            type="button"
            onClick={() => viewer.scrubHistory(null)}
            className="rounded bg-accent px-1.5 font-medium text-white dark:text-slate-950"
            title="Leave the leaf history and show the file as it is"
          >
            History · back to now
          </button>
        )}
        <span className="tabular-nums" title="entries in the file · nodes drawn (folded segments count once)">
          {props.entries.toLocaleString("en-US")} entries · {props.nodes.toLocaleString("en-US")} nodes
        </span>
      </div>
    </div>
  );
}
