// What the minimap draws: the cards as one path per fill, and the box around them (see GraphMiniMap.tsx).
import type { GraphFlowNode } from "./flow-elements";

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Rectangles grouped by fill, as path data, and the box around them all. */
export function drawCards(nodes: readonly GraphFlowNode[], colorOf: (node: GraphFlowNode) => string): { paths: [string, string][]; bounds: Box | null } {
  const byColor = new Map<string, string[]>();
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const node of nodes) {
    const { x, y } = node.position;
    const w = node.width ?? 0;
    const h = node.height ?? 0;
    const color = colorOf(node);
    let parts = byColor.get(color);
    if (!parts) byColor.set(color, (parts = []));
    parts.push(`M${x},${y}h${w}v${h}h${-w}z`);
    x0 = Math.min(x0, x);
    y0 = Math.min(y0, y);
    x1 = Math.max(x1, x + w);
    y1 = Math.max(y1, y + h);
  }
  const paths = [...byColor].map(([color, parts]): [string, string] => [color, parts.join("")]);
  return { paths, bounds: nodes.length ? { x: x0, y: y0, width: x1 - x0, height: y1 - y0 } : null };
}

export function union(a: Box | null, b: Box): Box {
  if (!a) return b;
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { x, y, width: Math.max(a.x + a.width, b.x + b.width) - x, height: Math.max(a.y + a.height, b.y + b.height) - y };
}
