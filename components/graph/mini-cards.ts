// The minimap's cards: every card of the layout in the colour its card says it is (see GraphMiniMap.tsx).
import type { DisplayTree } from "@/lib/layout/display-tree";
import type { GraphLayout } from "@/lib/layout/tidy-layout";
import type { IdSet } from "@/lib/session";
import type { EntryFacts } from "./flow-elements";
import { KIND_FILL } from "./icons";
import { drawCards, type MiniCards } from "./minimap-paths";

/** A folded run on the active path: the accent, muted. */
export const ACTIVE_RUN_FILL = "color-mix(in oklab, var(--accent) 55%, #94a3b8)";
export const RUN_FILL = "#94a3b8";
export const LEAF_FILL = "var(--accent)";

/**
 * The fill of each card by its key: the leaf (or the run that holds it), a folded run on the active path or off
 * it, else what the entry is. Read from the display tree, not from the cards: the minimap draws every card, the
 * canvas makes only those around the viewport.
 */
export function miniCardFill(display: DisplayTree, facts: EntryFacts, leafId: string | null, activePath: IdSet): (key: string) => string {
  const leafKey = leafId === null ? undefined : display.keyOf.get(leafId);
  return (key) => {
    if (key === leafKey) return LEAF_FILL;
    const node = display.nodes.get(key)!;
    if (node.kind === "segment") return node.ids.length > 0 && activePath.has(node.ids[0]!) ? ACTIVE_RUN_FILL : RUN_FILL;
    return KIND_FILL[facts.kind(node.id)];
  };
}

/** Every card of the layout, drawn in its fill. */
export function miniCards(display: DisplayTree, layout: GraphLayout, facts: EntryFacts, leafId: string | null, activePath: IdSet): MiniCards {
  return drawCards(layout.boxes.values(), miniCardFill(display, facts, leafId, activePath));
}

let lastCards: { display: DisplayTree; layout: GraphLayout; leafId: string | null; activePath: IdSet; cards: MiniCards } | null = null;

/**
 * miniCards, the last answer kept: the loader draws them ahead of the first render (warm-graph.ts), which then
 * finds them. (The facts are not compared: a card's kind is its entry's, and a display tree is made anew when
 * the entries it shows change.)
 */
export function miniCardsFor(display: DisplayTree, layout: GraphLayout, facts: EntryFacts, leafId: string | null, activePath: IdSet): MiniCards {
  const last = lastCards;
  if (last && last.display === display && last.layout === layout && last.leafId === leafId && last.activePath === activePath) return last.cards;
  const cards = miniCards(display, layout, facts, leafId, activePath);
  lastCards = { display, layout, leafId, activePath, cards };
  return cards;
}
