"use client";

/**
 * The graph's overview in the corner: every card as a flat rectangle, the
 * viewport as a window in a mask; drag it to pan, wheel to zoom.
 *
 * React Flow's own MiniMap draws each node as a component with its own store
 * subscription, and measures all nodes again on every viewport change: on a
 * 100k-entry session (3,000+ cards) that was a third of a second when the
 * graph first showed, and work on every frame of a pan. Here the cards are
 * drawn as one path per colour, built when the layout or the leaf changes (not
 * the selection), and a pan only moves the window. Panning and zooming use @xyflow/system's XYMinimap, as
 * React Flow's does.
 */
import { Panel, useStore, useStoreApi, type ReactFlowState } from "@xyflow/react";
import { XYMinimap, type XYMinimapInstance } from "@xyflow/system";
import { memo, useEffect, useRef } from "react";
import { union, type Box, type MiniCards } from "./minimap-paths";

const WIDTH = 168;
const HEIGHT = 120;
/** margin around the drawing, in minimap pixels */
const OFFSET = 5;

const viewportOf = (s: ReactFlowState) => ({ tx: s.transform[0], ty: s.transform[1], zoom: s.transform[2], width: s.width, height: s.height });
const sameViewport = (a: ReturnType<typeof viewportOf>, b: ReturnType<typeof viewportOf>) =>
  a.tx === b.tx && a.ty === b.ty && a.zoom === b.zoom && a.width === b.width && a.height === b.height;

interface GraphMiniMapProps {
  /** every card of the graph, drawn (minimap-paths.ts) */
  cards: MiniCards;
  background: string;
  mask: string;
}

export const GraphMiniMap = memo(function GraphMiniMap({ cards, background, mask }: GraphMiniMapProps) {
  const store = useStoreApi();
  const svg = useRef<SVGSVGElement>(null);
  const view = useStore(viewportOf, sameViewport);
  const panZoom = useStore((s) => s.panZoom);
  const translateExtent = useStore((s) => s.translateExtent);

  // what the pane shows, in flow coordinates
  const pane: Box = { x: -view.tx / view.zoom, y: -view.ty / view.zoom, width: view.width / view.zoom, height: view.height / view.zoom };
  const drawn = union(cards.bounds, pane);
  const scale = Math.max(drawn.width / WIDTH, drawn.height / HEIGHT) || 1;
  const offset = OFFSET * scale;
  const viewWidth = scale * WIDTH + offset * 2;
  const viewHeight = scale * HEIGHT + offset * 2;
  const x = drawn.x - (scale * WIDTH - drawn.width) / 2 - offset;
  const y = drawn.y - (scale * HEIGHT - drawn.height) / 2 - offset;

  const scaleRef = useRef(scale);
  scaleRef.current = scale;
  const minimap = useRef<XYMinimapInstance | null>(null);
  useEffect(() => {
    if (!svg.current || !panZoom) return;
    const instance = XYMinimap({ domNode: svg.current, panZoom, getTransform: () => store.getState().transform, getViewScale: () => scaleRef.current });
    minimap.current = instance;
    return () => {
      instance.destroy();
      minimap.current = null;
    };
  }, [panZoom, store]);
  useEffect(() => {
    minimap.current?.update({ translateExtent, width: view.width, height: view.height, pannable: true, zoomable: true, inversePan: false, zoomStep: 1 });
  }, [panZoom, translateExtent, view.width, view.height]);

  return (
    <Panel position="bottom-right" className="react-flow__minimap" data-testid="graph-minimap" style={{ width: WIDTH, height: HEIGHT, background }}>
      <svg
        ref={svg}
        width={WIDTH}
        height={HEIGHT}
        viewBox={`${x} ${y} ${viewWidth} ${viewHeight}`}
        role="img"
        aria-label="Minimap"
        className="react-flow__minimap-svg block"
      >
        {cards.paths.map(([color, d]) => (
          <path key={color} d={d} fill={color} shapeRendering="crispEdges" />
        ))}
        <path
          d={`M${x - offset},${y - offset}h${viewWidth + offset * 2}v${viewHeight + offset * 2}h${-viewWidth - offset * 2}z M${pane.x},${pane.y}h${pane.width}v${pane.height}h${-pane.width}z`}
          fill={mask}
          fillRule="evenodd"
          pointerEvents="none"
        />
      </svg>
    </Panel>
  );
});
