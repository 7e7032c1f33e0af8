import { describe, expect, it } from "vitest";
import { fixtureSession } from "@/lib/layout/testing/fixtures";
import { displayTreeOf } from "@/lib/layout/display-tree";
import { cutFromContext, modelSwitches, pathIds } from "@/lib/layout/marks";
import type { GraphFlowNode } from "./flow-elements";
import { cursorLinks, toFlowElements } from "./flow-elements";
import { windowKeys, windowKey, windowRect, type FlowRect } from "./flow-window";
import { factsOf, foldsFor, layoutFor, shownLeaf } from "./graph-model";

function random(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

describe("windowKey", () => {
  it("is null until the pane has a size", () => {
    expect(windowKey({ transform: [0, 0, 1], width: 0, height: 0 })).toBeNull();
  });

  it("covers the viewport with at least a screen of margin on every side, whatever the pan and zoom", () => {
    const next = random(7);
    for (let i = 0; i < 2000; i++) {
      const zoom = 0.05 + next() * 1.95;
      const width = 200 + next() * 1800;
      const height = 200 + next() * 1200;
      const transform = [(next() - 0.5) * 1e6, (next() - 0.5) * 1e6, zoom] as const;
      const rect = windowRect(windowKey({ transform, width, height })!);
      const view = { x0: -transform[0] / zoom, y0: -transform[1] / zoom, x1: (width - transform[0]) / zoom, y1: (height - transform[1]) / zoom };
      const w = width / zoom;
      const h = height / zoom;
      expect(rect.x0).toBeLessThanOrEqual(view.x0 - w + 1e-6);
      expect(rect.x1).toBeGreaterThanOrEqual(view.x1 + w - 1e-6);
      expect(rect.y0).toBeLessThanOrEqual(view.y0 - h + 1e-6);
      expect(rect.y1).toBeGreaterThanOrEqual(view.y1 + h - 1e-6);
    }
  });

  it("stays the same while a pan moves less than a screen, so React Flow keeps its nodes", () => {
    const keys = new Set<string | null>();
    for (let dx = 0; dx < 500; dx += 10) keys.add(windowKey({ transform: [-2048 * 10 - dx, 0, 1], width: 1000, height: 800 }));
    expect(keys.size).toBe(1);
    expect(windowKey({ transform: [-2048 * 12, 0, 1], width: 1000, height: 800 })).not.toBe([...keys][0]);
  });
});

describe("windowKeys", () => {
  it("holds every card that meets the rectangle and both ends of every edge that can cross it; cards made for it are the window's", () => {
    const session = fixtureSession("hx-leaf-moves-a");
    const big = fixtureSession("ca-large");
    for (const s of [session, big]) {
      const { leafId } = shownLeaf(s, null);
      const labels = s.labels();
      const display = displayTreeOf(foldsFor(s, new Set(), leafId, labels), new Set());
      const layout = layoutFor(s, display);
      const view = {
        leafId,
        activePath: pathIds(s, leafId),
        selectedId: null,
        cut: cutFromContext(s, null),
        ghostAfterLine: null,
        labels,
        models: modelSwitches(s),
      };
      const facts = factsOf(s);
      const cursors = cursorLinks(display, facts);
      const { nodes, edges, byId } = toFlowElements(display, layout, view, facts);
      const next = random(3);
      const xs = nodes.map((n) => n.position.x);
      const ys = nodes.map((n) => n.position.y);
      const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
      const meets = (n: GraphFlowNode, r: FlowRect) =>
        n.position.x < r.x1 && n.position.x + n.width! > r.x0 && n.position.y < r.y1 && n.position.y + n.height! > r.y0;
      for (let i = 0; i < 200; i++) {
        const x0 = minX + next() * (maxX - minX);
        const y0 = minY + next() * (maxY - minY);
        const rect: FlowRect = { x0, y0, x1: x0 + 50 + next() * 1500, y1: y0 + 50 + next() * 1500 };
        const kept = windowKeys(layout.boxes, layout.links.concat(cursors), rect);
        for (const n of nodes) if (meets(n, rect)) expect(kept.has(n.id)).toBe(true);
        for (const e of edges) {
          const s = byId.get(e.source)!;
          const t = byId.get(e.target)!;
          const x = Math.min(s.position.x, t.position.x);
          const y = Math.min(s.position.y, t.position.y);
          const box = {
            position: { x, y },
            width: Math.max(s.position.x + s.width!, t.position.x + t.width!) - x,
            height: Math.max(s.position.y + s.height!, t.position.y + t.height!) - y,
          };
          if (meets(box as GraphFlowNode, rect)) expect(kept.has(e.source) && kept.has(e.target), e.id).toBe(true);
        }
        // the window's cards are the whole graph's cards for those keys, and its edges those between them
        const shown = toFlowElements(display, layout, view, facts, new Map(), kept, cursors);
        expect(shown.nodes).toEqual(nodes.filter((n) => kept.has(n.id)));
        expect(shown.edges).toEqual(edges.filter((e) => kept.has(e.source) && kept.has(e.target)));
        if (s === big) expect(shown.nodes.length).toBeLessThan(nodes.length);
      }
    }
  });

  it("brings both ends of a long edge that passes through the rectangle", () => {
    const boxes = new Map([
      ["a", { x: -5000, y: 0, width: 100, height: 40 }],
      ["b", { x: 5000, y: 400, width: 100, height: 40 }],
      ["c", { x: 5000, y: 5000, width: 100, height: 40 }],
    ]);
    const links = [
      { source: "a", target: "b" },
      { source: "b", target: "c" },
    ];
    expect([...windowKeys(boxes, links, { x0: 0, y0: 100, x1: 200, y1: 300 })]).toEqual(["a", "b"]);
  });
});
