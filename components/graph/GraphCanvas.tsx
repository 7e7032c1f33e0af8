"use client";

/**
 * The React Flow canvas: draws the model, maps clicks and keys to store
 * actions, and moves the viewport — centring on deep links and keyboard
 * jumps, scrolling keyboard steps into view, never moving on mouse clicks.
 */
import { Background, BackgroundVariant, Controls, MiniMap, ReactFlow, useReactFlow, useStore, type Node, type NodeMouseHandler } from "@xyflow/react";
import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from "react";
import { viewer } from "@/components/viewer/store";
import { newestLeafBelow } from "@/lib/layout/navigation";
import { pathIds } from "@/lib/layout/marks";
import type { GraphFlowNode } from "./flow-elements";
import { cursorKey, runGraphAction, type ActionHost } from "./graph-actions";
import { GraphToolbar } from "./GraphToolbar";
import { KIND_FILL } from "./icons";
import { KeyHelp } from "./KeyHelp";
import { actionForKey } from "./keys";
import { nodeTypes } from "./node-types";
import { useDarkMode } from "./use-color-mode";
import type { GraphModel } from "./use-graph-model";
import { centreOn, fitViewport, isOnScreen, MAX_ZOOM, MIN_ZOOM, READABLE_ZOOM, type Size } from "./viewport";

type Intent = "mouse" | "step" | "jump";

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
  const collapsed = viewer.get().collapsed;
  if (collapsed.size === 0) return;
  for (const ancestor of pathIds(model.session, id)) {
    if (ancestor !== id && viewer.get().collapsed.has(ancestor)) viewer.toggleCollapsed(ancestor);
  }
}

function minimapColor(node: Node): string {
  const n = node as GraphFlowNode;
  if (n.data.leaf) return "var(--accent)";
  if (n.type === "segment") return n.data.activePath ? "color-mix(in oklab, var(--accent) 55%, #94a3b8)" : "#94a3b8";
  if (n.type === "cursor") return KIND_FILL.leaf;
  return KIND_FILL[n.data.kind];
}

