"use client";

/**
 * The compare pane ("并线"): A and B, their common ancestor, the two divergent
 * segments side by side, what differs in model, thinking and tokens, and the
 * context diff as three lists. Takes the inspector's place; Close returns to it.
 */
import { QueryError } from "@/components/inspector/QueryError";
import { Icon } from "@/components/ui/Icon";
import { compareA, compareB, sessionOf, useViewer, viewer } from "@/components/viewer/store";
import { compareNodes, type LabelState, type Session } from "@/lib/session";
import { CompareFacts } from "./CompareFacts";
import { openComparison } from "./compare-model";
import { EndpointCard, AncestorLine } from "./Endpoints";
import { MessageList } from "./MessageList";
import { SegmentColumns } from "./SegmentColumns";
import { BranchSummaryBody } from "@/components/inspector/BranchSummaryPreview";
import { useSessionMemo } from "@/components/viewer/use-session-memo";

function safeCompare(session: Session, a: string, b: string): unknown {
  try {
    return compareNodes(session, a, b);
  } catch (error) {
    return error;
  }
}

export function CompareView() {
  const view = useViewer(openComparison);
  const session = useViewer(sessionOf);
  const selectedId = useViewer((s) => s.selectedId);
  const a = useViewer(compareA);
  const b = useViewer(compareB);
  const labels = useSessionMemo((session) => session.labels(), []) ?? new Map<string, LabelState>();
  // reads the content the comparison shows from the file, when the session reads it on demand (openComparison
  // compares light entries until then)
  useSessionMemo((session) => (a !== null && b !== null ? safeCompare(session, a, b) : null), [a, b]);

  if (!session || !view || a === null || b === null) return null;

  return (
    <div
      className="flex h-full min-h-0 flex-col bg-background text-[13px] text-foreground"
      data-testid="compare-view"
      role="region"
      aria-labelledby="compare-heading"
    >
      <div className="flex shrink-0 items-center gap-2 border-b border-border px-3 py-1.5">
        <h2 id="compare-heading" className="text-[11px] font-semibold tracking-wide text-muted uppercase">
          Compare
        </h2>
        <div className="ml-auto flex items-center gap-1">
          <button
            type="button"
            onClick={() => viewer.compare(b, a)}
            title="Swap A and B"
            className="inline-flex h-6 items-center gap-1 rounded border border-border px-2 text-[12px] hover:bg-surface focus-visible:outline focus-visible:outline-2 focus-visible:outline-accent"
          >
            Swap
          </button>
          <button
            type="button"
            onClick={() => viewer.compare(null, null)}
            title="Close the comparison and return to the inspector"
            data-testid="compare-close"
            className="inline-flex h-6 items-center gap-1 rounded border border-border px-2 text-[12px] hover:bg-surface focus-visible:outline focus-visible:outline-2 focus-visible:outline-accent"
          >
            <Icon name="x" size={12} /> Close
          </button>
        </div>
      </div>
      <div className="min-h-0 flex-1 overflow-auto">
        <div className="grid grid-cols-2 gap-2 px-3 py-2">
          <EndpointCard side="A" id={a} session={session} labels={labels} />
          <EndpointCard side="B" id={b} session={session} labels={labels} />
        </div>
        {view.ok ? (
          <>
            <AncestorLine id={view.result.commonAncestorId} session={session} labels={labels} />
            <SegmentColumns a={view.result.a.segment} b={view.result.b.segment} session={session} labels={labels} selectedId={selectedId} />
            <details className="px-3 py-1.5 text-[12px]" data-testid="compare-branch-summary">
              <summary className="cursor-pointer text-accent">If /tree went from A to B: what pi would summarize</summary>
              <BranchSummaryBody session={session} from={a} to={b} />
            </details>
            <CompareFacts result={view.result} part="settings" />
            <MessageList
              title="Only in A"
              testId="compare-only-a"
              items={view.result.onlyInA}
              labels={labels}
              selectedId={selectedId}
              tone="bg-sky-500"
              empty="Every message of A's context is also in B's."
            />
            <MessageList
              title="Only in B"
              testId="compare-only-b"
              items={view.result.onlyInB}
              labels={labels}
              selectedId={selectedId}
              tone="bg-rose-500"
              empty="Every message of B's context is also in A's."
            />
            <MessageList
              title="Shared"
              testId="compare-shared"
              items={view.result.shared}
              labels={labels}
              selectedId={selectedId}
              tone="bg-slate-400"
              empty="The two contexts share no message."
            />
            <CompareFacts result={view.result} part="tokens" />
          </>
        ) : (
          <QueryError error={view.error} what="comparison" />
        )}
      </div>
    </div>
  );
}
