import { describe, expect, it } from "vitest";
import { displayTreeOf } from "@/lib/layout/display-tree";
import { cutFromContext, modelSwitches, pathIds } from "@/lib/layout/marks";
import { fixtureSession } from "@/lib/layout/testing/fixtures";
import { toFlowElements, type GraphFlowNode } from "./flow-elements";
import { factsOf, foldsFor, layoutFor, shownLeaf } from "./graph-model";
import { KIND_FILL } from "./icons";
import { ACTIVE_RUN_FILL, LEAF_FILL, miniCardFill, miniCards, RUN_FILL } from "./mini-cards";

/** The fill a card's own data calls for (what the minimap showed when it drew React Flow's cards). */
function fillOfCard(n: GraphFlowNode): string {
  if (n.data.leaf) return LEAF_FILL;
  if (n.type === "segment") return n.data.activePath ? ACTIVE_RUN_FILL : RUN_FILL;
  if (n.type === "cursor") return KIND_FILL.leaf;
  return KIND_FILL[n.data.kind];
}

describe("the minimap's cards", () => {
  it.each(["ca-large", "hx-leaf-moves-a", "ca-branching-a", "ca-compaction-a"])(
    "are filled as each card of %s says, for its leaf and for a leaf inside a folded run",
    (name) => {
      const session = fixtureSession(name);
      const labels = session.labels();
      const facts = factsOf(session);
      const sessionLeaf = shownLeaf(session, null).leafId;
      // another leaf: an entry deep in the tree, inside a folded run when there is one
      const ids = [...session.tree.ids()];
      for (const leafId of [sessionLeaf, ids[Math.floor(ids.length / 2)]!]) {
        const display = displayTreeOf(foldsFor(session, new Set(), leafId, labels), new Set());
        const layout = layoutFor(session, display);
        const activePath = pathIds(session, leafId);
        const view = { leafId, activePath, selectedId: null, cut: cutFromContext(session, null), ghostAfterLine: null, labels, models: modelSwitches(session) };
        const { nodes } = toFlowElements(display, layout, view, facts);
        const fill = miniCardFill(display, facts, leafId, activePath);
        expect(nodes.length).toBe(layout.boxes.size);
        for (const n of nodes) expect(fill(n.id), `${name}: ${n.id}`).toBe(fillOfCard(n));
        // one rectangle per card, and the box around them all
        const drawn = miniCards(display, layout, facts, leafId, activePath);
        expect(drawn.paths.reduce((count, [, path]) => count + path.split("M").length - 1, 0)).toBe(nodes.length);
        expect(new Set(drawn.paths.map(([color]) => color))).toEqual(new Set(nodes.map(fillOfCard)));
      }
    },
  );
});