export function GraphCanvas({ model }: { model: GraphModel }) {
  const rf = useReactFlow();
  const dark = useDarkMode();
  const wrapper = useRef<HTMLDivElement>(null);
  const modelRef = useRef(model);
  /** how the next selection of this id was made; a selection nobody announced came from outside (deep link, inspector) */
  const intent = useRef<{ id: string; kind: Intent } | null>(null);
  const pending = useRef<Pending | null>(null);
  const placedFor = useRef<unknown>(null);
  const handledSelection = useRef<string | null>(null);
  const [helpOpen, setHelpOpen] = useState(false);

  useEffect(() => {
    modelRef.current = model;
  });

  const screen = useCallback((): Size => ({ width: wrapper.current?.clientWidth ?? 800, height: wrapper.current?.clientHeight ?? 600 }), []);

  const fitAll = useCallback(() => {
    const m = modelRef.current;
    void rf.setViewport(fitViewport(m.layout.boxes.values(), screen()), { duration: 200 });
  }, [rf, screen]);

  const scrollTo = useCallback(
    (key: string, centre: boolean) => {
      const box = modelRef.current.layout.boxes.get(key);
      if (!box) return;
      const view = rf.getViewport();
      if (centre) {
        void rf.setViewport(centreOn(box, screen(), Math.max(view.zoom, 0.85)), { duration: 250 });
      } else if (!isOnScreen(box, view, screen())) {
        void rf.setViewport(centreOn(box, screen(), Math.max(view.zoom, READABLE_ZOOM)), { duration: 150 });
      }
    },
    [rf, screen],
  );

  // a selection made anywhere but a mouse click on the canvas is revealed and brought into view
  const { selectedId } = model;
  useEffect(() => {
    if (handledSelection.current === selectedId) return;
    handledSelection.current = selectedId;
    const kind = intent.current?.id === selectedId ? intent.current.kind : "jump";
    intent.current = null;
    if (selectedId === null || kind === "mouse") return;
    pending.current = { id: selectedId, centre: kind === "jump", reveal: kind === "jump", attempts: 0 };
  }, [selectedId]);

  // a new session: show all of it if it stays readable, else centre on the leaf; a deep link is centred by the effect below
  // the viewport can move only once React Flow's pan/zoom exists (subscribed, so the effects rerun when it does)
  const ready = useStore((s) => s.panZoom !== null);
  useEffect(() => {
    if (!ready || placedFor.current === model.session) return;
    placedFor.current = model.session;
    wrapper.current?.setAttribute("data-placed", "true"); // tests wait for this before clicking
    if (pending.current && pending.current.id !== model.session.leafId) return;
    pending.current = null;
    const fit = fitViewport(model.layout.boxes.values(), screen());
    const key = cursorKey(model);
    const box = key === null ? undefined : model.layout.boxes.get(key);
    if (fit.zoom >= READABLE_ZOOM || !box) void rf.setViewport(fit);
    // the leaf sits low on screen: what led to it is above, and there is little below
    else void rf.setViewport(centreOn(box, screen(), 0.9, 0.5, key === model.leafId ? 0.7 : 0.5));
  }, [model, rf, ready, screen]);

  useEffect(() => {
    const p = pending.current;
    if (!p || !ready || placedFor.current !== model.session) return;
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
    scrollTo(key, p.centre);
  }, [model, ready, selectedId, scrollTo]);

  // while scrubbing, keep the moving leaf marker in view
  const { leafId, scrubbing } = model;
  useEffect(() => {
    if (!scrubbing || leafId === null) return;
    const key = modelRef.current.display.keyOf.get(leafId);
    if (key) scrollTo(key, false);
  }, [leafId, scrubbing, scrollTo]);

  const host: ActionHost = {
    fitView: fitAll,
    toggleHelp: () => setHelpOpen((open) => !open),
    closeHelp: () => setHelpOpen(false),
    select: (id, kind) => {
      intent.current = { id, kind };
      viewer.select(id);
    },
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = event.target as HTMLElement;
    if (target !== event.currentTarget && target.closest("button, input, textarea, select, a, [role=dialog]") && event.key !== "Escape") return;
    const action = actionForKey(event);
    if (action === null) return;
    if (runGraphAction(action, model, host)) {
      event.preventDefault();
      event.stopPropagation();
    }
  };

  const onNodeClick: NodeMouseHandler = (_event, node) => {
    const n = node as GraphFlowNode;
    if (n.type === "segment") {
      viewer.toggleSegment(n.data.segment);
      return;
    }
    intent.current = { id: n.data.id, kind: "mouse" };
    viewer.select(n.data.id);
  };

  const onNodeDoubleClick: NodeMouseHandler = (_event, node) => {
    const n = node as GraphFlowNode;
    if (n.type === "segment") return;
    viewer.setTab("entry");
    document.getElementById("inspector")?.focus();
  };

  const newestFrom = model.selectedId ?? model.leafId;
  const { nodes, edges } = model.flow;

  return (
    <div
      ref={wrapper}
      tabIndex={0}
      role="application"
      aria-roledescription="session graph"
      aria-label="Session graph. Arrow keys move the selection, question mark lists the keys."
      data-testid="session-graph"
      onKeyDown={onKeyDown}
      onPointerDownCapture={(e) => {
        if (!(e.target as HTMLElement).closest("button, input, [role=dialog]")) wrapper.current?.focus({ preventScroll: true });
      }}
      className="relative h-full w-full bg-(--graph-canvas) outline-none [--graph-canvas:color-mix(in_oklab,var(--surface)_55%,#e6e9ee)] [--graph-card:var(--background)] [--graph-cursor:#ec4899] [--graph-edge:#c3cad5] focus-visible:shadow-[inset_0_0_0_2px_var(--accent)] dark:[--graph-canvas:var(--background)] dark:[--graph-card:var(--surface)] dark:[--graph-edge:#3a414d]"
    >
      <ReactFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        onNodeClick={onNodeClick}
        onNodeDoubleClick={onNodeDoubleClick}
        colorMode={dark ? "dark" : "light"}
        nodesDraggable={false}
        nodesConnectable={false}
        elementsSelectable={false}
        nodesFocusable={false}
        edgesFocusable={false}
        disableKeyboardA11y
        onlyRenderVisibleElements
        panActivationKeyCode={null}
        deleteKeyCode={null}
        selectionKeyCode={null}
        multiSelectionKeyCode={null}
        zoomActivationKeyCode={null}
        zoomOnDoubleClick={false}
        minZoom={MIN_ZOOM}
        maxZoom={MAX_ZOOM}
        className="!bg-transparent"
      >
        <Background variant={BackgroundVariant.Dots} gap={20} size={1} color={dark ? "#262b33" : "#d9dee6"} />
        <Controls showInteractive={false} position="bottom-left" fitViewOptions={{ padding: 0.1, maxZoom: 1.1 }} />
        <MiniMap
          position="bottom-right"
          pannable
          zoomable
          nodeColor={minimapColor}
          nodeStrokeWidth={0}
          nodeBorderRadius={4}
          bgColor="var(--graph-card)"
          maskColor={dark ? "rgb(0 0 0 / 0.45)" : "rgb(148 163 184 / 0.18)"}
          ariaLabel="Minimap"
        />
      </ReactFlow>
      <GraphToolbar
        entries={model.session.tree.size}
        nodes={nodes.length}
        scrubbing={model.scrubbing}
        canGoNewest={newestFrom !== null}
        helpOpen={helpOpen}
        onHelp={() => setHelpOpen((open) => !open)}
        onLeaf={() => runGraphAction("leaf", model, host)}
        onNewest={() => {
          if (newestFrom !== null) host.select(newestLeafBelow(model.session.tree, newestFrom), "jump");
        }}
      />
      {helpOpen && <KeyHelp onClose={() => setHelpOpen(false)} />}
    </div>
  );
}
