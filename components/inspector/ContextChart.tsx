"use client";

/**
 * The context's size along the selected path, root → entry: each reply's
 * reported context (a line), the compactions that cut it back and the branch
 * summaries (marks), the window and pi's compaction threshold (dashed). A
 * mark is a button: it selects its entry.
 */
import { useDeferredValue, useMemo } from "react";
import { viewer } from "@/components/viewer/store";
import { useSessionMemo } from "@/components/viewer/use-session-memo";
import { chartPoints, contextSizesAt, ContextSizes, type ContextSizePoint } from "@/lib/session";
import { compactNumber } from "./UsageLine";

const W = 320;
const H = 64;
const PAD = 3;

const NO_POINTS = ContextSizes.of([]);

/**
 * Drawn in a render of its own after the messages are shown (a deferred value): on a path of hundreds of
 * thousands of entries its walk is most of what selecting the entry costs.
 */
export function ContextChart({
  id,
  current,
  contextWindow,
  threshold,
}: {
  /** the selected entry: the chart runs root → it */
  id: string;
  /** the estimate at the selected entry (the end of the path) */
  current: number | null;
  contextWindow: number | null;
  threshold: number | null;
}) {
  const drawn = useDeferredValue<string | null>(id, null);
  const sizes = useSessionMemo(
    (open) => {
      if (drawn === null) return null;
      try {
        return { points: contextSizesAt(open, drawn), pathLength: open.sharedBranch(drawn).length };
      } catch {
        return null; // the deferred entry is not in this session (another one was opened meanwhile)
      }
    },
    [drawn],
    { light: true },
  );
  const points = sizes?.points ?? NO_POINTS;
  const pathLength = sizes?.pathLength ?? 0;
  // the selection's own estimate belongs on its own path only
  const here = drawn === id ? current : null;
  // two points per unit of width at most: a long path's replies, thinned to what the line can show
  const shown = useMemo(() => chartPoints(points, pathLength, 2 * W), [points, pathLength]);
  const top = Math.max(1, contextWindow ?? 0, here ?? 0, shown.peak);
  const x = (index: number) => PAD + (pathLength <= 1 ? 0 : (index / (pathLength - 1)) * (W - 2 * PAD));
  const y = (tokens: number) => H - PAD - (tokens / top) * (H - 2 * PAD);
  const usage = shown.points.filter((p) => p.kind === "usage");
  const line = usage.map((p) => `${x(p.index).toFixed(1)},${y(p.tokens!).toFixed(1)}`).join(" ");
  const cuts = shown.points.filter((p) => p.kind !== "usage");
  const replies = points.replies;
  return (
    <figure className="flex flex-col gap-0.5" data-testid="context-chart" aria-busy={drawn !== id}>
      <svg viewBox={`0 0 ${W} ${H}`} className="h-16 w-full overflow-visible text-muted" role="img" aria-label={chartLabel(replies, shown.peak, cuts, here)}>
        {contextWindow ? (
          <line x1={0} x2={W} y1={y(contextWindow)} y2={y(contextWindow)} className="stroke-current" strokeDasharray="2 3" strokeWidth={0.75} />
        ) : null}
        {threshold !== null && threshold > 0 ? (
          <line
            x1={0}
            x2={W}
            y1={y(threshold)}
            y2={y(threshold)}
            className="stroke-red-500/70 dark:stroke-red-400/70"
            strokeDasharray="4 3"
            strokeWidth={0.75}
          />
        ) : null}
        {cuts.map((p) => (
          <g
            key={p.entryId}
            role="button"
            tabIndex={-1}
            className="cursor-pointer"
            data-chart-entry={p.entryId}
            data-chart-kind={p.kind}
            onClick={() => viewer.select(p.entryId)}
          >
            <title>
              {p.kind === "compaction"
                ? `compaction ${p.entryId}${p.tokens !== null ? `: ${compactNumber(p.tokens)} tokens before` : ""}`
                : `branch summary ${p.entryId}`}
            </title>
            <line
              x1={x(p.index)}
              x2={x(p.index)}
              y1={PAD}
              y2={H - PAD}
              strokeWidth={1.25}
              strokeDasharray={p.kind === "branchSummary" ? "2 2" : undefined}
              className={p.kind === "compaction" ? "stroke-orange-500 dark:stroke-orange-400" : "stroke-violet-500 dark:stroke-violet-400"}
            />
            <rect x={x(p.index) - 3} y={0} width={6} height={H} fill="transparent" />
          </g>
        ))}
        {usage.length > 1 ? <polyline points={line} fill="none" strokeWidth={1.25} className="stroke-sky-600 dark:stroke-sky-400" /> : null}
        {usage.length === 1 ? <circle cx={x(usage[0]!.index)} cy={y(usage[0]!.tokens!)} r={1.75} className="fill-sky-600 dark:fill-sky-400" /> : null}
        {here !== null ? <circle cx={x(pathLength - 1)} cy={y(here)} r={2.5} className="fill-accent" data-chart-current /> : null}
      </svg>
      <figcaption className="flex flex-wrap gap-x-3 text-[10.5px] text-muted">
        <span>
          <span className="mr-1 inline-block h-0.5 w-3 bg-sky-600 align-middle dark:bg-sky-400" />
          context per reply (usage)
        </span>
        <span>
          <span className="mr-1 inline-block h-2.5 w-0.5 bg-orange-500 align-middle dark:bg-orange-400" />
          compaction
        </span>
        <span>
          <span className="mr-1 inline-block h-2.5 w-0.5 bg-violet-500 align-middle dark:bg-violet-400" />
          branch summary
        </span>
        {threshold !== null ? (
          <span>
            <span className="mr-1 inline-block w-3 border-t border-dashed border-red-500 align-middle" />
            pi compacts above
          </span>
        ) : null}
      </figcaption>
    </figure>
  );
}

function chartLabel(replies: number, peak: number, cuts: readonly ContextSizePoint[], current: number | null): string {
  const compactions = cuts.filter((p) => p.kind === "compaction").length;
  const summaries = cuts.length - compactions;
  return `Context size along the path: ${replies} replies, peak ${compactNumber(peak)} tokens, ${compactions} compaction${compactions === 1 ? "" : "s"}, ${summaries} branch summar${summaries === 1 ? "y" : "ies"}${current !== null ? `, ${compactNumber(current)} here` : ""}.`;
}
