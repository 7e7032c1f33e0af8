/**
 * The part of the graph React Flow is given: the cards in and around the
 * viewport, never all of them. React Flow's store does work per node it holds
 * (internals, handles, lookups) every time the node list changes, whether or
 * not it draws them; on a session of half a million entries that was the
 * longest task of the load. The window is the viewport widened by a screen on
 * each side, snapped to a grid, so a pan changes it only now and then. Cards
 * are made only for the window: a new selection remakes a few hundred, not
 * every card of the session.
 */

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

/** A card's place in flow coordinates (a layout box). */
export interface Placed {
  x: number;
  y: number;
  width: number;
  height: number;
}

const overlaps = (ax0: number, ay0: number, ax1: number, ay1: number, r: FlowRect) => ax0 < r.x1 && ax1 > r.x0 && ay0 < r.y1 && ay1 > r.y0;

/**
 * The keys of the cards that meet the rectangle, and of both ends of every
 * link that can cross it: React Flow draws an edge only between nodes it
 * holds, so a long edge between two cards off screen brings them along and
 * still shows where it passes. Cards are only ever made for these keys.
 */
export function windowKeys(boxes: ReadonlyMap<string, Placed>, links: Iterable<{ source: string; target: string }>, rect: FlowRect): Set<string> {
  const kept = new Set<string>();
  for (const [key, b] of boxes) if (overlaps(b.x, b.y, b.x + b.width, b.y + b.height, rect)) kept.add(key);
  for (const { source, target } of links) {
    if (kept.has(source) && kept.has(target)) continue;
    const s = boxes.get(source);
    const t = boxes.get(target);
    if (!s || !t) continue;
    const x0 = Math.min(s.x, t.x);
    const y0 = Math.min(s.y, t.y);
    const x1 = Math.max(s.x + s.width, t.x + t.width);
    const y1 = Math.max(s.y + s.height, t.y + t.height);
    if (!overlaps(x0, y0, x1, y1, rect)) continue;
    kept.add(source);
    kept.add(target);
  }
  return kept;
}
