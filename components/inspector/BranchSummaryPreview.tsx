"use client";

/**
 * "Go back here with a summary": what pi's /tree would hand its summarizer if
 * the cursor went from the session's leaf to the selected entry —
 * collectEntriesForBranchSummary (the entries from the leaf back to the common
 * ancestor) and prepareBranchEntries within pi's budget (the model's window
 * less 16,384), by the rules the file is read with. Computed when opened.
 */
import { useState } from "react";
import { useViewer, viewer } from "@/components/viewer/store";
import { useSessionMemo } from "@/components/viewer/use-session-memo";
import { modelOfContext } from "@/lib/models/model-catalogue";
import { BRANCH_SUMMARY_FALLBACK_WINDOW, BRANCH_SUMMARY_RESERVE, type Session } from "@/lib/session";
import { entryKind, entrySnippet } from "./entry-kind";
import { KindBadge } from "./KindBadge";
import { useModelCatalogue } from "./use-model-catalogue";

const fmt = (n: number) => n.toLocaleString("en-US");

export function BranchSummaryPreview({ session, id }: { session: Session; id: string }) {
  const [open, setOpen] = useState(false);
  const leafId = session.leafId;
  if (leafId === null || leafId === id) return null;
  return (
    <div className="border-b border-border px-3 py-1.5 text-[12px]" data-testid="branch-summary-preview">
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)} className="flex items-center gap-1.5 text-left text-accent hover:underline">
        <span aria-hidden="true" className={`inline-block w-3 transition-transform ${open ? "rotate-90" : ""}`}>
          ▸
        </span>
        Go back here with a summary: what pi&apos;s /tree would summarize from the leaf <span className="font-mono">{leafId}</span>
      </button>
      {open ? <BranchSummaryBody session={session} from={leafId} to={id} /> : null}
    </div>
  );
}

/** What /tree from `from` to `to` would hand the summarizer (also the compare pane's, with A as the old leaf). */
export function BranchSummaryBody({ session, from, to }: { session: Session; from: string; to: string }) {
  const catalogue = useModelCatalogue();
  const windowOverride = useViewer((s) => s.compactionSettings.contextWindow);
  const result = useSessionMemo(
    (open) => {
      try {
        const model = open.context(from).model;
        const known = catalogue ? modelOfContext(catalogue, model) : null;
        const window = windowOverride ?? known?.contextWindow ?? BRANCH_SUMMARY_FALLBACK_WINDOW;
        const budget = window - BRANCH_SUMMARY_RESERVE;
        return { preview: open.branchSummary(from, to, budget), window, budget, known: known !== null || windowOverride !== null, error: null };
      } catch (error) {
        return { preview: null, window: 0, budget: 0, known: false, error };
      }
    },
    [from, to, catalogue, windowOverride],
  );
  if (!result) return null;
  // the budget depends on the model's window: wait for the catalogue rather than show the fallback's numbers
  if (!catalogue && windowOverride === null) return <p className="mt-1 text-muted">Reading pi&apos;s model catalogue…</p>;
  if (!result.preview) return <p className="mt-1 text-red-700 dark:text-red-300">pi cannot prepare this summary: {String(result.error)}</p>;
  const { preview } = result;
  const summarized = new Set(preview.messages.map((m) => m.entryId));
  const overBudget = new Set(preview.overBudgetIds);
  if (preview.entryIds.length === 0)
    return <p className="mt-1 text-muted">Nothing to summarize: this entry lies below the leaf, so moving there leaves nothing behind.</p>;
  return (
    <div className="mt-1 flex flex-col gap-1" data-tokens={preview.tokens} data-common-ancestor={preview.commonAncestorId ?? ""}>
      <p className="text-muted">
        <span className="font-semibold text-foreground tabular-nums">{preview.entryIds.length}</span> entries back to the common ancestor{" "}
        {preview.commonAncestorId ? (
          <button type="button" className="font-mono text-accent hover:underline" onClick={() => viewer.select(preview.commonAncestorId!)}>
            {preview.commonAncestorId}
          </button>
        ) : (
          "(none: separate roots)"
        )}
        ; <span className="tabular-nums">{preview.messages.length}</span> messages, <span className="tabular-nums">{fmt(preview.tokens)}</span> tokens go to the
        summarizer (budget {fmt(result.budget)} = {result.known ? "the model's window" : "pi's fallback window"} {fmt(result.window)} −{" "}
        {fmt(BRANCH_SUMMARY_RESERVE)}).
        {preview.readFiles.length || preview.modifiedFiles.length ? ` Files: ${preview.readFiles.length} read, ${preview.modifiedFiles.length} modified.` : ""}
      </p>
      <ol className="max-h-56 overflow-auto rounded border border-border" data-testid="branch-summary-entries">
        {preview.entryIds.map((entryId) => {
          const entry = session.tree.get(entryId);
          const sent = summarized.has(entryId);
          const why = sent ? "summarized" : overBudget.has(entryId) ? "over the budget" : "no message";
          return (
            <li key={entryId} data-entry-id={entryId} data-summarized={sent ? "true" : overBudget.has(entryId) ? "over-budget" : "false"}>
              <button
                type="button"
                onClick={() => viewer.select(entryId)}
                className={`flex h-[24px] w-full items-center gap-2 px-2 text-left hover:bg-surface ${sent ? "" : "text-muted opacity-70"}`}
              >
                {entry ? <KindBadge kind={entryKind(entry)} /> : null}
                <span className="min-w-0 flex-1 truncate">{entry ? entrySnippet(entry) : entryId}</span>
                <span className="shrink-0 text-[11px] italic">{why}</span>
                <span className="shrink-0 font-mono text-[11px]">{entryId}</span>
              </button>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
