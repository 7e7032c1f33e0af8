"use client";

/**
 * The graph's pipeline (graph-model.ts), memoised step by step on the store
 * slices it reads. Selection changes recompute only the marks and the
 * elements; unchanged cards keep their node objects and skip rendering.
 */
import { useMemo } from "react";
import { useViewer } from "@/components/viewer/store";
import type { Session } from "@/lib/session";
import { cutFromContext, modelSwitches, pathIds } from "@/lib/layout/marks";
import { visibilityOf } from "@/lib/layout/tree-filter";
import { toFlowElements, type GraphFlowNode } from "./flow-elements";
import { displayTreeOf } from "@/lib/layout/display-tree";
import { factsOf, foldsFor, layoutFor, shownLeaf, type GraphModel } from "./graph-model";

export type { GraphModel } from "./graph-model";

const EMPTY = new Set<string>();
/** the last React Flow nodes drawn per session */
const drawnNodes = new WeakMap<Session, ReadonlyMap<string, GraphFlowNode>>();

export function useGraphModel(): GraphModel | null {
  const session = useViewer((s) => s.session);
  const revision = useViewer((s) => s.revision);
  const expandedSegments = useViewer((s) => s.expandedSegments);
  const collapsed = useViewer((s) => s.collapsed);
  const historyStep = useViewer((s) => s.historyStep);
  const selectedId = useViewer((s) => s.selectedId);
  const overlay = useViewer((s) => s.contextOverlay);
  const treeFilter = useViewer((s) => s.treeFilter);

  // `revision` stands for the session's contents: a live tail grows the Session object in place
  /* eslint-disable react-hooks/exhaustive-deps */
  const shown = useMemo(() => (session ? shownLeaf(session, historyStep) : null), [session, revision, historyStep]);
  const facts = useMemo(() => (session ? factsOf(session) : null), [session, revision]);
  const labels = useMemo(() => session?.labels() ?? new Map(), [session, revision]);
  const models = useMemo(() => (session ? modelSwitches(session) : new Map<string, string>()), [session, revision]);
  const leafId = shown?.leafId ?? null;
  const visible = useMemo(() => (session ? visibilityOf(session, treeFilter) : null), [session, revision, treeFilter]);
  const folds = useMemo(() => (session ? foldsFor(session, collapsed, leafId, labels, visible) : null), [session, revision, collapsed, leafId, labels, visible]);
  // opening a segment re-reads the fold plan, without another walk over the entries
  const display = useMemo(() => (folds ? displayTreeOf(folds, expandedSegments) : null), [folds, expandedSegments]);
  const layout = useMemo(() => (session && display ? layoutFor(session, display) : null), [session, display]);
  const activePath = useMemo(() => (session ? pathIds(session, leafId) : EMPTY), [session, revision, leafId]);
  const cut = useMemo(() => (session && overlay ? cutFromContext(session, selectedId) : EMPTY), [session, revision, overlay, selectedId]);
  /* eslint-enable react-hooks/exhaustive-deps */

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
