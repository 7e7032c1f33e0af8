"use client";

/**
 * "If pi compacted here": pi's prepareCompaction with the selected entry as
 * the leaf and the Context tab's keep-recent setting — where it would cut
 * (marked on the graph while open), what it would summarize, the turn prefix
 * of a split turn, the size it would record, the summary it would extend and
 * the file lists it would keep. Computed when opened.
 */
import { useEffect, useState } from "react";
import { useViewer, viewer } from "@/components/viewer/store";
import { useSessionMemo } from "@/components/viewer/use-session-memo";
import type { CompactionPreview as Preview } from "@/lib/session";
import { EntryLink } from "./EntryLink";

const fmt = (n: number) => n.toLocaleString("en-US");

export function CompactionPreview({ id }: { id: string }) {
  const [open, setOpen] = useState(false);
  const keep = useViewer((s) => s.compactionSettings.keepRecentTokens);
  return (
    <div className="border-b border-border px-3 py-1.5 text-[12px]" data-testid="compaction-preview">
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)} className="flex items-center gap-1.5 text-left text-accent hover:underline">
        <span aria-hidden="true" className={`inline-block w-3 transition-transform ${open ? "rotate-90" : ""}`}>
          ▸
        </span>
        If pi compacted here (keeping the newest ≈{fmt(keep)} tokens)
      </button>
      {open ? <PreviewBody id={id} keep={keep} /> : null}
    </div>
  );
}

function PreviewBody({ id, keep }: { id: string; keep: number }) {
  const result = useSessionMemo(
    (session) => {
      try {
        return { preview: session.compaction(id, keep), error: null };
      } catch (error) {
        return { preview: null, error: error instanceof Error ? error.message : String(error) };
      }
    },
    [id, keep],
  );
  const firstKept = result?.preview?.firstKeptEntryId ?? null;
  // the graph marks the kept boundary while the preview is open
  useEffect(() => {
    viewer.setFirstKeptPreview(firstKept);
    return () => viewer.setFirstKeptPreview(null);
  }, [firstKept]);
  if (!result) return null;
  if (result.error) return <p className="mt-1 text-red-700 dark:text-red-300">pi cannot prepare a compaction here: {result.error}</p>;
  if (!result.preview)
    return (
      <p className="mt-1 text-muted" data-prepared="false">
        pi would prepare nothing: the entry is a compaction itself, or everything after the last compaction fits in what it keeps.
      </p>
    );
  return <PreviewFacts preview={result.preview} />;
}

function PreviewFacts({ preview }: { preview: Preview }) {
  const kept = preview.firstKeptEntryId;
  return (
    <div className="mt-1 flex flex-col gap-1" data-prepared="true" data-first-kept-id={kept} data-tokens-before={preview.tokensBefore}>
      <p>
        Kept from {kept.includes(":retained:") ? <span className="font-mono">{kept}</span> : <EntryLink id={kept} />} on;{" "}
        <span className="font-semibold tabular-nums">{preview.messagesToSummarize.length}</span> messages summarized
        {preview.isSplitTurn ? (
          <>
            , and the <span className="tabular-nums">{preview.turnPrefixMessages.length}</span> before it in the same turn summarized apart (the turn is split)
          </>
        ) : null}
        . It would record <span className="tabular-nums">{fmt(preview.tokensBefore)}</span> tokens before
        {preview.previousSummary !== null ? " and extend the previous compaction's summary" : ""}.
      </p>
      {preview.retainedTail ? (
        <p className="text-muted">The harness keeps {preview.retainedTail.length} messages as the compaction&apos;s retained tail.</p>
      ) : null}
      {preview.readFiles.length || preview.modifiedFiles.length ? (
        <p className="text-muted">
          Files it would record: {preview.readFiles.length} read ({preview.readFiles.slice(0, 4).join(", ")}
          {preview.readFiles.length > 4 ? ", …" : ""}), {preview.modifiedFiles.length} modified ({preview.modifiedFiles.slice(0, 4).join(", ")}
          {preview.modifiedFiles.length > 4 ? ", …" : ""}).
        </p>
      ) : null}
      <details>
        <summary className="cursor-pointer text-muted">The entries it would summarize ({preview.summarizeIds.length + preview.turnPrefixIds.length})</summary>
        <ul className="mt-1 flex max-h-40 flex-wrap gap-1 overflow-auto" data-testid="compaction-summarized">
          {preview.summarizeIds.map((entryId) => (
            <li key={entryId} data-entry-id={entryId}>
              <EntryLink id={entryId} />
            </li>
          ))}
          {preview.turnPrefixIds.map((entryId) => (
            <li key={`p${entryId}`} data-entry-id={entryId} data-turn-prefix="true" title="in the split turn's prefix">
              <EntryLink id={entryId} />
              <span className="text-muted">ᵖ</span>
            </li>
          ))}
        </ul>
      </details>
    </div>
  );
}
