"use client";

/**
 * Shown while "Compare with…" waits for the second node: says what to do, and
 * Esc (anywhere) or Cancel stops waiting. Picking happens in the graph.
 */
import { useEffect } from "react";
import { comparePickFrom, useViewer, viewer } from "@/components/viewer/store";

export function ComparePickBanner() {
  const from = useViewer(comparePickFrom);

  useEffect(() => {
    if (from === null) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      event.preventDefault();
      viewer.cancelComparePick();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [from]);

  if (from === null) return null;
  return (
    <div
      role="status"
      data-testid="compare-pick"
      className="flex shrink-0 items-center gap-2 border-b border-sky-300 bg-sky-50 px-3 py-1 text-[12.5px] text-sky-900 dark:border-sky-900 dark:bg-sky-950/50 dark:text-sky-100"
    >
      <span>
        Comparing <span className="font-mono">{from}</span> with…: click a second entry in the graph (or select it with the keys and press Enter).{" "}
        <kbd className="rounded border border-current/30 px-1 font-mono text-[11px]">Esc</kbd> cancels.
      </span>
      <button
        type="button"
        onClick={() => viewer.cancelComparePick()}
        className="ml-auto rounded border border-current/30 px-2 text-[12px] hover:bg-sky-100 dark:hover:bg-sky-900"
      >
        Cancel
      </button>
    </div>
  );
}
