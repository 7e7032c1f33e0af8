// The usage page's chart: cost (or tokens) per day or week as columns over time, per model, project or session as
// bars, largest first. Plain SVG in the theme's colours, so it reads in light and dark alike; the table below it
// holds the same numbers.
import type { UsageGrouping, UsageRow } from "@/lib/library/usage";

export type UsageMetric = "cost" | "tokens";

export const metricOf = (row: UsageRow, metric: UsageMetric): number =>
  metric === "cost" ? row.cost : row.input + row.output + row.cacheRead + row.cacheWrite;

export function formatMetric(value: number, metric: UsageMetric): string {
  if (metric === "cost") return value >= 100 ? `$${value.toFixed(0)}` : `$${value.toFixed(2)}`;
  if (value >= 1e9) return `${(value / 1e9).toFixed(1)}B`;
  if (value >= 1e6) return `${(value / 1e6).toFixed(1)}M`;
  if (value >= 1e3) return `${(value / 1e3).toFixed(1)}k`;
  return String(value);
}

interface Props {
  rows: readonly UsageRow[];
  by: UsageGrouping;
  metric: UsageMetric;
  /** what to call a row (a session's name, a shortened path…) */
  label: (row: UsageRow) => string;
}

const MAX_BARS = 12;

export function UsageChart({ rows, by, metric, label }: Props) {
  if (rows.length === 0) return null;
  return by === "day" || by === "week" ? (
    <Columns rows={continuous(rows, by === "day" ? 1 : 7)} metric={metric} />
  ) : (
    <Bars rows={rows.slice(0, MAX_BARS)} metric={metric} label={label} />
  );
}

const DAY = 86_400_000;
const MAX_COLUMNS = 800;

/** Days (or weeks) without usage between the first and the last, as empty columns: the axis is time. */
function continuous(rows: readonly UsageRow[], days: number): UsageRow[] {
  const dated = rows.filter((r) => !Number.isNaN(Date.parse(r.key)));
  if (dated.length < 2) return [...rows];
  const first = Date.parse(dated[0]!.key);
  const last = Date.parse(dated.at(-1)!.key);
  const steps = Math.round((last - first) / (days * DAY));
  if (steps > MAX_COLUMNS) return [...rows];
  const byKey = new Map(rows.map((r) => [r.key, r]));
  const out: UsageRow[] = [];
  for (let i = 0; i <= steps; i++) {
    const key = new Date(first + i * days * DAY).toISOString().slice(0, 10);
    out.push(byKey.get(key) ?? { key, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0, calls: 0 });
  }
  return out;
}

/** A "nice" top for an axis: 1, 2 or 5 times a power of ten, at least `max`. */
function niceTop(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}

function Columns({ rows, metric }: { rows: readonly UsageRow[]; metric: UsageMetric }) {
  const width = 960;
  const height = 232;
  const left = 56;
  const bottom = 24;
  const headroom = 12;
  const top = niceTop(Math.max(...rows.map((r) => metricOf(r, metric))));
  const slot = (width - left) / rows.length;
  const bar = Math.max(1, Math.min(28, slot * 0.7));
  const y = (v: number) => headroom + (height - bottom - headroom) * (1 - v / top);
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => f * top);
  const every = Math.max(1, Math.ceil(rows.length / 10));
  return (
    <svg viewBox={`0 0 ${width} ${height}`} className="h-auto w-full" role="img" aria-label={`${metric} over time`} data-testid="usage-chart">
      {ticks.map((t) => (
        <g key={t}>
          <line x1={left} x2={width} y1={y(t)} y2={y(t)} className="stroke-border" strokeWidth={1} />
          <text x={left - 6} y={y(t) + 4} textAnchor="end" className="fill-subtle text-[11px] tabular-nums">
            {formatMetric(t, metric)}
          </text>
        </g>
      ))}
      {rows.map((row, i) => {
        const v = metricOf(row, metric);
        const x = left + i * slot + (slot - bar) / 2;
        return (
          <g key={row.key} data-testid="usage-bar" data-key={row.key} data-value={v}>
            <rect x={x} y={y(v)} width={bar} height={Math.max(0, height - bottom - y(v))} rx={2} className="fill-accent">
              <title>{`${row.key}: ${formatMetric(v, metric)}`}</title>
            </rect>
            {i % every === 0 && (
              <text x={x + bar / 2} y={height - 6} textAnchor="middle" className="fill-subtle text-[11px] tabular-nums">
                {row.key.slice(5)}
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}

function Bars({ rows, metric, label }: { rows: readonly UsageRow[]; metric: UsageMetric; label: (row: UsageRow) => string }) {
  const top = Math.max(...rows.map((r) => metricOf(r, metric)), 0) || 1;
  return (
    <div className="flex flex-col gap-1.5" data-testid="usage-chart" role="img" aria-label={`${metric} by group`}>
      {rows.map((row) => {
        const v = metricOf(row, metric);
        return (
          <div
            key={row.key}
            className="grid grid-cols-[minmax(0,14rem)_minmax(0,1fr)_5rem] items-center gap-3 text-xs"
            data-testid="usage-bar"
            data-key={row.key}
            data-value={v}
          >
            <span className="truncate text-muted" title={row.key}>
              {label(row)}
            </span>
            <span className="h-3.5 rounded-sm bg-surface-2">
              <span className="block h-full rounded-sm bg-accent" style={{ width: `${(100 * v) / top}%` }} />
            </span>
            <span className="text-right tabular-nums">{formatMetric(v, metric)}</span>
          </div>
        );
      })}
    </div>
  );
}
