/**
 * What each key-map action does to the viewer store, given the graph model.
 * Moves go over the display tree (a folded segment is one stop: landing on it
 * selects its boundary entry, the segment shows the selection; Space or Enter
 * expands it).
 */
import { firstHitIn } from "@/components/search/use-search";
import { comparePickFrom, viewer } from "@/components/viewer/store";
import { idsOf } from "@/lib/layout/display-tree";
import { branchSegmentStart, firstChildKey, isFoldable, newestLeafBelow, parentKey, rootKey, siblingKey } from "@/lib/layout/navigation";
import type { GraphAction } from "./keys";
import type { GraphModel } from "./graph-model";

export interface ActionHost {
  fitView(): void;
  toggleHelp(): void;
  closeHelp(): void;
  /**
   * Select an entry. "step": a move to a neighbour, scrolled into view as it is
   * (a folded segment stays folded); "jump": revealed (segments expanded) and
   * centred, like a deep link.
   */
  select(id: string, kind: "step" | "jump"): void;
}

/** The display node under the selection (itself, its folded segment, or a collapsed ancestor). */
export function cursorKey(model: GraphModel): string | null {
  const { display, selectedId, leafId } = model;
  const fromSelection = selectedId === null ? undefined : display.keyOf.get(selectedId);
  if (fromSelection) return fromSelection;
  const fromLeaf = leafId === null ? undefined : display.keyOf.get(leafId);
  return fromLeaf ?? display.roots[0] ?? null;
}

/** Selects what a display node stands for; a segment entered from below selects its last entry. */
function selectKey(model: GraphModel, host: ActionHost, key: string | null, fromBelow = false): void {
  if (key === null) return;
  const node = model.display.nodes.get(key);
  if (!node) return;
  const ids = idsOf(node);
  host.select(fromBelow ? ids[ids.length - 1]! : ids[0]!, "step");
}

export function runGraphAction(action: GraphAction, model: GraphModel, host: ActionHost): boolean {
  const { display } = model;
  const onPath = (key: string) => {
    const node = display.nodes.get(key);
    return node !== undefined && idsOf(node).some((id) => model.activePath.has(id));
  };
  const key = cursorKey(model);
  const node = key === null ? undefined : display.nodes.get(key);

  switch (action) {
    case "help":
      host.toggleHelp();
      return true;
    case "close":
      host.closeHelp();
      viewer.cancelComparePick();
      return true;
    case "fitView":
      host.fitView();
      return true;
    case "toggleOverlay":
      viewer.setContextOverlay(!viewer.get().contextOverlay);
      return true;
    case "leaf":
      if (model.leafId === null) return false;
      host.select(model.leafId, "jump");
      return true;
  }
  if (key === null || !node) return false;

  switch (action) {
    case "parent":
      selectKey(model, host, parentKey(display, key), true);
      return true;
    case "child":
      selectKey(model, host, firstChildKey(display, key, onPath));
      return true;
    case "previousSibling":
      selectKey(model, host, siblingKey(display, key, -1));
      return true;
    case "nextSibling":
      selectKey(model, host, siblingKey(display, key, 1));
      return true;
    case "previousBranch":
      selectKey(model, host, branchSegmentStart(display, key, "up", onPath));
      return true;
    case "nextBranch":
      selectKey(model, host, branchSegmentStart(display, key, "down", onPath));
      return true;
    case "root":
      selectKey(model, host, rootKey(display, key));
      return true;
    case "foldOrUp": {
      const top = idsOf(node)[0]!;
      if (isFoldable(display, key) && !viewer.get().collapsed.has(top)) viewer.toggleCollapsed(top);
      else selectKey(model, host, branchSegmentStart(display, key, "up", onPath));
      return true;
    }
    case "unfoldOrDown":
      if (node.kind === "entry" && node.hidden > 0) viewer.toggleCollapsed(node.id);
      else selectKey(model, host, branchSegmentStart(display, key, "down", onPath));
      return true;
    case "toggleFold": {
      if (node.kind === "segment") viewer.toggleSegment(node.segment);
      else if (display.runOf.has(node.id)) viewer.toggleSegment(display.runOf.get(node.id)!);
      else if (node.hidden > 0 || node.children.length > 0) viewer.toggleCollapsed(node.id);
      else return false;
      return true;
    }
    case "newestLeaf": {
      const from = model.selectedId ?? idsOf(node)[0]!;
      host.select(newestLeafBelow(model.session.tree, from), "jump");
      return true;
    }
    case "open":
      const pickFrom = comparePickFrom(viewer.get());
      if (pickFrom !== null && model.selectedId !== null) {
        viewer.compare(pickFrom, model.selectedId);
        return true;
      }
      if (node.kind === "segment") {
        // a segment holding search hits opens at the first one, selected; else it opens where it is
        const hit = firstHitIn(viewer.get(), node.ids);
        if (hit !== null) host.select(hit, "jump");
        else viewer.toggleSegment(node.segment);
        return true;
      }
      viewer.setTab("entry");
      if (typeof document !== "undefined") document.getElementById("inspector")?.focus();
      return true;
  }
  return false;
}
