"use client";

/**
 * A strip above the graph when the selected entry is one the filter hides:
 * the inspector still shows it, the graph cannot. Offers to show everything
 * or to select the nearest ancestor the filter keeps (where pi's /tree would
 * put its cursor).
 */
import { sessionOf, useViewer, viewer } from "@/components/viewer/store";
import { NO_FILTER, visibilityOf } from "@/lib/layout/tree-filter";
import type { Session } from "@/lib/session";
import { useSessionMemo } from "@/components/viewer/use-session-memo";

function nearestShown(session: Session, id: string, visible: (id: string) => boolean): string | null {
  const seen = new Set<string>();
  for (let current = session.tree.parentOf(id); current !== null && !seen.has(current); current = session.tree.parentOf(current)) {
    if (visible(current)) return current;
    seen.add(current);
  }
  return null;
}

export function HiddenSelectionNotice() {
  const session = useViewer(sessionOf);
  const filter = useViewer((s) => s.treeFilter);
  const selectedId = useViewer((s) => s.selectedId);
  const visible = useSessionMemo((session) => visibilityOf(session, filter), [filter]);
  if (!session || !visible || selectedId === null || !session.tree.get(selectedId) || visible(selectedId)) return null;
  const ancestor = nearestShown(session, selectedId, visible);
  return (
    <div
      role="status"
      data-testid="selection-hidden"
      className="flex shrink-0 items-center gap-2 border-b border-warning/30 bg-warning-soft px-3 py-1 text-xs text-warning"
    >
      <span>
        The selected entry <span className="font-mono">{selectedId}</span> is hidden by the filter.
      </span>
      <button type="button" className="font-medium underline underline-offset-2 hover:no-underline" onClick={() => viewer.setTreeFilter(NO_FILTER)}>
        Show all
      </button>
      {ancestor && (
        <button
          type="button"
          className="font-medium underline underline-offset-2 hover:no-underline"
          onClick={() => viewer.select(ancestor)}
          data-testid="select-nearest-shown"
        >
          Select the nearest shown entry above
        </button>
      )}
    </div>
  );
}
