/**
 * Positions for a display tree: d3-hierarchy's tidy tree (Buchheim et al.)
 * with a fixed node size, roots at the top, several roots side by side under
 * an invisible virtual root. d3's hierarchy and tree walks are iterative, so
 * depth costs no stack.
 */
import { hierarchy, tree as tidyTree, type HierarchyNode, type HierarchyPointNode } from "d3-hierarchy";
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

const noChildren = () => null;

/**
 * d3's `hierarchy()` with heights computed in one pass. d3 computes each node's
 * height by walking up from it until an ancestor is tall enough, which is
 * quadratic on a long chain (a 100k-entry run, unfolded: minutes). Each node is
 * made by `hierarchy()` alone (so it has d3's methods), then linked here.
 */
function displayHierarchy(display: DisplayTree): HierarchyNode<string> {
  const root = hierarchy<string>(VIRTUAL_ROOT, noChildren);
  const order: HierarchyNode<string>[] = [];
  const stack: HierarchyNode<string>[] = [root];
  while (stack.length) {
    const node = stack.pop()!;
    order.push(node);
    const keys = node.data === VIRTUAL_ROOT ? display.roots : display.nodes.get(node.data)!.children;
    if (!keys.length) continue;
    const children = keys.map((key) => {
      const child = hierarchy<string>(key, noChildren) as { -readonly [K in keyof HierarchyNode<string>]: HierarchyNode<string>[K] };
      child.parent = node;
      child.depth = node.depth + 1;
      return child as HierarchyNode<string>;
    });
    (node as { children?: HierarchyNode<string>[] }).children = children;
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  for (let i = order.length - 1; i >= 0; i--) {
    const node = order[i]!;
    if (node.parent && node.parent.height < node.height + 1) (node.parent as { height: number }).height = node.height + 1;
  }
  return root;
}

export function layoutDisplayTree(display: DisplayTree, options: LayoutOptions = {}): GraphLayout {
  const sizeOf = options.sizeOf ?? fullCard;
  const root = displayHierarchy(display);
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
