"use client";

/**
 * The leaf history: where the cursor was after each line of the file. Scrubbing
 * (slider, arrow keys) sets `viewer.scrubHistory(i)`; the graph then ghosts the
 * later lines and moves its leaf marker. Rewinds (branches, HX leaf moves) are
 * ticks of their own, and Shift+←/→ steps between them.
 */
import { useMemo, type KeyboardEvent } from "react";
import { sessionOf, useViewer, viewer } from "@/components/viewer/store";
import { describeStep, nearestRewind, sessionRewinds } from "@/lib/layout/leaf-history";
import { useSessionMemo } from "@/components/viewer/use-session-memo";

const MAX_TICKS = 600;

const NO_REWINDS: number[] = [];

export function LeafTimeline({ className = "" }: { className?: string }) {
  const session = useViewer(sessionOf);
  const historyStep = useViewer((s) => s.historyStep);

  const history = session?.tree.leafHistory;
  const count = history?.length ?? 0;
  const rewinds = useSessionMemo((open) => sessionRewinds(open, null), []) ?? NO_REWINDS;
  const ticks = useMemo(() => {
    if (!history || count < 2) return [];
    // on a long file several rewinds share a pixel: keep one tick per 0.1 %
    const seen = new Set<number>();
    const out: { i: number; kind: string; at: number }[] = [];
    for (const i of rewinds) {
      const at = Math.round((i / (count - 1)) * 1000) / 10;
      if (seen.has(at) || out.length >= MAX_TICKS) continue;
      seen.add(at);
      out.push({ i, kind: history.kindAt(i), at });
    }
    return out;
  }, [history, rewinds, count]);

  if (!session || !history || count === 0) return null;
  const current = historyStep ?? count - 1;
  const step = history.at(current)!;
  const now = historyStep === null;

  const go = (i: number | null) => viewer.scrubHistory(i === null ? null : Math.max(0, Math.min(count - 1, i)));
  const previousRewind = nearestRewind(rewinds, current, -1);
  const nextRewind = nearestRewind(rewinds, current, 1);

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (!event.shiftKey || (event.key !== "ArrowLeft" && event.key !== "ArrowRight")) return;
    const target = event.key === "ArrowLeft" ? previousRewind : nextRewind;
    event.preventDefault();
    if (target !== null) go(target);
  };

  return (
    <section aria-label="Leaf history" data-testid="leaf-timeline" className={`flex min-w-0 items-center gap-2 px-2 py-1 text-[11px] ${className}`}>
      <span className="shrink-0 font-medium text-muted">Leaf history</span>
      <button
        type="button"
        disabled={previousRewind === null}
        onClick={() => go(previousRewind)}
        title="Previous rewind (Shift+←)"
        className="shrink-0 rounded px-1 text-muted hover:bg-surface hover:text-foreground disabled:opacity-30"
      >
        ◀ rewind
      </button>
      <div className="relative min-w-24 flex-1">
        <div aria-hidden="true" className="pointer-events-none absolute inset-x-[6px] top-1/2 h-3 -translate-y-1/2">
          {ticks.map((tick) => (
            <span
              key={tick.i}
              title={tick.kind}
              className={`absolute top-0 h-3 w-[2px] -translate-x-1/2 rounded-full ${tick.kind === "leaf-entry" ? "bg-pink-500" : "bg-amber-500"}`}
              style={{ left: `${tick.at}%` }}
            />
          ))}
        </div>
        <input
          type="range"
          min={0}
          max={count - 1}
          step={1}
          value={current}
          aria-label="Leaf history step"
          aria-valuetext={`step ${current + 1} of ${count}, line ${step.line}: ${describeStep(step)}`}
          onChange={(e) => go(Number(e.target.value))}
          onKeyDown={onKeyDown}
          className="relative block h-4 w-full cursor-pointer appearance-none bg-transparent focus-visible:outline-none [&::-moz-range-thumb]:h-3 [&::-moz-range-thumb]:w-3 [&::-moz-range-thumb]:rounded-full [&::-moz-range-thumb]:border-0 [&::-moz-range-thumb]:bg-accent [&::-moz-range-track]:h-[3px] [&::-moz-range-track]:rounded-full [&::-moz-range-track]:bg-border [&::-webkit-slider-runnable-track]:h-[3px] [&::-webkit-slider-runnable-track]:rounded-full [&::-webkit-slider-runnable-track]:bg-border [&::-webkit-slider-thumb]:-mt-[4.5px] [&::-webkit-slider-thumb]:h-3 [&::-webkit-slider-thumb]:w-3 [&::-webkit-slider-thumb]:appearance-none [&::-webkit-slider-thumb]:rounded-full [&::-webkit-slider-thumb]:bg-accent [&::-webkit-slider-thumb]:shadow focus-visible:[&::-webkit-slider-thumb]:ring-2 focus-visible:[&::-webkit-slider-thumb]:ring-accent focus-visible:[&::-webkit-slider-thumb]:ring-offset-2 focus-visible:[&::-webkit-slider-thumb]:ring-offset-background"
        />
      </div>
      <button
        type="button"
        disabled={nextRewind === null}
        onClick={() => go(nextRewind)}
        title="Next rewind (Shift+→)"
        className="shrink-0 rounded px-1 text-muted hover:bg-surface hover:text-foreground disabled:opacity-30"
      >
        rewind ▶
      </button>
      <output className="w-[min(42ch,34%)] shrink-0 truncate text-muted tabular-nums" title={describeStep(step)}>
        <span className="text-foreground">
          {(current + 1).toLocaleString("en-US")}/{count.toLocaleString("en-US")}
        </span>{" "}
        · line {step.line} ·{" "}
        <span className={step.kind === "append" ? "" : step.kind === "leaf-entry" ? "text-pink-600 dark:text-pink-400" : "text-amber-700 dark:text-amber-400"}>
          {describeStep(step)}
        </span>
      </output>
      <button
        type="button"
        disabled={now}
        onClick={() => go(null)}
        className="shrink-0 rounded border border-border px-1.5 py-0.5 font-medium enabled:border-accent enabled:text-accent enabled:hover:bg-[color-mix(in_oklab,var(--accent)_10%,transparent)] disabled:text-muted disabled:opacity-60"
      >
        Back to now
      </button>
    </section>
  );
}
