/**
 * Viewport arithmetic for the canvas, from layout boxes (never from the DOM):
 * fitting the whole graph, and whether a box is on screen.
 */
import type { LayoutBox } from "@/lib/layout/tidy-layout";

export interface Viewport {
  x: number;
  y: number;
  zoom: number;
}

export interface Size {
  width: number;
  height: number;
}

export const MIN_ZOOM = 0.05;
export const MAX_ZOOM = 2;
/** below this the cards are not readable: centre on the selection instead of fitting everything */
export const READABLE_ZOOM = 0.55;

export function boundsOf(boxes: Iterable<LayoutBox>): { minX: number; minY: number; maxX: number; maxY: number } {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const b of boxes) {
    minX = Math.min(minX, b.x);
    minY = Math.min(minY, b.y - 12); // room for the leaf pill above a card
    maxX = Math.max(maxX, b.x + b.width);
    maxY = Math.max(maxY, b.y + b.height + 12); // and the branch badge below
  }
  return minX === Infinity ? { minX: 0, minY: 0, maxX: 0, maxY: 0 } : { minX, minY, maxX, maxY };
}

/** The pane's size from React Flow's store (0 before it is measured: a usual screen then). */
export function screenOf(state: { width: number; height: number }): Size {
  return { width: state.width || 800, height: state.height || 600 };
}

/** The viewport that shows every box, `padding` screen pixels from the edges, zoomed in no further than `maxZoom`. */
export function fitViewport(boxes: Iterable<LayoutBox>, screen: Size, padding = 32, maxZoom = 1.1): Viewport {
  const { minX, minY, maxX, maxY } = boundsOf(boxes);
  const width = Math.max(1, maxX - minX);
  const height = Math.max(1, maxY - minY);
  const zoom = Math.min(maxZoom, Math.max(MIN_ZOOM, Math.min((screen.width - 2 * padding) / width, (screen.height - 2 * padding) / height)));
  return { x: screen.width / 2 - ((minX + maxX) / 2) * zoom, y: screen.height / 2 - ((minY + maxY) / 2) * zoom, zoom };
}

/** A viewport with the box's centre at `(fx, fy)` of the screen (fractions; the middle by default). */
export function centreOn(box: LayoutBox, screen: Size, zoom: number, fx = 0.5, fy = 0.5): Viewport {
  return { x: screen.width * fx - (box.x + box.width / 2) * zoom, y: screen.height * fy - (box.y + box.height / 2) * zoom, zoom };
}

/** True when the whole box (plus a margin in screen pixels) is inside the screen. */
export function isOnScreen(box: LayoutBox, view: Viewport, screen: Size, margin = 24): boolean {
  const left = box.x * view.zoom + view.x;
  const top = box.y * view.zoom + view.y;
  const right = left + box.width * view.zoom;
  const bottom = top + box.height * view.zoom;
  return left >= margin && top >= margin && right <= screen.width - margin && bottom <= screen.height - margin;
}
