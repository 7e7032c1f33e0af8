"use client";

// The usage page: tokens and cost across every session of the library, by day, week, model, project, machine or session,
// from a date on; a chart and a table of the same numbers. What is counted is what pi's /session counts, with an
// entry a fork copied counted once, in its source. The choices live in the URL (?by=…&since=…&metric=…).
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { Fragment, useEffect, useMemo, useState } from "react";
import { Icon, Logo } from "@/components/ui/Icon";
import { ThemeToggle } from "@/components/ui/ThemeToggle";
import { IndexingProgress } from "@/components/library/IndexingProgress";
import { useIndexProgress } from "@/components/library/search-status";
import { cn } from "@/components/ui/cn";
import { totalRow, USAGE_GROUPINGS, type SessionUsageRow, type UsageGrouping, type UsageRow } from "@/lib/library/usage";
import { formatMetric, UsageChart, type UsageMetric } from "./UsageChart";

interface Props {
  /** the rows for the URL's choices, rendered on the server; null while its index was still catching up */
  initial: { by: UsageGrouping; since: string | null; rows: UsageRow[] | null };
}

const RANGES: { label: string; days: number | null }[] = [
  { label: "All time", days: null },
  { label: "Last 7 days", days: 7 },
  { label: "Last 30 days", days: 30 },
  { label: "Last 90 days", days: 90 },
  { label: "Last year", days: 365 },
];

const GROUP_LABELS: Record<UsageGrouping, string> = { day: "Day", week: "Week", model: "Model", project: "Project", machine: "Machine", session: "Session" };

const sinceDays = (days: number | null) => (days === null ? null : new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10));
const fileName = (p: string) => p.slice(p.lastIndexOf("/") + 1);
const n = (v: number) => v.toLocaleString("en-US");

