// The layout survives the sizes the viewer must open (a 100k-deep chain, 10k children, a 50 MB line):
// display tree, tidy layout, navigation, marks and filters, without a stack overflow.
import { hierarchy, tree as d3Tree } from "d3-hierarchy";
import { describe, expect, it } from "vitest";
import { Session } from "../session";
import { deepChain, longLine, wideTree } from "../session/testing/big-sessions";
import { describeEntry } from "./describe";
import { buildDisplayTree } from "./display-tree";
import { cutFromContext, modelSwitches, pathIds } from "./marks";
import { branchSegmentStart, newestLeafBelow, rootKey } from "./navigation";
import { layoutDisplayTree } from "./tidy-layout";
import { SLOT_HEIGHT, SLOT_WIDTH } from "./sizes";
import { allFixtureSessions } from "./testing/fixtures";
import { filteredParents, NO_FILTER } from "./tree-filter";

/** laid-out boxes, each with finite coordinates; their count */
function tidyPositions(display: ReturnType<typeof buildDisplayTree>): number {
  const { boxes } = layoutDisplayTree(display);
  for (const box of boxes.values()) if (!Number.isFinite(box.x) || !Number.isFinite(box.y)) throw new Error(`${box.key} has no position`);
  return new Set([...boxes.values()].map((b) => `${b.x},${b.y}`)).size;
}

const DEPTH = 100_000;
const WIDTH = 10_000;

describe("a 100k-deep chain", () => {
  const session = Session.fromText(deepChain(DEPTH));
  const leaf = `e${DEPTH - 1}`;

  it("folds into a few display nodes", () => {
    const display = buildDisplayTree(session, { keep: [leaf] });
    expect(display.nodes.size).toBeLessThan(10);
    expect(tidyPositions(display)).toBe(display.nodes.size);
  });

  it("lays out unfolded, one node per entry", () => {
    const display = buildDisplayTree(session, { threshold: Infinity });
    expect(display.nodes.size).toBe(DEPTH);
    expect(tidyPositions(display)).toBe(DEPTH);
    expect(rootKey(display, leaf)).toBe("e0");
    expect(branchSegmentStart(display, leaf, "up", () => true)).toBe("e0");
  });

  it("navigates, marks and filters", () => {
    expect(newestLeafBelow(session.tree, "e0")).toBe(leaf);
    expect(pathIds(session, leaf).size).toBe(DEPTH);
    expect(cutFromContext(session, leaf).size).toBe(0);
    expect(modelSwitches(session).size).toBeGreaterThan(0);
    expect(filteredParents(session, NO_FILTER).size).toBe(DEPTH);
    expect(filteredParents(session, { mode: "user-only", hiddenTypes: new Set(), hiddenRoles: new Set() }).size).toBe(DEPTH / 2);
  });
});

describe("10k children of one entry", () => {
  const session = Session.fromText(wideTree(WIDTH));

  it("shows every child and lays them out side by side", () => {
    const display = buildDisplayTree(session);
    expect(display.nodes.get("root")!.children).toHaveLength(WIDTH);
    expect(tidyPositions(display)).toBe(WIDTH + 1);
  });
});

describe("a 50 MB line", () => {
  it("is described by a short card text", () => {
    const session = Session.fromText(longLine(50 * 1024 * 1024));
    const description = describeEntry(session.tree.get("long")!);
    expect(JSON.stringify(description).length).toBeLessThan(10_000);
    expect(tidyPositions(buildDisplayTree(session))).toBe(2);
  });
});

describe("the linear hierarchy the layout builds", () => {
  it("places every node of every fixture where d3's own hierarchy() puts it", () => {
    for (const { name, session } of allFixtureSessions()) {
      const display = buildDisplayTree(session, { threshold: Infinity });
      const ours = layoutDisplayTree(display).boxes;
      const d3Root = hierarchy<string>("", (key) => {
        const children = key === "" ? display.roots : display.nodes.get(key)!.children;
        return children.length ? children : null;
      });
      const theirs = d3Tree<string>()
        .nodeSize([SLOT_WIDTH, SLOT_HEIGHT])
        .separation((a, b) => (a.parent === b.parent ? 1 : 1.25))(d3Root);
      theirs.each((node) => {
        if (node.data === "") return;
        expect(ours.get(node.data)!.x + ours.get(node.data)!.width / 2, `${name} ${node.data}`).toBeCloseTo(node.x);
        expect(ours.get(node.data)!.depth, `${name} ${node.data}`).toBe(node.depth - 1);
      });
    }
  });
});
