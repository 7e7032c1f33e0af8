/**
 * Positions for a display tree: d3-hierarchy's tidy tree (Buchheim et al.)
 * with a fixed node size, roots at the top, several roots side by side under
 * an invisible virtual root. d3's hierarchy and tree walks are iterative, so
 * depth costs no stack.
 */
import { hierarchy, tree as tidyTree, type HierarchyNode } from "d3-hierarchy";
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

const fullCard = () => ({ width: NODE_WIDTH, height: NODE_HEIGHT });

const noChildren = () => null;

/**
 * A display tree's nodes in pre-order (each parent before its children, siblings in display order): each one's
 * key and its parent's index (-1 for a root). The layout needs no more, and a worker is sent the parents alone.
 */
export interface TreeOrder {
  keys: string[];
  parents: Int32Array;
}

export function treeOrder(display: DisplayTree): TreeOrder {
  const keys: string[] = [];
  const parents: number[] = [];
  const stack: [string, number][] = [];
  for (let i = display.roots.length - 1; i >= 0; i--) stack.push([display.roots[i]!, -1]);
  while (stack.length) {
    const [key, parent] = stack.pop()!;
    const at = keys.push(key) - 1;
    parents.push(parent);
    const children = display.nodes.get(key)!.children;
    for (let i = children.length - 1; i >= 0; i--) stack.push([children[i]!, at]);
  }
  return { keys, parents: Int32Array.from(parents) };
}

/**
 * d3's `hierarchy()` of the nodes in `parents` (pre-order: treeOrder), each node's datum its index, under a
 * virtual root (-1) that holds the roots side by side. d3 computes each node's height by walking up from it until
 * an ancestor is tall enough, which is quadratic on a long chain (a 100k-entry run, unfolded: minutes); here each
 * node is made by `hierarchy()` alone (so it has d3's methods), then linked, heights in one pass.
 */
function orderHierarchy(parents: Int32Array): HierarchyNode<number> {
  type Mutable = { -readonly [K in keyof HierarchyNode<number>]: HierarchyNode<number>[K] };
  const root = hierarchy<number>(-1, noChildren) as Mutable;
  const nodes: Mutable[] = [];
  for (let i = 0; i < parents.length; i++) {
    const node = hierarchy<number>(i, noChildren) as Mutable;
    const parent = parents[i]! === -1 ? root : nodes[parents[i]!]!;
    node.parent = parent as HierarchyNode<number>;
    node.depth = parent.depth + 1;
    (parent.children ??= []).push(node as HierarchyNode<number>);
    nodes.push(node);
  }
  for (let i = nodes.length - 1; i >= 0; i--) {
    const node = nodes[i]!;
    const parent = node.parent as Mutable;
    if (parent.height < node.height + 1) parent.height = node.height + 1;
  }
  return root as HierarchyNode<number>;
}

/** Each node's centre x in d3's tidy tree, by its index in `parents` (pre-order: treeOrder). Pure: a worker runs it. */
export function tidyXs(parents: Int32Array): Float64Array {
  // siblings sit one slot apart; neighbouring subtrees get a little more air
  const laidOut = tidyTree<number>()
    .nodeSize([SLOT_WIDTH, SLOT_HEIGHT])
    .separation((a, b) => (a.parent === b.parent ? 1 : 1.25))(orderHierarchy(parents));
  const xs = new Float64Array(parents.length);
  laidOut.each((node) => {
    if (node.data !== -1) xs[node.data] = node.x;
  });
  return xs;
}

/** The boxes and links of the nodes in `order`, each centred at its x (tidyXs) in its depth's row. */
export function layoutOf(order: TreeOrder, xs: Float64Array, options: LayoutOptions = {}): GraphLayout {
  const sizeOf = options.sizeOf ?? fullCard;
  const { keys, parents } = order;
  const depths = new Int32Array(keys.length);
  const boxes = new Map<string, LayoutBox>();
  const links: LayoutLink[] = [];
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const parent = parents[i]!;
    const depth = parent === -1 ? 0 : depths[parent]! + 1;
    depths[i] = depth;
    const { width, height } = sizeOf(key);
    const centreY = depth * SLOT_HEIGHT + NODE_HEIGHT / 2;
    boxes.set(key, { key, x: xs[i]! - width / 2, y: centreY - height / 2, width, height, depth });
    if (parent !== -1) links.push({ source: keys[parent]!, target: key });
  }
  return { boxes, links };
}

export function layoutDisplayTree(display: DisplayTree, options: LayoutOptions = {}): GraphLayout {
  const order = treeOrder(display);
  return layoutOf(order, tidyXs(order.parents), options);
}
