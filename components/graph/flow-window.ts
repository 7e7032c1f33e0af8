/**
 * The part of the graph React Flow is given: the cards in and around the
 * viewport, never all of them. React Flow's store does work per node it holds
 * (internals, handles, lookups) every time the node list changes, whether or
 * not it draws them; on a session of half a million entries that was the
 * longest task of the load. The window is the viewport widened by a screen on
 * each side, snapped to a grid, so a pan changes it only now and then.
 */
import type { Edge } from "@xyflow/react";
import type { GraphFlowNode } from "./flow-elements";

/** A rectangle in flow coordinates. */
export interface FlowRect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** What React Flow's store says of the viewport (0 × 0 before the pane is measured). */
export interface PaneView {
  transform: readonly [number, number, number];
  width: number;
  height: number;
}

/**
 * A key that changes only when the viewport leaves its window: the visible
 * flow area is measured in grid cells a power of two wide (so zooming by small
 * steps keeps them), and the window is the cell the viewport starts in, one
 * cell before it and two after it in each direction. `null` before the pane
 * is measured.
 */
export function windowKey({ transform: [tx, ty, zoom], width, height }: PaneView): string | null {
  if (!(width > 0 && height > 0 && zoom > 0)) return null;
  const cw = 2 ** Math.ceil(Math.log2(width / zoom));
  const ch = 2 ** Math.ceil(Math.log2(height / zoom));
  return `${cw} ${ch} ${Math.floor(-tx / zoom / cw)} ${Math.floor(-ty / zoom / ch)}`;
}

/** The rectangle a window key stands for: the viewport with at least a screen of margin on every side. */
export function windowRect(key: string): FlowRect {
  const [cw, ch, cx, cy] = key.split(" ").map(Number) as [number, number, number, number];
  return { x0: (cx - 1) * cw, y0: (cy - 1) * ch, x1: (cx + 3) * cw, y1: (cy + 3) * ch };
}

export interface FlowWindow {
  nodes: GraphFlowNode[];
  edges: Edge[];
}

const overlaps = (ax0: number, ay0: number, ax1: number, ay1: number, r: FlowRect) => ax0 < r.x1 && ax1 > r.x0 && ay0 < r.y1 && ay1 > r.y0;

/**
 * The nodes that meet the rectangle, and every edge that can cross it: an
 * edge whose bounding box meets it brings both its ends along (React Flow
 * draws an edge only between nodes it holds), so a long edge between two
 * cards off screen still shows where it passes. Order follows `nodes`.
 */
export function flowWindow(nodes: readonly GraphFlowNode[], edges: readonly Edge[], byId: ReadonlyMap<string, GraphFlowNode>, rect: FlowRect): FlowWindow {
  const kept = new Set<string>();
  for (const n of nodes) {
    const { x, y } = n.position;
    if (overlaps(x, y, x + (n.width ?? 0), y + (n.height ?? 0), rect)) kept.add(n.id);
  }
  for (const e of edges) {
    const s = byId.get(e.source);
    const t = byId.get(e.target);
    if (!s || !t || (kept.has(s.id) && kept.has(t.id))) continue;
    const x0 = Math.min(s.position.x, t.position.x);
    const y0 = Math.min(s.position.y, t.position.y);
    const x1 = Math.max(s.position.x + (s.width ?? 0), t.position.x + (t.width ?? 0));
    const y1 = Math.max(s.position.y + (s.height ?? 0), t.position.y + (t.height ?? 0));
    if (!overlaps(x0, y0, x1, y1, rect)) continue;
    kept.add(s.id);
    kept.add(t.id);
  }
  // every edge between two nodes held, those brought along included
  const shownEdges = edges.filter((e) => kept.has(e.source) && kept.has(e.target));
  return { nodes: nodes.filter((n) => kept.has(n.id)), edges: shownEdges };
}
