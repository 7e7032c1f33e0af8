"use client";

/**
 * The inspector's Stats tab: totals for the whole session or for the selected
 * entry's branch (root → entry): messages by role, tool calls by tool, tokens
 * and cost, models, duration, compactions and branch points, with small bar
 * charts for tool calls and tokens per model. Numbers come from the core's
 * scopeStats; every figure carries its exact value in `data-value`.
 */
import { compactNumber, formatCost } from "@/components/inspector/UsageLine";
import { formatDateTime } from "@/components/ui/format";
import { useViewer, viewer } from "@/components/viewer/store";
import { scopeStats, type ScopeStats } from "@/lib/session";
import { BarTable, type BarRow } from "./BarTable";
import { byCount, formatDuration } from "./stats-format";
import { useSessionMemo } from "@/components/viewer/use-session-memo";

const TOKEN_PARTS = [
  { key: "input", name: "input", color: "#6366f1" },
  { key: "output", name: "output", color: "#10b981" },
  { key: "cacheRead", name: "cache read", color: "#94a3b8" },
  { key: "cacheWrite", name: "cache write", color: "#f59e0b" },
] as const;

function Figure({ name, value, display, testId, hint }: { name: string; value: number | string; display: string; testId: string; hint?: string }) {
  return (
    <div className="flex flex-col rounded-md border border-border bg-surface px-2 py-1.5" title={hint}>
      <dt className="text-[10.5px] tracking-wide text-muted uppercase">{name}</dt>
      <dd className="font-mono text-[13px] font-medium tabular-nums" data-testid={testId} data-value={value}>
        {display}
      </dd>
    </div>
  );
}

function Scope({ scope, selectedId }: { scope: "session" | "branch"; selectedId: string | null }) {
  const options = [
    { id: "session" as const, name: "Whole session" },
    { id: "branch" as const, name: selectedId ? `Branch to ${selectedId}` : "Branch" },
  ];
  return (
    <div role="radiogroup" aria-label="What to total" className="flex gap-0.5 self-start rounded-md border border-border bg-surface p-0.5">
      {options.map((o) => (
        <button
          key={o.id}
          type="button"
          role="radio"
          aria-checked={scope === o.id}
          onClick={() => viewer.setStatsScope(o.id)}
          data-testid={`stats-scope-${o.id}`}
          className={`h-6 rounded px-2 text-[11.5px] ${scope === o.id ? "bg-background text-foreground shadow-sm ring-1 ring-border-strong" : "text-muted hover:text-foreground"}`}
        >
          {o.name}
        </button>
      ))}
    </div>
  );
}

