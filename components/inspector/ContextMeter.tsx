"use client";

/**
 * How full the model's window is at the selected entry, by pi's own count:
 * the last trusted reply's usage plus chars/4 for what follows, against the
 * window pi's model catalogue gives the context's model, with pi's compaction
 * threshold (window − reserve) and its verdict after this reply. The settings
 * are pi's defaults until the user changes them (kept in the URL).
 */
import { useState } from "react";
import { useViewer, viewer } from "@/components/viewer/store";
import { PI_COMPACTION_DEFAULTS } from "@/components/viewer/view-params";
import { modelOfContext } from "@/lib/models/model-catalogue";
import { autoCompactAfter, modelLabel, type ModelView, type TreeEntry, type TreePath } from "@/lib/session";
import { ContextChart } from "./ContextChart";
import { useModelCatalogue } from "./use-model-catalogue";
import { compactNumber } from "./UsageLine";

const fmt = (n: number) => n.toLocaleString("en-US");

export function ContextMeter({ view, entry, path }: { view: ModelView; entry: TreeEntry; path: TreePath }) {
  const catalogue = useModelCatalogue();
  const settings = useViewer((s) => s.compactionSettings);
  const [editing, setEditing] = useState(false);
  const known = catalogue ? modelOfContext(catalogue, view.context.model) : null;
  const contextWindow = settings.contextWindow ?? known?.contextWindow ?? null;
  const threshold = contextWindow !== null ? contextWindow - settings.reserveTokens : null;
  const tokens = view.tokens;
  // one walk back to the latest compaction: cheap enough to repeat as the settings change
  const check = autoCompactAfter(entry, view, path, contextWindow, { enabled: true, ...settings });
  const model = view.context.model;
  const modelName = model && modelLabel(model.provider, model.modelId);
  const percent = tokens && contextWindow ? Math.min(100, (tokens.tokens / contextWindow) * 100) : null;

  return (
    <section className="flex flex-col gap-1.5 border-b border-border px-3 py-2 text-[12px]" data-testid="context-meter" aria-label="Context window">
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-0.5">
        {tokens ? (
          <span className="tabular-nums" data-testid="context-tokens" data-tokens={tokens.tokens}>
            <span className="font-semibold">{fmt(tokens.tokens)}</span> tokens{" "}
            <span className="text-muted">
              {tokens.lastUsageIndex !== null ? (
                <>
                  = usage {fmt(tokens.usageTokens)} (message {tokens.lastUsageIndex + 1}) + estimated {fmt(tokens.trailingTokens)}
                </>
              ) : (
                <>estimated (chars/4): no reply pi trusts reports usage here</>
              )}
            </span>
          </span>
        ) : (
          <span className="text-red-700 dark:text-red-300">{view.tokensError}</span>
        )}
      </div>
      <div className="flex items-center gap-2">
        {contextWindow !== null && tokens ? (
          <div
            role="meter"
            aria-label="Context window fill"
            aria-valuemin={0}
            aria-valuemax={contextWindow}
            aria-valuenow={tokens.tokens}
            aria-valuetext={`${fmt(tokens.tokens)} of ${fmt(contextWindow)} tokens`}
            className="relative h-2.5 flex-1 overflow-hidden rounded-full bg-surface ring-1 ring-border"
          >
            <div
              className={`h-full rounded-full ${check.verdict || (threshold !== null && tokens.tokens > threshold) ? "bg-red-500 dark:bg-red-400" : percent! > 60 ? "bg-amber-500 dark:bg-amber-400" : "bg-sky-600 dark:bg-sky-400"}`}
              style={{ width: `${percent}%` }}
            />
            {threshold !== null && threshold > 0 ? (
              <span
                aria-hidden="true"
                className="absolute inset-y-0 w-px bg-red-600 dark:bg-red-300"
                style={{ left: `${(threshold / contextWindow) * 100}%` }}
              />
            ) : null}
          </div>
        ) : (
          <span className="flex-1 text-muted">
            {catalogue === null
              ? "Reading pi's model catalogue…"
              : modelName
                ? `Unknown model: pi's catalogue has no ${modelName}.`
                : "No model in force here."}
          </span>
        )}
        <span className="shrink-0 text-muted tabular-nums">
          {contextWindow !== null ? `${percent !== null ? `${percent.toFixed(percent < 10 ? 1 : 0)}% of ` : ""}${compactNumber(contextWindow)}` : ""}
        </span>
        <button type="button" className="shrink-0 text-[11px] text-accent hover:underline" aria-expanded={editing} onClick={() => setEditing(!editing)}>
          Settings
        </button>
      </div>
      <p className="text-muted">
        {known ? (
          <>
            <span className="font-mono">{known.name}</span>: {fmt(known.contextWindow)}-token window (pi-ai {known.piAi})
            {settings.contextWindow !== null ? <>, set to {fmt(settings.contextWindow)} here</> : null}.{" "}
          </>
        ) : null}
        <span data-testid="auto-compact" data-verdict={check.verdict === null ? "unknown" : check.verdict ? "yes" : "no"}>
          pi would auto-compact after this turn:{" "}
          <span className={`font-semibold ${check.verdict ? "text-red-700 dark:text-red-300" : ""}`}>
            {check.verdict === null ? "—" : check.verdict ? "yes" : "no"}
          </span>{" "}
          ({check.reason})
        </span>
      </p>
      {editing ? <CompactionSettingsForm /> : null}
      <ContextChart id={entry.id} current={tokens?.tokens ?? null} contextWindow={contextWindow} threshold={threshold} />
    </section>
  );
}

function NumberField({
  label,
  value,
  placeholder,
  onChange,
  testId,
}: {
  label: string;
  value: number | null;
  placeholder?: string;
  onChange: (v: number | null) => void;
  testId: string;
}) {
  return (
    <label className="flex items-center gap-1">
      <span className="text-muted">{label}</span>
      <input
        type="number"
        min={0}
        step={1}
        data-testid={testId}
        value={value ?? ""}
        placeholder={placeholder}
        onChange={(e) => {
          const v = e.target.value.trim();
          const n = Number(v);
          onChange(v === "" ? null : Number.isSafeInteger(n) && n >= 0 ? n : value);
        }}
        className="w-24 rounded border border-border bg-background px-1 py-0.5 font-mono text-[11.5px] tabular-nums"
      />
    </label>
  );
}

function CompactionSettingsForm() {
  const settings = useViewer((s) => s.compactionSettings);
  return (
    <div
      className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded border border-border bg-surface/60 px-2 py-1.5 text-[11.5px]"
      data-testid="compaction-settings"
    >
      <NumberField
        label="reserve"
        testId="setting-reserve"
        value={settings.reserveTokens}
        onChange={(v) => viewer.setCompactionSettings({ reserveTokens: v ?? PI_COMPACTION_DEFAULTS.reserveTokens })}
      />
      <NumberField
        label="keep recent"
        testId="setting-keep"
        value={settings.keepRecentTokens}
        onChange={(v) => viewer.setCompactionSettings({ keepRecentTokens: v ?? PI_COMPACTION_DEFAULTS.keepRecentTokens })}
      />
      <NumberField
        label="window"
        testId="setting-window"
        value={settings.contextWindow}
        placeholder="catalogue"
        onChange={(v) => viewer.setCompactionSettings({ contextWindow: v })}
      />
      <button type="button" className="text-accent hover:underline" onClick={() => viewer.setCompactionSettings(PI_COMPACTION_DEFAULTS)}>
        pi&apos;s defaults
      </button>
    </div>
  );
}
