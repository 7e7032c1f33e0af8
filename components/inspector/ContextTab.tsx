"use client";

/**
 * The Context tab: what the model would be sent with the selected entry as
 * the leaf — the messages in order (or, in "Sent to model", after pi's
 * convertToLlm), how full the window is by pi's count, the model and thinking
 * level in force, what compaction cut and what the path holds that is never
 * sent.
 */
import { EntryIdLink } from "./EntryIdLink";
import { useMemo, useState } from "react";
import { useViewer, viewer } from "@/components/viewer/store";
import { contextModelLabel, type ContextMessage, type Session, type TreeEntry } from "@/lib/session";
import { contextModel, excludedReason, type ContextModel } from "./context-model";
import { CompactionPreview } from "./CompactionPreview";
import { ContextMeter } from "./ContextMeter";
import { LlmList } from "./LlmList";
import { entryKind, entrySnippet, messageKind, messageSnippet } from "./entry-kind";
import { EntryLink } from "./EntryLink";
import { Chip } from "./Fields";
import { KindBadge } from "./KindBadge";
import { LabelChip } from "@/components/labels/LabelChip";
import { MessageBody } from "./MessageBody";
import { QueryError } from "./QueryError";
import { UsageLine, compactNumber } from "./UsageLine";
import { VirtualList } from "./VirtualList";
import { ToolLinksProvider } from "@/components/transcript/tool-links";
import { NO_TOOL_LINKS, toolLinksAmong } from "@/lib/session/features/tool-links";
import { useSessionMemo } from "@/components/viewer/use-session-memo";
import { toggled } from "./toggled";
import { SystemRow } from "./SystemRow";
import { systemPromptOf } from "@/lib/session/features/system-prompt";

type Row =
  | { kind: "cut-group"; compactionId: string | null; count: number }
  | { kind: "cut"; entry: TreeEntry }
  | { kind: "message"; n: number; item: ContextMessage }
  | { kind: "unsent"; entry: TreeEntry; reason: string };

const ROW_HEIGHT = 26;

function buildRows(model: ContextModel, cutOpen: boolean, showUnsent: boolean): Row[] {
  const rows: Row[] = [];
  if (model.cut) {
    rows.push({ kind: "cut-group", compactionId: model.cut.compactionId, count: model.cut.count });
    if (cutOpen) for (const entry of model.cut.entries()) rows.push({ kind: "cut", entry });
  }
  let n = 0;
  for (const view of model.entries) {
    for (const item of view.messages) rows.push({ kind: "message", n: n++, item });
    if (view.unsent && showUnsent) rows.push({ kind: "unsent", entry: view.entry, reason: view.unsent });
  }
  return rows;
}

function rowKey(row: Row, i: number): string {
  if (row.kind === "message") return `m${row.n}`;
  if (row.kind === "cut-group") return "cut";
  return `${row.kind}:${i}:${row.entry.id}`;
}

export function ContextTab({ session, id }: { session: Session; id: string }) {
  const result = useSessionMemo(
    (session) => {
      try {
        return { model: contextModel(session, id), error: null };
      } catch (error) {
        return { model: null, error };
      }
    },
    [id],
  ) ?? { model: null, error: new Error("No session is open.") };
  const [cutOpen, setCutOpen] = useState(false);
  const [showUnsent, setShowUnsent] = useState(true);
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  const rows = useMemo(() => (result.model ? buildRows(result.model, cutOpen, showUnsent) : []), [result.model, cutOpen, showUnsent]);
  const labels = session.labels();
  const mode = useViewer((s) => s.contextView);
  const links = useMemo(
    () => (result.model ? toolLinksAmong(result.model.entries.flatMap((view) => view.messages.map((item) => item.message))) : NO_TOOL_LINKS),
    [result.model],
  );

  const prompt = useMemo(() => (result.model ? systemPromptOf(result.model.entries.flatMap((view) => view.messages)) : null), [result.model]);

  if (!result.model) return <QueryError error={result.error} what="context" />;
  const model = result.model;
  // (from the state React holds, not this render's: two quick clicks on rows must both count)
  const toggle = (n: number) => setExpanded((was) => toggled(was, n));

  return (
    <ToolLinksProvider links={links} separate>
      <div className="flex h-full min-h-0 flex-col">
        <ContextSummary model={model} showUnsent={showUnsent} onShowUnsent={setShowUnsent} />
        {model.path.length ? <ContextMeter view={model.view} entry={model.path.at(model.path.length - 1)!} path={model.path} /> : null}
        <CompactionPreview id={id} />
        <ModeSwitch mode={mode} />
        <SystemRow prompt={prompt} />
        {mode === "llm" ? (
          <LlmList view={model.view} />
        ) : (
          <VirtualList
            label="Context"
            testId="context-list"
            className="flex-1"
            count={rows.length}
            estimateSize={() => ROW_HEIGHT}
            getKey={(i) => rowKey(rows[i]!, i)}
            rowProps={(i) => {
              const row = rows[i]!;
              if (row.kind === "message") return { "data-entry-id": row.item.entryId, "data-source": row.item.source };
              if (row.kind === "cut") return { "data-cut-id": row.entry.id };
              if (row.kind === "unsent") return { "data-unsent-id": row.entry.id };
              return {};
            }}
            renderRow={(i) => {
              const row = rows[i]!;
              if (row.kind === "cut-group") return <CutGroupRow row={row} open={cutOpen} onToggle={() => setCutOpen(!cutOpen)} />;
              if (row.kind === "cut") return <EntryRow entry={row.entry} note="cut" label={labels.get(row.entry.id)?.label ?? null} />;
              if (row.kind === "unsent") return <EntryRow entry={row.entry} note={`not sent: ${row.reason}`} label={labels.get(row.entry.id)?.label ?? null} />;
              return (
                <MessageRow
                  row={row}
                  open={expanded.has(row.n)}
                  onToggle={() => toggle(row.n)}
                  label={labels.get(row.item.entryId)?.label ?? null}
                  tokens={model.view.messageTokens[row.n] ?? null}
                  usage={model.view.tokens?.lastUsageIndex === row.n ? model.view.tokens.usageTokens : null}
                />
              );
            }}
          />
        )}
      </div>
    </ToolLinksProvider>
  );
}

