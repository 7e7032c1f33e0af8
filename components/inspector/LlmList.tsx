"use client";

/**
 * The Context tab's "Sent to model" mode: the messages after pi's
 * convertToLlm, as the provider gets them: a bash run, an extension message
 * and the summaries are user text with pi's wrappers, a `!!` run is gone.
 * Each row opens to the exact text and JSON pi sends; "Copy JSON" copies the
 * whole array.
 */
import { EntryIdLink } from "./EntryIdLink";
import { useState } from "react";
import type { LlmMessage, ModelView } from "@/lib/session";
import { Chip } from "./Fields";
import { KindBadge } from "./KindBadge";
import { messageKind, messageSnippet } from "./entry-kind";
import { compactNumber } from "./UsageLine";
import { VirtualList } from "./VirtualList";
import { toggled } from "./toggled";

const FROM: Record<string, string> = {
  bashExecution: "bash run",
  custom: "extension message",
  branchSummary: "branch summary",
  compactionSummary: "compaction summary",
};

/** The text blocks of a converted message, as the model reads them. */
function textOf(message: LlmMessage["message"]): string | null {
  const content = message.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return null;
  const texts = content.flatMap((b) => (typeof b === "object" && b !== null && b.type === "text" && typeof b.text === "string" ? [b.text] : []));
  return texts.length ? texts.join("\n\n") : null;
}

export function LlmList({ view }: { view: ModelView }) {
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const [copied, setCopied] = useState(false);
  const rows = view.llm;
  const dropped = view.context.messages.length - rows.length;
  // (from the state React holds, not this render's: two quick clicks on rows must both count)
  const toggle = (i: number) => setOpen((was) => toggled(was, i));
  const copy = async () => {
    await navigator.clipboard.writeText(
      JSON.stringify(
        rows.map((r) => r.message),
        null,
        2,
      ),
    );
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  return (
    <div className="flex min-h-0 flex-1 flex-col" data-testid="llm-view">
      <div className="flex items-center gap-2 border-b border-border px-3 py-1.5 text-[12px] text-muted">
        <span>
          <span className="font-semibold text-foreground tabular-nums">{rows.length}</span> {rows.length === 1 ? "message" : "messages"} sent
          {dropped > 0 ? `; ${dropped} of the context's left out by convertToLlm` : ""}
        </span>
        <button type="button" data-testid="copy-llm-json" onClick={() => void copy()} className="ml-auto text-[11px] text-accent hover:underline">
          {copied ? "Copied" : "Copy JSON"}
        </button>
      </div>
      <VirtualList
        label="Sent to model"
        testId="llm-list"
        className="flex-1"
        count={rows.length}
        estimateSize={() => 26}
        getKey={(i) => `l${i}`}
        rowProps={(i) => ({ "data-entry-id": rows[i]!.entryId, "data-from": rows[i]!.from })}
        renderRow={(i) => (
          <LlmRow row={rows[i]!} n={i} tokens={view.messageTokens[rows[i]!.contextIndex] ?? null} open={open.has(i)} onToggle={() => toggle(i)} />
        )}
      />
    </div>
  );
}

function LlmRow({ row, n, tokens, open, onToggle }: { row: LlmMessage; n: number; tokens: number | null; open: boolean; onToggle: () => void }) {
  const converted = row.from !== row.message.role;
  const text = open ? textOf(row.message) : null;
  return (
    <div className={`border-b border-border/60 ${open ? "bg-surface/60" : ""}`}>
      <div className="flex h-[26px] items-center gap-2 pr-2 text-[12.5px] hover:bg-surface">
        <button
          type="button"
          data-row-focus
          aria-expanded={open}
          onClick={onToggle}
          className="flex h-full min-w-0 flex-1 items-center gap-2 pl-3 text-left focus-visible:ring-1 focus-visible:ring-accent focus-visible:outline-none focus-visible:ring-inset"
        >
          <span className="w-6 shrink-0 text-right font-mono text-[11px] text-muted tabular-nums">{n + 1}</span>
          <KindBadge kind={messageKind(row.message)} />
          <span className="w-16 shrink-0 font-mono text-[11px] text-muted">{String(row.message.role)}</span>
          <span className="min-w-0 flex-1 truncate">{messageSnippet(row.message)}</span>
        </button>
        {converted ? (
          <Chip tone="accent" title={`a ${row.from} message, converted by pi's convertToLlm`}>
            {FROM[row.from] ?? row.from}
          </Chip>
        ) : null}
        <span className="w-10 shrink-0 text-right font-mono text-[11px] text-muted tabular-nums" title="pi's estimateTokens of the message before conversion">
          {tokens === null ? "?" : compactNumber(tokens)}
        </span>
        <EntryIdLink entryId={row.entryId} />
      </div>
      {open ? (
        <div className="flex flex-col gap-2 px-3 pt-1 pb-3 pl-11 text-[12px]">
          {text !== null ? (
            <pre
              data-testid="llm-text"
              className="max-h-80 overflow-auto rounded border border-border bg-background p-2 font-mono text-[11.5px] whitespace-pre-wrap"
            >
              {text}
            </pre>
          ) : null}
          <details>
            <summary className="cursor-pointer text-muted">JSON as sent</summary>
            <pre className="max-h-80 overflow-auto rounded border border-border bg-background p-2 font-mono text-[11px] whitespace-pre-wrap">
              {JSON.stringify(row.message, null, 2)}
            </pre>
          </details>
        </div>
      ) : null}
    </div>
  );
}
