/** Provider usage in one line: tokens in/out/cache and cost, compact (12.3k). */
import type { Usage } from "@/lib/session";

export function compactNumber(n: number): string {
  if (Math.abs(n) < 1000) return String(n);
  if (Math.abs(n) < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

export function formatCost(cost: number): string {
  return cost === 0 ? "$0" : cost < 0.01 ? `$${cost.toFixed(4)}` : `$${cost.toFixed(2)}`;
}

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : 0);

/** From a stored `usage` object (any shape) or a summed Usage. */
export function UsageLine({ usage }: { usage: unknown }) {
  if (typeof usage !== "object" || usage === null) return null;
  const u = usage as Partial<Usage> & { cost?: unknown };
  const cost = typeof u.cost === "number" ? u.cost : typeof u.cost === "object" && u.cost !== null ? num((u.cost as { total?: unknown }).total) : 0;
  const total = num(u.totalTokens) || num(u.input) + num(u.output) + num(u.cacheRead) + num(u.cacheWrite);
  return (
    <span className="font-mono text-[11.5px] text-muted tabular-nums" title={JSON.stringify(usage)}>
      in {compactNumber(num(u.input))} · out {compactNumber(num(u.output))} · cache r {compactNumber(num(u.cacheRead))} w {compactNumber(num(u.cacheWrite))} · Σ{" "}
      {compactNumber(total)} · {formatCost(cost)}
    </span>
  );
}
