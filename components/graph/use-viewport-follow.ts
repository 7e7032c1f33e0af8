"use client";

/**
 * Where the canvas looks. A new session is fitted when it stays readable,
 * else the leaf is shown low on screen. A selection made outside the canvas
 * (deep link, inspector, timeline, "newest leaf") is revealed — its folded
 * segment or collapsed subtree opened — and centred; a keyboard step is only
 * scrolled into view; a mouse click never moves the viewport.
 */
import { useReactFlow, useStore, useStoreApi } from "@xyflow/react";
import { useCallback, useEffect, useRef, type RefObject } from "react";
import { motionMs } from "@/components/ui/motion";
import { compareB, viewer } from "@/components/viewer/store";
import { pathIds } from "@/lib/layout/marks";
import { cursorKey } from "./graph-actions";
import type { GraphModel } from "./graph-model";
import { centreOn, fitViewport, isOnScreen, READABLE_ZOOM, screenOf } from "./viewport";

export type SelectionKind = "mouse" | "step" | "jump";

interface Pending {
  id: string;
  centre: boolean;
  reveal: boolean;
  attempts: number;
}

/** Make an entry its own node: open the folded segment holding it and any collapsed subtree above it. */
function reveal(model: GraphModel, id: string): void {
  const segment = model.display.runOf.get(id);
  if (segment && !viewer.get().expandedSegments.has(segment)) viewer.expandSegments([segment]);
  if (viewer.get().collapsed.size === 0) return;
  for (const ancestor of pathIds(model.session, id)) {
    if (ancestor !== id && viewer.get().collapsed.has(ancestor)) viewer.toggleCollapsed(ancestor);
  }
}

/**
 * The pane's size as React Flow last measured it (its ResizeObserver): reading
 * the element's clientWidth here would force a layout of the whole graph.
 */
export interface ViewportFollow {
  /** select an entry, saying how the selection was made */
  select(id: string, kind: SelectionKind): void;
  fitAll(): void;
}

export function useViewportFollow(model: GraphModel, wrapper: RefObject<HTMLDivElement | null>): ViewportFollow {
  const rf = useReactFlow();
  const flow = useStoreApi();
  const modelRef = useRef(model);
  /** how the next selection of this id was made; a selection nobody announced came from outside */
  const intent = useRef<{ id: string; kind: SelectionKind } | null>(null);
  const pending = useRef<Pending | null>(null);
  const placedFor = useRef<unknown>(null);
  const handledSelection = useRef<string | null>(null);
  // the viewport can move only once React Flow's pan/zoom exists (subscribed, so the effects rerun when it does)
  const ready = useStore((s) => s.panZoom !== null);

  useEffect(() => {
    modelRef.current = model;
  });

  const fitAll = useCallback(() => {
    void rf.setViewport(fitViewport(modelRef.current.layout.boxes.values(), screenOf(flow.getState())), { duration: motionMs(200) });
  }, [rf, flow]);

  /**
   * "centre": a jump, centred and readable; "step": a keyboard move, scrolled
   * into view and zoomed to a readable size if needed; "follow": kept on
   * screen at the zoom the user chose (the scrubbed leaf marker).
   */
  const scrollTo = useCallback(
    (key: string, mode: "centre" | "step" | "follow") => {
      const box = modelRef.current.layout.boxes.get(key);
      if (!box) return;
      const view = rf.getViewport();
      const screen = screenOf(flow.getState());
      if (mode === "centre") void rf.setViewport(centreOn(box, screen, Math.max(view.zoom, 0.85)), { duration: motionMs(250) });
      else if (mode === "step" && (view.zoom < READABLE_ZOOM || !isOnScreen(box, view, screen))) {
        void rf.setViewport(centreOn(box, screen, Math.max(view.zoom, READABLE_ZOOM)), { duration: motionMs(150) });
      } else if (mode === "follow" && !isOnScreen(box, view, screen)) void rf.setViewport(centreOn(box, screen, view.zoom), { duration: motionMs(150) });
    },
    [rf, flow],
  );

  const { selectedId } = model;
  useEffect(() => {
    if (handledSelection.current === selectedId) return;
    handledSelection.current = selectedId;
    const kind = intent.current?.id === selectedId ? intent.current.kind : "jump";
    intent.current = null;
    if (selectedId === null || kind === "mouse") return;
    pending.current = { id: selectedId, centre: kind === "jump", reveal: kind === "jump", attempts: 0 };
  }, [selectedId]);

  // a new session (a deep link other than the leaf is left to the effect below)
  useEffect(() => {
    if (!ready || placedFor.current === model.session) return;
    placedFor.current = model.session;
    wrapper.current?.setAttribute("data-placed", "true"); // tests wait for this before clicking
    if (pending.current && pending.current.id !== model.session.leafId) return;
    pending.current = null;
    const fit = fitViewport(model.layout.boxes.values(), screenOf(flow.getState()));
    const key = cursorKey(model);
    const box = key === null ? undefined : model.layout.boxes.get(key);
    if (fit.zoom >= READABLE_ZOOM || !box) void rf.setViewport(fit);
    // the leaf sits low on screen: what led to it is above, and there is little below
    else void rf.setViewport(centreOn(box, screenOf(flow.getState()), 0.9, 0.5, key === model.leafId ? 0.7 : 0.5));
  }, [model, rf, flow, ready, wrapper]);

  useEffect(() => {
    const p = pending.current;
    if (!p || !ready || placedFor.current !== model.session) return;
    // an open comparison brings A, B and their ancestor into view together (use-compare-focus): centring the
    // selection afterwards would cut the other one off
    if (p.centre && compareB(viewer.get()) !== null) {
      pending.current = null;
      return;
    }
    const key = model.display.keyOf.get(p.id);
    if (key === undefined) {
      pending.current = null;
      return;
    }
    if (p.reveal && key !== p.id && p.attempts < 3) {
      p.attempts++;
      reveal(model, p.id);
      return; // the next layout comes back here
    }
    pending.current = null;
    scrollTo(key, p.centre ? "centre" : "step");
  }, [model, ready, selectedId, scrollTo]);

  // a new filter redraws the graph: centre the selection again, or the nearest entry above it the filter keeps
  const { visible: filter } = model;
  const filteredFor = useRef(filter);
  useEffect(() => {
    if (filteredFor.current === filter || !ready) return;
    filteredFor.current = filter;
    const { display, session, selectedId } = modelRef.current;
    const seen = new Set<string>();
    for (let id = selectedId; id !== null && !seen.has(id); id = session.tree.parentOf(id)) {
      seen.add(id);
      const key = display.keyOf.get(id);
      if (key) return scrollTo(key, "centre");
    }
  }, [filter, ready, scrollTo]);

  // while scrubbing, keep the moving leaf marker in view
  const { leafId, scrubbing } = model;
  useEffect(() => {
    if (!scrubbing || leafId === null) return;
    const key = modelRef.current.display.keyOf.get(leafId);
    if (key) scrollTo(key, "follow");
  }, [leafId, scrubbing, scrollTo]);

  const select = useCallback((id: string, kind: SelectionKind) => {
    intent.current = { id, kind };
    viewer.select(id);
  }, []);

  return { select, fitAll };
}
