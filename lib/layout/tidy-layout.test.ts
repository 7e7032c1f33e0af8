import { describe, expect, it } from "vitest";
import { buildDisplayTree, type DisplayTree } from "./display-tree";
import { CURSOR_HEIGHT, CURSOR_WIDTH, NODE_WIDTH } from "./sizes";
import { layoutDisplayTree, type GraphLayout } from "./tidy-layout";
import { buildSession, chainSpecs } from "./testing/builders";
import { allFixtureSessions, fixtureSession } from "./testing/fixtures";

function expectTidy(display: DisplayTree, layout: GraphLayout) {
  expect(layout.boxes.size).toBe(display.nodes.size);
  for (const node of display.nodes.values()) {
    const box = layout.boxes.get(node.key)!;
    const children = node.children.map((key) => layout.boxes.get(key)!);
    for (const child of children) expect(child.y).toBeGreaterThan(box.y + box.height - 1);
    // siblings left to right in display order (pi's order)
    for (let i = 1; i < children.length; i++) expect(children[i]!.x).toBeGreaterThan(children[i - 1]!.x);
  }
  const roots = display.roots.map((key) => layout.boxes.get(key)!);
  for (let i = 1; i < roots.length; i++) expect(roots[i]!.x).toBeGreaterThan(roots[i - 1]!.x);
  for (const root of roots) expect(root.depth).toBe(0);
  // no two boxes overlap
  const rows = new Map<number, { x: number; width: number }[]>();
  for (const box of layout.boxes.values()) {
    const row = rows.get(box.y) ?? [];
    row.push(box);
    rows.set(box.y, row);
  }
  for (const row of rows.values()) {
    row.sort((a, b) => a.x - b.x);
    for (let i = 1; i < row.length; i++) expect(row[i]!.x).toBeGreaterThanOrEqual(row[i - 1]!.x + row[i - 1]!.width);
  }
  // links are exactly the parent → child pairs
  const expected = [...display.nodes.values()].filter((n) => n.parent !== null).map((n) => `${n.parent}>${n.key}`);
  expect(layout.links.map((l) => `${l.source}>${l.target}`).sort()).toEqual(expected.sort());
}

describe("layoutDisplayTree", () => {
  it.each(allFixtureSessions())("lays out $name as a tidy tree", ({ session }) => {
    const display = buildDisplayTree(session, { keep: [session.leafId], labelled: session.labels() });
    expectTidy(display, layoutDisplayTree(display));
  });

  it("lays out the unfolded 200-entry random tree as a tidy tree", () => {
    const session = fixtureSession("ca-medium-a");
    const display = buildDisplayTree(session, { threshold: Infinity });
    expectTidy(display, layoutDisplayTree(display));
  });

  it("is deterministic", () => {
    const session = fixtureSession("ca-branching-a");
    const a = layoutDisplayTree(buildDisplayTree(session));
    const b = layoutDisplayTree(buildDisplayTree(session));
    expect([...a.boxes.values()]).toEqual([...b.boxes.values()]);
  });

  it("centres smaller cards in their slot", () => {
    const session = buildSession(chainSpecs(3));
    const display = buildDisplayTree(session);
    const layout = layoutDisplayTree(display, {
      sizeOf: (key) => (key === "e1" ? { width: CURSOR_WIDTH, height: CURSOR_HEIGHT } : { width: NODE_WIDTH, height: 58 }),
    });
    const full = layout.boxes.get("e0")!;
    const small = layout.boxes.get("e1")!;
    expect(small.x + small.width / 2).toBeCloseTo(full.x + full.width / 2);
    expect(small.width).toBe(CURSOR_WIDTH);
  });

  it("lays out a 20,000-entry chain, folded or not, without overflowing the stack", () => {
    const session = buildSession(chainSpecs(20_000));
    const folded = buildDisplayTree(session);
    expect(layoutDisplayTree(folded).boxes.size).toBe(3);
    const unfolded = buildDisplayTree(session, { threshold: Infinity });
    const layout = layoutDisplayTree(unfolded);
    expect(layout.boxes.get("e19999")!.depth).toBe(19_999);
  });
});