function StatsBody({ stats }: { stats: ScopeStats }) {
  const messages = Object.values(stats.roles).reduce((a, b) => a + b, 0);
  const toolCalls = Object.values(stats.toolCalls).reduce((a, b) => a + b, 0);
  const u = stats.usage;
  const toolRows: BarRow[] = byCount(stats.toolCalls).map(([name, n]) => ({
    key: name,
    label: name,
    parts: [{ name, value: n, color: "#f59e0b" }],
    display: n.toLocaleString("en-US"),
  }));
  const roleRows: BarRow[] = byCount(stats.roles).map(([role, n]) => ({
    key: role,
    label: role,
    parts: [{ name: role, value: n, color: "#8b5cf6" }],
    display: n.toLocaleString("en-US"),
  }));
  const modelRows: BarRow[] = Object.entries(stats.modelUsage)
    .sort((a, b) => b[1].totalTokens - a[1].totalTokens || a[0].localeCompare(b[0]))
    .map(([model, usage]) => ({
      key: model,
      label: model.slice(model.lastIndexOf("/") + 1),
      title: `${model}: ${stats.models[model] ?? 0} assistant messages`,
      parts: TOKEN_PARTS.map((p) => ({ name: p.name, value: usage[p.key], color: p.color })),
      display: `×${stats.models[model] ?? 0} · ${compactNumber(usage.input + usage.output + usage.cacheRead + usage.cacheWrite)} · ${formatCost(usage.cost)}`,
    }));
  const modelsWithoutUsage = byCount(stats.models).filter(([model]) => !stats.modelUsage[model]);

  return (
    <div className="flex flex-col gap-4">
      <dl className="grid grid-cols-3 gap-1.5">
        <Figure name="Entries" value={stats.entries} display={stats.entries.toLocaleString("en-US")} testId="stat-entries" />
        <Figure name="Messages" value={messages} display={messages.toLocaleString("en-US")} testId="stat-messages" />
        <Figure
          name="Tool calls"
          value={toolCalls}
          display={toolCalls.toLocaleString("en-US")}
          testId="stat-tool-calls"
          hint={`${stats.toolErrors} tool results were errors`}
        />
        <Figure name="Tokens in" value={u.input} display={compactNumber(u.input)} testId="stat-input" hint={u.input.toLocaleString("en-US")} />
        <Figure name="Tokens out" value={u.output} display={compactNumber(u.output)} testId="stat-output" hint={u.output.toLocaleString("en-US")} />
        <Figure name="Cost" value={u.cost} display={formatCost(u.cost)} testId="stat-cost" hint={`$${u.cost}`} />
        <Figure
          name="Cache read"
          value={u.cacheRead}
          display={compactNumber(u.cacheRead)}
          testId="stat-cache-read"
          hint={u.cacheRead.toLocaleString("en-US")}
        />
        <Figure
          name="Cache write"
          value={u.cacheWrite}
          display={compactNumber(u.cacheWrite)}
          testId="stat-cache-write"
          hint={u.cacheWrite.toLocaleString("en-US")}
        />
        <Figure
          name="Duration"
          value={stats.durationMs ?? ""}
          display={formatDuration(stats.durationMs)}
          testId="stat-duration"
          hint={`${formatDateTime(stats.firstTimestamp)} → ${formatDateTime(stats.lastTimestamp)}`}
        />
        <Figure name="Compactions" value={stats.compactions} display={stats.compactions.toLocaleString("en-US")} testId="stat-compactions" />
        <Figure
          name="Branch points"
          value={stats.branchPoints}
          display={stats.branchPoints.toLocaleString("en-US")}
          testId="stat-branch-points"
          hint="entries with more than one child"
        />
        <Figure name="Tool errors" value={stats.toolErrors} display={stats.toolErrors.toLocaleString("en-US")} testId="stat-tool-errors" />
      </dl>
      {roleRows.length > 0 && <BarTable caption="Messages by role" rows={roleRows} testId="stats-roles" />}
      {toolRows.length > 0 && <BarTable caption="Tool calls by tool" rows={toolRows} testId="stats-tools" />}
      {modelRows.length > 0 && (
        <BarTable caption="Tokens by model" rows={modelRows} testId="stats-models" legend={TOKEN_PARTS.map((p) => ({ name: p.name, color: p.color }))} />
      )}
      {modelsWithoutUsage.length > 0 && (
        <p className="text-[11.5px] text-muted">Without recorded usage: {modelsWithoutUsage.map(([model, n]) => `${model} ×${n}`).join(", ")}</p>
      )}
      {stats.summaryUsage.totalTokens > 0 && (
        <p className="text-[11.5px] text-muted" data-testid="stats-summary-usage">
          Compaction and branch-summary calls: {compactNumber(stats.summaryUsage.input)} in · {compactNumber(stats.summaryUsage.output)} out ·{" "}
          {formatCost(stats.summaryUsage.cost)} (included above)
        </p>
      )}
    </div>
  );
}

export function StatsTab({ selectedId }: { selectedId: string | null }) {
  const scope = useViewer((s) => s.statsScope);
  const answer = useSessionMemo(
    (session) => {
      if (scope === "branch" && selectedId === null) return { error: "Select an entry to total its branch." };
      try {
        return { stats: scopeStats(session, scope === "session" ? { kind: "session" } : { kind: "branch", id: selectedId! }) };
      } catch (error) {
        return { error: error instanceof Error ? error.message : String(error) };
      }
    },
    [scope, selectedId],
  ) ?? { error: "No session is open." };

  return (
    <div className="flex flex-col gap-3 p-3" data-testid="stats-tab" data-scope={scope}>
      <Scope scope={scope} selectedId={selectedId} />
      {"stats" in answer && answer.stats ? <StatsBody stats={answer.stats} /> : <p className="text-[12.5px] text-muted">{answer.error}</p>}
    </div>
  );
}
