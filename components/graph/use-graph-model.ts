"use client";

/**
 * The graph's pipeline, memoised step by step on the store slices it reads:
 * session → display tree (folding) → tidy layout → marks → React Flow
 * elements. Selection changes recompute only the marks and the elements.
 */
import { useMemo } from "react";
import { useViewer } from "@/components/viewer/store";
import type { Session } from "@/lib/session";
import { describeEntry, type EntryDescription } from "@/lib/layout/describe";
import { buildDisplayTree, type DisplayTree } from "@/lib/layout/display-tree";
import { cutFromContext, modelSwitches, pathIds } from "@/lib/layout/marks";
import { CURSOR_HEIGHT, CURSOR_WIDTH, NODE_HEIGHT, NODE_WIDTH } from "@/lib/layout/sizes";
import { layoutDisplayTree, type GraphLayout } from "@/lib/layout/tidy-layout";
import { toFlowElements, type EntryFacts, type FlowElements, type GraphFlowNode } from "./flow-elements";

const descriptions = new WeakMap<object, EntryDescription>();
/** the last React Flow nodes drawn per session, so unchanged cards keep their identity (and skip rendering) */
const drawnNodes = new WeakMap<Session, ReadonlyMap<string, GraphFlowNode>>();
const EMPTY = new Set<string>();

function factsOf(session: Session): EntryFacts {
  const tree = session.tree;
  return {
    describe(id) {
      const entry = tree.get(id)!;
      let d = descriptions.get(entry);
      if (!d) descriptions.set(entry, (d = describeEntry(entry)));
      return d;
    },
    line: (id) => tree.node(id)?.line ?? 0,
    exists: (id) => tree.get(id) !== undefined,
    moveTarget(id) {
      const target = tree.get(id)?.targetId;
      return typeof target === "string" ? target : null;
    },
  };
}

export interface GraphModel {
  session: Session;
  display: DisplayTree;
  layout: GraphLayout;
  flow: FlowElements;
  /** the leaf the graph marks: the scrubbed-to leaf while scrubbing, else the session's */
  leafId: string | null;
  activePath: ReadonlySet<string>;
  selectedId: string | null;
  scrubbing: boolean;
}

export function useGraphModel(): GraphModel | null {
  const session = useViewer((s) => s.session);
  const revision = useViewer((s) => s.revision);
  const expanded = useViewer((s) => s.expandedSegments);
  const collapsed = useViewer((s) => s.collapsed);
  const historyStep = useViewer((s) => s.historyStep);
  const selectedId = useViewer((s) => s.selectedId);
  const overlay = useViewer((s) => s.contextOverlay);

  const step = session && historyStep !== null ? (session.tree.leafHistory[historyStep] ?? null) : null;
  const fileLeaf = session?.leafId ?? null;
  const leafId = step ? step.leafId : fileLeaf;

  // `revision` stands for the session's contents: the Session object is mutated in place by a live tail
  const facts = useMemo(() => (session ? factsOf(session) : null), [session, revision]); // eslint-disable-line react-hooks/exhaustive-deps
  const labels = useMemo(() => session?.labels() ?? new Map(), [session, revision]); // eslint-disable-line react-hooks/exhaustive-deps
  const models = useMemo(() => (session ? modelSwitches(session) : new Map<string, string>()), [session, revision]); // eslint-disable-line react-hooks/exhaustive-deps

  const display = useMemo(
    () => (session ? buildDisplayTree(session, { expanded, collapsed, keep: [fileLeaf, leafId], labelled: labels }) : null),
    [session, revision, expanded, collapsed, fileLeaf, leafId, labels], // eslint-disable-line react-hooks/exhaustive-deps
  );
  const layout = useMemo(() => {
    if (!session || !display) return null;
    const small = { width: CURSOR_WIDTH, height: CURSOR_HEIGHT };
    const full = { width: NODE_WIDTH, height: NODE_HEIGHT };
    return layoutDisplayTree(display, { sizeOf: (key) => (session.tree.get(key)?.type === "leaf" ? small : full) });
  }, [session, display]);

  const activePath = useMemo(() => (session ? pathIds(session, leafId) : EMPTY), [session, revision, leafId]); // eslint-disable-line react-hooks/exhaustive-deps
  const cut = useMemo(() => (session && overlay ? cutFromContext(session, selectedId) : EMPTY), [session, revision, overlay, selectedId]); // eslint-disable-line react-hooks/exhaustive-deps

  const flow = useMemo(() => {
    if (!display || !layout || !facts) return null;
    const view = { leafId, activePath, selectedId, cut, ghostAfterLine: step ? step.line : null, labels, models };
    const elements = toFlowElements(display, layout, view, facts, drawnNodes.get(session!));
    drawnNodes.set(session!, elements.byId);
    return elements;
  }, [session, display, layout, facts, leafId, activePath, selectedId, cut, step, labels, models]);

  if (!session || !display || !layout || !flow) return null;
  return { session, display, layout, flow, leafId, activePath, selectedId, scrubbing: step !== null };
}