export function UsageView({ initial }: Props) {
  const router = useRouter();
  const params = useSearchParams();
  const by = (USAGE_GROUPINGS as readonly string[]).includes(params.get("by") ?? "") ? (params.get("by") as UsageGrouping) : initial.by;
  const since = params.get("since") ?? initial.since;
  const metric: UsageMetric = params.get("metric") === "tokens" ? "tokens" : "cost";
  const [rows, setRows] = useState<{ key: string; rows: UsageRow[] } | null>(
    initial.rows ? { key: `${initial.by} ${initial.since}`, rows: initial.rows } : null,
  );
  const wanted = `${by} ${since}`;

  useEffect(() => {
    if (rows?.key === wanted) return;
    const abort = new AbortController();
    const q = new URLSearchParams({ by });
    if (since) q.set("since", since);
    fetch(`/api/usage?${q}`, { signal: abort.signal })
      .then((response) => (response.ok ? (response.json() as Promise<UsageRow[]>) : Promise.reject(new Error(`HTTP ${response.status}`))))
      .then((json) => setRows({ key: wanted, rows: json }))
      .catch(() => {});
    return () => abort.abort();
  }, [by, since, wanted, rows?.key]);

  const set = (patch: Record<string, string | null>) => {
    const q = new URLSearchParams(params.toString());
    for (const [key, value] of Object.entries(patch)) {
      if (value === null) q.delete(key);
      else q.set(key, value);
    }
    router.replace(`/usage?${q}`, { scroll: false });
  };

  const shown = rows?.key === wanted ? rows.rows : null;
  const progress = useIndexProgress(shown === null);
  const total = useMemo(() => shown && totalRow(shown), [shown]);
  const label = (row: UsageRow) => (by === "session" ? ((row as SessionUsageRow).name ?? fileName(row.key)) : row.key);

  return (
    <div className="min-h-screen">
      <header className="sticky top-0 z-20 border-b border-border bg-background/90 backdrop-blur">
        <div className="mx-auto flex h-12 max-w-5xl items-center gap-3 px-6">
          <Link href="/" className="flex items-center gap-3" title="Back to the library">
            <Logo />
            <span className="text-sm font-semibold tracking-tight">pi session viewer</span>
          </Link>
          <span className="text-subtle">/</span>
          <h1 className="text-sm font-semibold">Usage</h1>
          <span className="ml-auto" />
          <ThemeToggle />
        </div>
      </header>
      <main className="mx-auto max-w-5xl px-6 pt-5 pb-16">
        <div className="flex flex-wrap items-center gap-3">
          <Segmented
            label="Group by"
            value={by}
            options={USAGE_GROUPINGS.map((g) => ({ value: g, label: GROUP_LABELS[g] }))}
            onChange={(value) => set({ by: value === "day" ? null : value })}
            testId="usage-by"
          />
          <Segmented
            label="Show"
            value={metric}
            options={[
              { value: "cost", label: "Cost" },
              { value: "tokens", label: "Tokens" },
            ]}
            onChange={(value) => set({ metric: value === "cost" ? null : value })}
            testId="usage-metric"
          />
          <label className="ml-auto flex items-center gap-2 text-xs text-muted">
            From
            <select
              data-testid="usage-since"
              value={RANGES.find((r) => sinceDays(r.days) === since)?.label ?? (since ? "custom" : "All time")}
              onChange={(event) => set({ since: sinceDays(RANGES.find((r) => r.label === event.target.value)?.days ?? null) })}
              className="h-7 rounded-md border border-border-strong bg-background px-2 text-[13px] text-foreground"
            >
              {RANGES.map((r) => (
                <option key={r.label}>{r.label}</option>
              ))}
              {since && !RANGES.some((r) => sinceDays(r.days) === since) && <option value="custom">since {since}</option>}
            </select>
          </label>
        </div>

        {total && (
          <dl className="mt-5 grid grid-cols-2 gap-3 sm:grid-cols-5" data-testid="usage-totals">
            <Total label="Cost" value={`$${total.cost.toFixed(2)}`} testId="usage-total-cost" />
            <Total label="Input" value={n(total.input)} />
            <Total label="Output" value={n(total.output)} />
            <Total label="Cache read" value={n(total.cacheRead)} />
            <Total label="Cache write" value={n(total.cacheWrite)} />
          </dl>
        )}

        <section className="mt-5 rounded-lg border border-border p-4" aria-label="Chart">
          {shown === null ? (
            <div className="mx-auto max-w-md py-10">
              <IndexingProgress progress={progress} idle="Reading…" />
            </div>
          ) : shown.length === 0 ? (
            <p className="py-10 text-center text-muted" data-testid="usage-empty">
              No usage recorded {since ? `since ${since}` : "in this library"}.
            </p>
          ) : (
            <UsageChart rows={shown} by={by} metric={metric} label={label} />
          )}
        </section>

        {shown && shown.length > 0 && <UsageTable rows={shown} by={by} label={label} total={total!} />}

        <p className="mt-4 text-xs text-subtle">
          Counted as pi&apos;s <code className="font-mono">/session</code> counts: assistant and tool-result usage, usage entries (cache warming, titles), and
          the calls compactions and branch summaries made, over every entry of a file, dead branches and compacted history included. pi counts each file alone,
          so a fork there counts again what it copied; here an entry a fork copied from its source counts once, in the source.
        </p>
      </main>
    </div>
  );
}