function ModeSwitch({ mode }: { mode: "messages" | "llm" }) {
  const option = (value: "messages" | "llm", label: string, title: string) => (
    <button
      type="button"
      role="radio"
      aria-checked={mode === value}
      data-testid={`context-mode-${value}`}
      title={title}
      onClick={() => viewer.setContextView(value)}
      className={`rounded px-2 py-0.5 ${mode === value ? "bg-background font-medium text-foreground shadow-sm ring-1 ring-border" : "text-muted hover:text-foreground"}`}
    >
      {label}
    </button>
  );
  return (
    <div role="radiogroup" aria-label="Show" className="flex items-center gap-1 border-b border-border bg-surface/60 px-3 py-1 text-[11.5px]">
      {option("messages", "Context", "the context's messages, as pi's buildSessionContext projects the path")}
      {option("llm", "Sent to model", "the messages after pi's convertToLlm: exactly what the provider gets")}
    </div>
  );
}

function ContextSummary({ model, showUnsent, onShowUnsent }: { model: ContextModel; showUnsent: boolean; onShowUnsent: (on: boolean) => void }) {
  const modelName = contextModelLabel(model.model) ?? "none";
  const unsent = model.entries.filter((e) => e.unsent).length;
  return (
    <div className="flex flex-col gap-1 border-b border-border px-3 py-2 text-[12px]">
      {model.rules.pathStopsAtCompaction ? (
        <p className="rounded border border-sky-300 bg-sky-50 px-2 py-1 text-sky-900 dark:border-sky-900 dark:bg-sky-950/40 dark:text-sky-200">
          <span className="font-semibold">Harness rules apply.</span> {model.readerReason}. Its path stops at a compaction, and a compaction&apos;s retained
          tail stands in for the messages it kept.
        </p>
      ) : null}
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-0.5">
        <span>
          <span className="text-muted">model</span> <span className="font-mono">{modelName}</span>
        </span>
        <span>
          <span className="text-muted">thinking</span> <span className="font-mono">{String(model.thinkingLevel)}</span>
        </span>
        {model.rules.tracksActiveTools ? (
          <span>
            <span className="text-muted">active tools</span>{" "}
            <span className="font-mono">{Array.isArray(model.activeToolNames) ? model.activeToolNames.map(String).join(", ") || "none" : "default"}</span>
          </span>
        ) : null}
      </div>
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-0.5">
        <span>
          <span className="font-semibold tabular-nums">{model.messageCount}</span> {model.messageCount === 1 ? "message" : "messages"}
        </span>
        {model.usage ? (
          <span>
            <span className="text-muted">path usage</span> <UsageLine usage={model.usage.usage} />
          </span>
        ) : null}
      </div>
      <div className="flex flex-wrap items-center gap-x-3">
        {model.cut ? (
          <span className="text-muted">
            {model.cut.compactionId ? (
              <>
                compaction <EntryLink id={model.cut.compactionId} /> stands for {model.cut.count} earlier {model.cut.count === 1 ? "entry" : "entries"}
              </>
            ) : (
              <>{model.cut.count} path entries are not in the context</>
            )}
          </span>
        ) : null}
        {unsent ? (
          <label className="ml-auto flex items-center gap-1 text-muted select-none">
            <input type="checkbox" checked={showUnsent} onChange={(e) => onShowUnsent(e.target.checked)} className="accent-[var(--accent)]" />
            show {unsent} not-sent {unsent === 1 ? "entry" : "entries"}
          </label>
        ) : null}
      </div>
    </div>
  );
}

