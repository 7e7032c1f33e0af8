import type { TreeIndex } from "./tree";
import type { Diagnostic } from "../types";

export interface TreeShape {
  /** Roots as pi lists them, then one entry per parent cycle that no root reaches. */
  roots: string[];
  /** Entries standing in for a parent cycle (pi's `/tree` never shows them). */
  cycleRoots: Set<string>;
  /** Every cycle, each as the ids on it. */
  cycles: string[][];
  diagnostics: Diagnostic[];
}

/**
 * What a reader needs on top of the index to draw the whole file: orphans and
 * parent cycles are found here, once per revision, so that nothing is hidden
 * the way pi's own `/tree` hides an unreachable cycle.
 */
export function treeShape(tree: TreeIndex): TreeShape {
  const diagnostics: Diagnostic[] = [];
  for (const id of tree.orphans()) {
    const node = tree.node(id)!;
    diagnostics.push({
      line: node.line,
      kind: "unknown-parent",
      severity: "warning",
      message: `parent ${String(node.entry.parentId)} is not in the file: shown as a root, its path starts here (pi does the same)`,
      entryId: id,
    });
  }
  const roots = [...tree.roots];
  const cycleRoots = new Set<string>();
  const cycles: string[][] = [];
  if (tree.structureRevision === 0) {
    // every entry was hung from one indexed before it (or is a root): all are reached, no cycle is possible
    selfParents(tree, diagnostics);
    return { roots, cycleRoots, cycles, diagnostics };
  }
  const reached = new Set<string>();
  const visit = (start: string) => {
    const stack = [start];
    while (stack.length) {
      const id = stack.pop()!;
      if (reached.has(id)) continue;
      reached.add(id);
      for (const child of tree.children(id)) if (!reached.has(child)) stack.push(child);
    }
  };
  for (const root of tree.roots) visit(root);
  for (const id of tree.ids()) {
    if (reached.has(id)) continue;
    // walk up until an id repeats: that stretch is the cycle
    const seen = new Map<string, number>();
    const chain: string[] = [];
    let current: string | null = id;
    while (current !== null && !seen.has(current) && !reached.has(current)) {
      seen.set(current, chain.length);
      chain.push(current);
      current = tree.parentOf(current);
    }
    if (current === null || reached.has(current)) {
      visit(id);
      continue;
    }
    const cycle = chain.slice(seen.get(current)!);
    const first = cycle.reduce((a, b) => (tree.node(a)!.line <= tree.node(b)!.line ? a : b));
    cycles.push(cycle);
    cycleRoots.add(first);
    roots.push(first);
    visit(first);
    diagnostics.push({
      line: tree.node(first)!.line,
      kind: "cycle",
      severity: "error",
      message: `parent cycle through ${cycle.join(" → ")}: pi never finishes walking it; shown here cut at ${first}`,
      entryId: first,
    });
  }
  selfParents(tree, diagnostics);
  return { roots, cycleRoots, cycles, diagnostics };
}

function selfParents(tree: TreeIndex, diagnostics: Diagnostic[]): void {
  for (const slot of tree.nodeSlots()) {
    if (tree.namesItselfAt(slot)) {
      const id = tree.idAt(slot)!;
      diagnostics.push({
        line: tree.lineAt(slot),
        kind: "cycle",
        severity: "error",
        message: `entry ${id} is its own parent: pi lists it as a root but never finishes walking its path`,
        entryId: id,
      });
    }
  }
}