function Total({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="rounded-lg border border-border px-3 py-2">
      <dt className="text-[11px] font-medium tracking-wide text-subtle uppercase">{label}</dt>
      <dd className="mt-0.5 text-base font-semibold tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

function Segmented<T extends string>({
  label,
  value,
  options,
  onChange,
  testId,
}: {
  label: string;
  value: T;
  options: { value: T; label: string }[];
  onChange: (value: T) => void;
  testId: string;
}) {
  return (
    <div role="radiogroup" aria-label={label} data-testid={testId} className="inline-flex rounded-md border border-border-strong p-0.5">
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          role="radio"
          aria-checked={option.value === value}
          onClick={() => onChange(option.value)}
          className={cn(
            "h-6 rounded px-2.5 text-[12px] font-medium",
            option.value === value ? "bg-accent text-accent-fg" : "text-muted hover:bg-surface-2 hover:text-foreground",
          )}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}

function UsageTable({ rows, by, label, total }: { rows: readonly UsageRow[]; by: UsageGrouping; label: (row: UsageRow) => string; total: UsageRow }) {
  const [open, setOpen] = useState<string | null>(null);
  const cell = "px-3 py-1.5 text-right tabular-nums";
  return (
    <table className="mt-5 w-full border-collapse text-[13px]" data-testid="usage-table">
      <thead>
        <tr className="border-b border-border text-[11px] tracking-wide text-subtle uppercase">
          <th className="w-[34%] px-3 py-1.5 text-left font-medium">{GROUP_LABELS[by]}</th>
          <th className={cn(cell, "font-medium")}>Input</th>
          <th className={cn(cell, "font-medium")}>Output</th>
          <th className={cn(cell, "font-medium")}>Cache read</th>
          <th className={cn(cell, "font-medium")}>Cache write</th>
          <th className={cn(cell, "font-medium")}>Cost</th>
          <th className={cn(cell, "font-medium")}>Calls</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => {
          const session = by === "session" ? (row as SessionUsageRow) : null;
          const branches = session?.branches.filter((b) => b.cost > 0 || b.input > 0) ?? [];
          return (
            <Fragment key={row.key}>
              <tr className="border-b border-border/60 hover:bg-surface" data-testid="usage-row" data-key={row.key}>
                <td className="max-w-0 px-3 py-1.5">
                  <span className="flex min-w-0 items-center gap-1.5">
                    {session && branches.length > 1 && (
                      <button
                        type="button"
                        aria-expanded={open === row.key}
                        aria-label="Show the cost of each branch"
                        onClick={() => setOpen(open === row.key ? null : row.key)}
                        className="shrink-0 text-subtle hover:text-foreground"
                      >
                        <Icon name="chevron-right" size={13} className={cn("transition-transform", open === row.key && "rotate-90")} />
                      </button>
                    )}
                    {session ? (
                      <Link href={`/view?file=${encodeURIComponent(row.key)}`} className="truncate hover:underline" title={row.key}>
                        {label(row)}
                      </Link>
                    ) : (
                      <span className="truncate font-mono text-[12px]">{label(row)}</span>
                    )}
                    {session && session.copied.calls > 0 && (
                      <span className="shrink-0 text-[11px] text-subtle" title="Usage of entries copied from the session it was forked from, counted there">
                        + ${session.copied.cost.toFixed(2)} inherited
                      </span>
                    )}
                  </span>
                </td>
                <td className={cell}>{n(row.input)}</td>
                <td className={cell}>{n(row.output)}</td>
                <td className={cell}>{n(row.cacheRead)}</td>
                <td className={cell}>{n(row.cacheWrite)}</td>
                <td className={cn(cell, "font-medium")} data-testid="usage-cost">
                  {formatMetric(row.cost, "cost")}
                </td>
                <td className={cn(cell, "text-muted")}>{n(row.calls)}</td>
              </tr>
              {open === row.key &&
                branches.map((branch) => (
                  <tr key={branch.leafId} className="border-b border-border/40 text-xs text-muted" data-testid="usage-branch" data-active={branch.onActivePath}>
                    <td className="px-3 py-1 pl-9">
                      <Link href={`/view?file=${encodeURIComponent(row.key)}&entry=${encodeURIComponent(branch.leafId)}`} className="hover:underline">
                        {branch.onActivePath ? "on the active path" : "a branch left"} · {n(branch.entries)} entries · to {branch.leafId}
                      </Link>
                    </td>
                    <td className={cell}>{n(branch.input)}</td>
                    <td className={cell}>{n(branch.output)}</td>
                    <td className={cell}>{n(branch.cacheRead)}</td>
                    <td className={cell}>{n(branch.cacheWrite)}</td>
                    <td className={cell}>{formatMetric(branch.cost, "cost")}</td>
                    <td className={cell} />
                  </tr>
                ))}
            </Fragment>
          );
        })}
      </tbody>
      <tfoot>
        <tr className="font-semibold" data-testid="usage-total-row">
          <td className="px-3 py-1.5">Total</td>
          <td className={cell}>{n(total.input)}</td>
          <td className={cell}>{n(total.output)}</td>
          <td className={cell}>{n(total.cacheRead)}</td>
          <td className={cell}>{n(total.cacheWrite)}</td>
          <td className={cell}>{formatMetric(total.cost, "cost")}</td>
          <td className={cn(cell, "text-muted")}>{n(total.calls)}</td>
        </tr>
      </tfoot>
    </table>
  );
}
