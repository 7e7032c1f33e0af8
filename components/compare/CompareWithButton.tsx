"use client";

/** "Compare with…": starts picking the second node of a comparison with the selected entry. */
import { comparePickFrom, useViewer, viewer } from "@/components/viewer/store";

export function CompareWithButton({ className = "" }: { className?: string }) {
  const selectedId = useViewer((s) => s.selectedId);
  const picking = useViewer((s) => comparePickFrom(s) !== null);
  return (
    <button
      type="button"
      disabled={selectedId === null}
      aria-pressed={picking}
      onClick={() => (picking ? viewer.cancelComparePick() : viewer.startComparePick())}
      title="Compare the selected entry with another: click the second one in the graph (Shift+click does it in one step)"
      className={`inline-flex h-6 items-center gap-1 rounded border px-2 text-[12px] font-medium focus-visible:outline focus-visible:outline-2 focus-visible:outline-accent disabled:cursor-not-allowed disabled:opacity-50 ${picking ? "border-sky-400 bg-sky-50 text-sky-900 dark:border-sky-700 dark:bg-sky-950 dark:text-sky-100" : "border-border bg-background hover:bg-surface"} ${className}`}
    >
      Compare with…
    </button>
  );
}
