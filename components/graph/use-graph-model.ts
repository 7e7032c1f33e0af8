"use client";

/**
 * The graph's pipeline (graph-model.ts), memoised step by step on the store
 * slices it reads. Selection changes recompute only the marks and the
 * elements; unchanged cards keep their node objects and skip rendering.
 */
import { useMemo } from "react";
import { sessionOf, useViewer } from "@/components/viewer/store";
import { useSessionMemo } from "@/components/viewer/use-session-memo";
import type { Session } from "@/lib/session";
import { cutFromContext, modelSwitches, pathIds } from "@/lib/layout/marks";
import { visibilityOf } from "@/lib/layout/tree-filter";
import { toFlowElements, type GraphFlowNode } from "./flow-elements";
import { displayFor, factsOf, foldsFor, layoutFor, shownLeaf, type GraphModel } from "./graph-model";

export type { GraphModel } from "./graph-model";

const EMPTY = new Set<string>();
const NO_LABELS: ReturnType<Session["labels"]> = new Map();
const NO_MODELS = new Map<string, string>();
/** the last React Flow nodes drawn per session */
const drawnNodes = new WeakMap<Session, ReadonlyMap<string, GraphFlowNode>>();

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

  const flow = useMemo(() => {
    if (!session || !display || !layout || !facts || !shown) return null;
    const view = { leafId, activePath, selectedId, cut, ghostAfterLine: shown.ghostAfterLine, labels, models };
    const elements = toFlowElements(display, layout, view, facts, drawnNodes.get(session));
    drawnNodes.set(session, elements.byId);
    return elements;
  }, [session, display, layout, facts, shown, leafId, activePath, selectedId, cut, labels, models]);

  if (!session || !display || !layout || !flow || !shown) return null;
  return { session, display, layout, flow, leafId, activePath, selectedId, scrubbing: shown.ghostAfterLine !== null, visible };
}
