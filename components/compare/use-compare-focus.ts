"use client";

/**
 * The graph's part in a comparison: Shift+click (or any click while "Compare
 * with…" waits) picks the second node; an opened comparison has A, B and their
 * common ancestor unfolded and brought into view together.
 */
import { useReactFlow, useStore, useStoreApi } from "@xyflow/react";
import { useEffect, useRef } from "react";
import { openComparison } from "./compare-model";
import { motionMs } from "@/components/ui/motion";
import { compareA, compareB, comparePickFrom, useViewer, viewer } from "@/components/viewer/store";
import type { GraphModel } from "@/components/graph/graph-model";
import { fitViewport, screenOf } from "@/components/graph/viewport";

/** Handles a node click that picks a comparison's second node; false when the click is an ordinary selection. */
export function comparePick(id: string, shift: boolean): boolean {
  const state = viewer.get();
  const from = comparePickFrom(state) ?? (shift ? state.selectedId : null);
  if (from === null) return false;
  viewer.compare(from, id);
  return true;
}

export function useCompareFocus(model: GraphModel): void {
  const a = useViewer(compareA);
  const b = useViewer(compareB);
  const rf = useReactFlow();
  const flow = useStoreApi();
  const ready = useStore((s) => s.panZoom !== null);
  const shown = useRef<string | null>(null);

  useEffect(() => {
    if (a === null || b === null) {
      shown.current = null;
      return;
    }
    const pair = `${a}\n${b}`;
    if (!ready || shown.current === pair) return;
    const view = openComparison(viewer.get());
    const ancestor = view?.ok ? view.result.commonAncestorId : null;
    const ids = ancestor ? [a, b, ancestor] : [a, b];
    const expanded = viewer.get().expandedSegments;
    const folded = ids.map((id) => model.display.runOf.get(id)).filter((run): run is string => run !== undefined && !expanded.has(run));
    if (folded.length) {
      viewer.expandSegments(folded);
      return; // the next layout comes back here
    }
    shown.current = pair;
    // from the layout, not from React Flow's fitView: that measures only the cards it has drawn, and it draws
    // only those on screen, so a deep link's far-off A or B would be left out (and cut at the edge)
    const boxes = ids.flatMap((id) => {
      const key = model.display.keyOf.get(id);
      const box = key === undefined ? undefined : model.layout.boxes.get(key);
      return box ? [box] : [];
    });
    if (boxes.length) void rf.setViewport(fitViewport(boxes, screenOf(flow.getState()), 64, 1), { duration: motionMs(250) });
  }, [a, b, model, rf, flow, ready]);
}
