/**
 * Positions for a display tree: d3-hierarchy's tidy tree (Buchheim et al.)
 * with a fixed node size, roots at the top, several roots side by side under
 * an invisible virtual root. d3's hierarchy and tree walks are iterative, so
 * depth costs no stack.
 */
import { hierarchy, tree as tidyTree, type HierarchyPointNode } from "d3-hierarchy";
import type { DisplayTree } from "./display-tree";
import { NODE_HEIGHT, NODE_WIDTH, SLOT_HEIGHT, SLOT_WIDTH } from "./sizes";

export interface LayoutBox {
  key: string;
  /** top-left corner */
  x: number;
  y: number;
  width: number;
  height: number;
  /** 0 for roots */
  depth: number;
}

export interface LayoutLink {
  source: string;
  target: string;
}

export interface GraphLayout {
  boxes: Map<string, LayoutBox>;
  links: LayoutLink[];
}

export interface LayoutOptions {
  /** size of the card drawn for a display node, centred in its slot (default: a full card) */
  sizeOf?: (key: string) => { width: number; height: number };
}

const VIRTUAL_ROOT = "";
const fullCard = () => ({ width: NODE_WIDTH, height: NODE_HEIGHT });

export function layoutDisplayTree(display: DisplayTree, options: LayoutOptions = {}): GraphLayout {
  const sizeOf = options.sizeOf ?? fullCard;
  const root = hierarchy<string>(VIRTUAL_ROOT, (key) => {
    const children = key === VIRTUAL_ROOT ? display.roots : display.nodes.get(key)!.children;
    return children.length ? children : null;
  });
  // siblings sit one slot apart; neighbouring subtrees get a little more air
  const laidOut: HierarchyPointNode<string> = tidyTree<string>()
    .nodeSize([SLOT_WIDTH, SLOT_HEIGHT])
    .separation((a, b) => (a.parent === b.parent ? 1 : 1.25))(root);

  const boxes = new Map<string, LayoutBox>();
  const links: LayoutLink[] = [];
  laidOut.each((node) => {
    if (node.data === VIRTUAL_ROOT) return;
    const { width, height } = sizeOf(node.data);
    const depth = node.depth - 1;
    const centreY = depth * SLOT_HEIGHT + NODE_HEIGHT / 2;
    boxes.set(node.data, { key: node.data, x: node.x - width / 2, y: centreY - height / 2, width, height, depth });
    if (node.parent && node.parent.data !== VIRTUAL_ROOT) links.push({ source: node.parent.data, target: node.data });
  });
  return { boxes, links };
}
