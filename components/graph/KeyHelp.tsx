"use client";

/** The graph's keys, listed from the key map (keys.ts) so the help never drifts from what the keys do. */
import { READING_KEYS } from "@/components/viewer/reading-keys";
import { useViewer } from "@/components/viewer/store";
import type { ReadingToggles } from "@/components/viewer/view-params";
import { GRAPH_KEYS, keyLabel } from "./keys";

function ReadingState({ toggle }: { toggle: keyof ReadingToggles }) {
  const on = useViewer((s) => s.reading[toggle]);
  return <span className="text-subtle">({toggle === "outputs" ? (on ? "unfolded" : "folded") : on ? "shown" : "hidden"})</span>;
}

export function KeyHelp({ onClose }: { onClose: () => void }) {
  return (
    <div
      role="dialog"
      aria-label="Graph keys"
      className="absolute top-11 left-2 z-20 w-[340px] rounded-lg border border-border bg-(--graph-card) p-3 text-xs shadow-xl"
    >
      <div className="mb-2 flex items-center justify-between">
        <h2 className="font-semibold">Keys</h2>
        <button type="button" onClick={onClose} className="rounded px-1.5 text-muted hover:bg-surface hover:text-foreground" aria-label="Close keys help">
          Esc
        </button>
      </div>
      <dl className="grid grid-cols-[auto_1fr] items-start gap-x-3 gap-y-1">
        {GRAPH_KEYS.map((binding) => (
          <div key={binding.action} className="contents">
            <dt className="flex flex-wrap items-start gap-1">
              {binding.keys.map((key) => (
                <kbd key={key} className="rounded border border-border bg-surface px-1 font-mono text-[10px] leading-4">
                  {keyLabel(key)}
                </kbd>
              ))}
            </dt>
            <dd className="text-muted">{binding.help}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-2 text-[11px] text-muted">Click a node to select it; click a folded segment to expand it. Keys work while the graph has focus.</p>
      <h3 className="mt-3 mb-1.5 font-semibold">Reading (anywhere)</h3>
      <dl className="grid grid-cols-[auto_1fr] items-start gap-x-3 gap-y-1">
        {READING_KEYS.map((binding) => (
          <div key={binding.key} className="contents">
            <dt>
              <kbd className="rounded border border-border bg-surface px-1 font-mono text-[10px] leading-4">{binding.key}</kbd>
            </dt>
            <dd className="text-muted">
              {binding.help} <ReadingState toggle={binding.toggle} />
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
