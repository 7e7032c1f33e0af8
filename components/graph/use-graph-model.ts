"use client";

/**
 * The graph's pipeline (graph-model.ts), memoised step by step on the store
 * slices it reads. Selection changes recompute only the marks; the canvas
 * makes the cards of its window from them, and unchanged cards keep their
 * node objects and skip rendering.
 */
import { useMemo } from "react";
import { sessionOf, useViewer } from "@/components/viewer/store";
import { useSessionMemo } from "@/components/viewer/use-session-memo";
import type { Session } from "@/lib/session";
import { cutFromContext, modelSwitches, pathIds } from "@/lib/layout/marks";
import { visibilityOf } from "@/lib/layout/tree-filter";
import { cursorLinks, type ViewMarks } from "./flow-elements";
import { displayFor, factsOf, foldsFor, layoutFor, shownLeaf, type GraphModel } from "./graph-model";

export type { GraphModel } from "./graph-model";

const EMPTY = new Set<string>();
const NO_LABELS: ReturnType<Session["labels"]> = new Map();
const NO_MODELS = new Map<string, string>();

export function useGraphModel(): GraphModel | null {
  const session = useViewer(sessionOf);
  const expandedSegments = useViewer((s) => s.expandedSegments);
  const collapsed = useViewer((s) => s.collapsed);
  const historyStep = useViewer((s) => s.historyStep);
  const selectedId = useViewer((s) => s.selectedId);
  const overlay = useViewer((s) => s.contextOverlay);
  const treeFilter = useViewer((s) => s.treeFilter);

  // the steps that read the session's contents are recomputed as it grows (useSessionMemo)
  const shown = useSessionMemo((open) => shownLeaf(open, historyStep), [historyStep]);
  const facts = useSessionMemo(factsOf, []);
  const labels = useSessionMemo((open) => open.labels(), []) ?? NO_LABELS;
  const models = useSessionMemo(modelSwitches, []) ?? NO_MODELS;
  const leafId = shown?.leafId ?? null;
  const visible = useSessionMemo((open) => visibilityOf(open, treeFilter), [treeFilter]);
  const folds = useSessionMemo((open) => foldsFor(open, collapsed, leafId, labels, visible), [collapsed, leafId, labels, visible]);
  // opening a segment re-reads the fold plan, without another walk over the entries
  const display = useMemo(() => (folds ? displayFor(folds, expandedSegments) : null), [folds, expandedSegments]);
  const layout = useMemo(() => (session && display ? layoutFor(session, display) : null), [session, display]);
  const activePath = useSessionMemo((open) => pathIds(open, leafId), [leafId]) ?? EMPTY;
  const cut = useSessionMemo((open) => (overlay ? cutFromContext(open, selectedId) : EMPTY), [overlay, selectedId]) ?? EMPTY;

  const cursors = useMemo(() => (display && facts ? cursorLinks(display, facts) : null), [display, facts]);
  const ghostAfterLine = shown?.ghostAfterLine ?? null;
  const view = useMemo(
    (): ViewMarks => ({ leafId, activePath, selectedId, cut, ghostAfterLine, labels, models }),
    [leafId, activePath, selectedId, cut, ghostAfterLine, labels, models],
  );

  if (!session || !display || !layout || !facts || !cursors || !shown) return null;
  return { session, display, layout, facts, cursors, view, leafId, activePath, selectedId, scrubbing: ghostAfterLine !== null, visible };
}