function CutGroupRow({ row, open, onToggle }: { row: Extract<Row, { kind: "cut-group" }>; open: boolean; onToggle: () => void }) {
  return (
    <button
      type="button"
      data-row-focus
      aria-expanded={open}
      onClick={onToggle}
      className="flex h-[26px] w-full items-center gap-2 bg-surface px-3 text-left text-[12px] text-muted hover:text-foreground focus-visible:outline-none focus-visible:ring-1 focus-visible:ring-accent focus-visible:ring-inset"
    >
      <span className={`inline-block w-3 transition-transform ${open ? "rotate-90" : ""}`}>▸</span>
      {row.compactionId
        ? `Cut by compaction ${row.compactionId}: ${row.count} ${row.count === 1 ? "entry" : "entries"}`
        : `Not in the context: ${row.count} ${row.count === 1 ? "entry" : "entries"}`}
      <span className="ml-auto text-[11px]">{open ? "hide" : "the summary stands for these"}</span>
    </button>
  );
}

function EntryRow({ entry, note, label }: { entry: TreeEntry; note: string; label: string | null }) {
  return (
    <button
      type="button"
      data-row-focus
      onClick={() => viewer.select(entry.id)}
      title={`Select ${entry.id}`}
      className="flex h-[26px] w-full items-center gap-2 px-3 pl-8 text-left text-[12px] text-muted opacity-75 hover:bg-surface hover:opacity-100 focus-visible:outline-none focus-visible:ring-1 focus-visible:ring-accent focus-visible:ring-inset"
    >
      <KindBadge kind={entryKind(entry)} className="opacity-70" />
      <span className="min-w-0 flex-1 truncate">{entrySnippet(entry)}</span>
      {label ? <LabelChip label={label} /> : null}
      <span className="shrink-0 text-[11px] italic">{note}</span>
      <span className="shrink-0 font-mono text-[11px]">{entry.id}</span>
    </button>
  );
}

function MessageRow({
  row,
  open,
  onToggle,
  label,
  tokens,
  usage,
}: {
  row: Extract<Row, { kind: "message" }>;
  open: boolean;
  onToggle: () => void;
  label: string | null;
  /** pi's estimateTokens of the message; null where pi cannot measure it */
  tokens: number | null;
  /** the context size this reply's usage reports, when pi's count starts from it */
  usage: number | null;
}) {
  const { item } = row;
  const kind = messageKind(item.message);
  const excluded = excludedReason(item.message);
  return (
    <div className={`border-b border-border/60 ${open ? "bg-surface/60" : ""}`}>
      <div className="flex h-[26px] items-center gap-2 pr-2 text-[12.5px] hover:bg-surface">
        <button
          type="button"
          data-row-focus
          aria-expanded={open}
          onClick={onToggle}
          className="flex h-full min-w-0 flex-1 items-center gap-2 pl-3 text-left focus-visible:outline-none focus-visible:ring-1 focus-visible:ring-accent focus-visible:ring-inset"
        >
          <span className="w-6 shrink-0 text-right font-mono text-[11px] text-muted tabular-nums">{row.n + 1}</span>
          <KindBadge kind={kind} />
          <span className={`min-w-0 flex-1 truncate ${excluded ? "text-muted line-through" : ""}`}>{messageSnippet(item.message)}</span>
        </button>
        {label ? <LabelChip label={label} /> : null}
        {item.source === "retainedTail" ? (
          <Chip tone="accent" title="an item of the compaction's retainedTail (harness)">
            tail {item.tailIndex}
          </Chip>
        ) : null}
        {item.source === "synthesized" ? <Chip title="built by pi from the entry, not stored as a message">synth</Chip> : null}
        {excluded ? (
          <Chip tone="warn" title={excluded}>
            not sent
          </Chip>
        ) : null}
        {usage !== null ? (
          <Chip
            tone="accent"
            title={`pi counts the context from this reply's usage: ${usage.toLocaleString("en-US")} tokens; the messages after it are estimated`}
          >
            usage {compactNumber(usage)}
          </Chip>
        ) : null}
        <span className="w-10 shrink-0 text-right font-mono text-[11px] text-muted tabular-nums" title="pi's estimateTokens (chars/4, images 1,200)">
          {tokens === null ? "?" : compactNumber(tokens)}
        </span>
        <EntryIdLink entryId={item.entryId} />
      </div>
      {open ? (
        <div className="px-3 pt-1 pb-3 pl-11">
          {excluded ? <p className="mb-1 text-[12px] text-muted">{excluded}</p> : null}
          <MessageBody message={item.message} />
        </div>
      ) : null}
    </div>
  );
}
