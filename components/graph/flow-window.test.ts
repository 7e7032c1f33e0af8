import { describe, expect, it } from "vitest";
import type { Edge } from "@xyflow/react";
import { fixtureSession } from "@/lib/layout/testing/fixtures";
import { displayTreeOf } from "@/lib/layout/display-tree";
import { cutFromContext, modelSwitches, pathIds } from "@/lib/layout/marks";
import type { GraphFlowNode } from "./flow-elements";
import { toFlowElements } from "./flow-elements";
import { flowWindow, windowKey, windowRect, type FlowRect } from "./flow-window";
import { factsOf, foldsFor, layoutFor, shownLeaf } from "./graph-model";

function random(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

function cardAt(id: string, x: number, y: number): GraphFlowNode {
  return { id, type: "cursor", position: { x, y }, width: 100, height: 40, data: {} as GraphFlowNode["data"] } as GraphFlowNode;
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

describe("flowWindow", () => {
  it("keeps every card that meets the rectangle and every edge that can cross it, with both its ends", () => {
    const session = fixtureSession("ca-large");
    const { leafId } = shownLeaf(session, null);
    const labels = session.labels();
    const display = displayTreeOf(foldsFor(session, new Set(), leafId, labels), new Set());
    const layout = layoutFor(session, display);
    const view = {
      leafId,
      activePath: pathIds(session, leafId),
      selectedId: null,
      cut: cutFromContext(session, null),
      ghostAfterLine: null,
      labels,
      models: modelSwitches(session),
    };
    const { nodes, edges, byId } = toFlowElements(display, layout, view, factsOf(session));
    const next = random(3);
    const xs = nodes.map((n) => n.position.x);
    const ys = nodes.map((n) => n.position.y);
    const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    for (let i = 0; i < 200; i++) {
      const x0 = minX + next() * (maxX - minX);
      const y0 = minY + next() * (maxY - minY);
      const rect: FlowRect = { x0, y0, x1: x0 + 50 + next() * 1500, y1: y0 + 50 + next() * 1500 };
      const shown = flowWindow(nodes, edges, byId, rect);
      const kept = new Set(shown.nodes.map((n) => n.id));
      for (const n of nodes) {
        const meets = n.position.x < rect.x1 && n.position.x + n.width! > rect.x0 && n.position.y < rect.y1 && n.position.y + n.height! > rect.y0;
        if (meets) expect(kept.has(n.id)).toBe(true);
      }
      for (const e of shown.edges) expect(kept.has(e.source) && kept.has(e.target)).toBe(true);
      for (const e of edges) {
        if (kept.has(e.source) && kept.has(e.target)) expect(shown.edges).toContain(e);
      }
      expect(shown.nodes.length).toBeLessThan(nodes.length);
    }
  });

  it("brings both ends of a long edge that passes through the rectangle", () => {
    const a = cardAt("a", -5000, 0);
    const b = cardAt("b", 5000, 400);
    const c = cardAt("c", 5000, 5000);
    const nodes = [a, b, c];
    const edges: Edge[] = [
      { id: "ab", source: "a", target: "b" },
      { id: "bc", source: "b", target: "c" },
    ];
    const shown = flowWindow(nodes, edges, new Map(nodes.map((n) => [n.id, n])), { x0: 0, y0: 100, x1: 200, y1: 300 });
    expect(shown.nodes.map((n) => n.id)).toEqual(["a", "b"]);
    expect(shown.edges.map((e) => e.id)).toEqual(["ab"]);
  });
});
