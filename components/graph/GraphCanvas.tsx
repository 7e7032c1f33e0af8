"use client";

/**
 * The React Flow canvas: draws the model and maps clicks and keys to store
 * actions; where the viewport goes is use-viewport-follow's business.
 */
import { Background, BackgroundVariant, ControlButton, Controls, ReactFlow, useStore, type NodeMouseHandler } from "@xyflow/react";
import { useDeferredValue, useEffect, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { viewer } from "@/components/viewer/store";
import { newestLeafBelow } from "@/lib/layout/navigation";
import type { Session } from "@/lib/session";
import { toFlowElements, type FlowElements, type GraphFlowNode } from "./flow-elements";
import { windowKeys, windowKey, windowRect } from "./flow-window";
import { runGraphAction, type ActionHost } from "./graph-actions";
import { GraphMiniMap } from "./GraphMiniMap";
import { miniCardsFor } from "./mini-cards";
import { GraphToolbar } from "./GraphToolbar";
import { KeyHelp } from "./KeyHelp";
import { actionForKey } from "./keys";
import { nodeTypes } from "./node-types";
import { useDarkMode } from "./use-color-mode";
import type { GraphModel } from "./use-graph-model";
import { useViewportFollow } from "./use-viewport-follow";
import { comparePick, useCompareFocus } from "@/components/compare/use-compare-focus";
import { MAX_ZOOM, MIN_ZOOM } from "./viewport";

/** What a screen reader hears when the selection moves. */
function announcement(model: GraphModel): string {
  const id = model.selectedId;
  if (id === null) return "";
  const key = model.display.keyOf.get(id);
  const node = key === undefined ? undefined : model.display.nodes.get(key);
  if (!node) return "";
  if (node.kind === "segment") return `${node.ids.length} folded entries, entry ${node.ids.indexOf(id) + 1} selected. Space expands.`;
  const leaf = id === model.leafId ? ", the leaf" : "";
  const d = model.facts.describe(id);
  if (d.kind === "leaf") return `leaf move to ${model.facts.moveTarget(id) ?? "the start"}${leaf}`;
  return `${d.title}: ${d.text || d.tools.join(" · ")}${leaf}`;
}

const NOTHING: FlowElements = { nodes: [], edges: [], byId: new Map() };
/** the cards last made per session: a card whose data did not change is kept, and React skips it */
const drawnNodes = new WeakMap<Session, ReadonlyMap<string, GraphFlowNode>>();

/** The cards around the viewport (flow-window.ts), made only for it; the window is re-chosen only when a pan or zoom leaves it. */
function useFlowWindow(model: GraphModel) {
  const current = useStore(windowKey);
  // the first window is made in a render React may put off (the pane's size is known only after the viewer's first
  // commit, and making it there added tens of ms to that task); later ones follow the viewport at once
  const first = useDeferredValue(current);
  const key = first === null ? null : current;
  const { session, display, layout, view, facts, cursors } = model;
  const keys = useMemo(() => (key === null ? null : windowKeys(layout.boxes, layout.links.concat(cursors), windowRect(key))), [layout, cursors, key]);
  /** bumped when the frames of entries this window described from the index alone were read (a session whose text is coming) */
  const [reads, setReads] = useState(0);
  const elements = useMemo(() => {
    if (keys === null) return { ...NOTHING, refused: false };
    const elements = toFlowElements(display, layout, view, facts, drawnNodes.get(session), keys, cursors);
    drawnNodes.set(session, elements.byId);
    return { ...elements, refused: session.tree.textRefused };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [session, display, layout, view, facts, cursors, keys, reads]);
  useEffect(() => {
    if (!elements.refused) return;
    let current = true;
    const again = () => current && setReads((n) => n + 1);
    session.tree.readRefused().then(again, () => void session.tree.textCame().then(again));
    return () => {
      current = false;
    };
  }, [session, elements]);
  return elements;
}

export function GraphCanvas({ model }: { model: GraphModel }) {
  const dark = useDarkMode();
  const wrapper = useRef<HTMLDivElement>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  const follow = useViewportFollow(model, wrapper);
  useCompareFocus(model);

  const host: ActionHost = {
    fitView: follow.fitAll,
    toggleHelp: () => setHelpOpen((open) => !open),
    closeHelp: () => setHelpOpen(false),
    select: follow.select,
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

  const onNodeClick: NodeMouseHandler = (event, node) => {
    const n = node as GraphFlowNode;
    if (n.type === "segment") {
      viewer.toggleSegment(n.data.segment);
      return;
    }
    if (comparePick(n.data.id, event.shiftKey)) return;
    follow.select(n.data.id, "mouse");
  };

  const onNodeDoubleClick: NodeMouseHandler = (_event, node) => {
    const n = node as GraphFlowNode;
    if (n.type === "segment") return;
    viewer.setTab("entry");
    document.getElementById("inspector")?.focus();
  };

  const newestFrom = model.selectedId ?? model.leafId;
  const shown = useFlowWindow(model);
  const { display, layout, facts, leafId, activePath } = model;
  const cards = useMemo(() => miniCardsFor(display, layout, facts, leafId, activePath), [display, layout, facts, leafId, activePath]);

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
        nodes={shown.nodes}
        edges={shown.edges}
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
        {/* React Flow's own fit measures only the cards it has drawn, and it draws only those on screen: ours fits the layout */}
        <Controls showInteractive={false} showFitView={false} position="bottom-left">
          <ControlButton onClick={follow.fitAll} className="react-flow__controls-fitview" title="Fit view (f)" aria-label="Fit view">
            <svg viewBox="0 0 16 16" aria-hidden="true" style={{ fill: "none" }} stroke="currentColor" strokeWidth="1.6" strokeLinecap="round">
              <path d="M2 6V2h4M10 2h4v4M14 10v4h-4M6 14H2v-4" />
            </svg>
          </ControlButton>
        </Controls>
        <GraphMiniMap cards={cards} background="var(--graph-card)" mask={dark ? "rgb(0 0 0 / 0.45)" : "rgb(148 163 184 / 0.18)"} />
      </ReactFlow>
      <GraphToolbar
        entries={model.session.tree.size}
        nodes={model.display.nodes.size}
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
      <p className="sr-only" aria-live="polite">
        {announcement(model)}
      </p>
    </div>
  );
}
