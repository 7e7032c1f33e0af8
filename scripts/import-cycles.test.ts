// Imports point one way: no module of the app reaches itself again through what it imports, type-only imports,
// re-exports and import() of a named module included. Read with TypeScript's own scanner (ts.preProcessFile).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "..");
const FOLDERS = ["app", "components", "lib", "scripts", "bench", "e2e"];
const SOURCE = /\.(ts|tsx|mts|mjs|cjs|js)$/;
const EXTENSIONS = ["", ".ts", ".tsx", ".mts", ".mjs", ".cjs", ".js", "/index.ts", "/index.tsx"];

const modules = FOLDERS.flatMap((folder) =>
  readdirSync(path.join(ROOT, folder), { recursive: true, encoding: "utf8" })
    .map((file) => `${folder}/${file.split(path.sep).join("/")}`)
    .filter((file) => SOURCE.test(file) && !file.endsWith(".d.ts")),
);
const known = new Set(modules);

/** The module `specifier` names from `from`, when it is one of ours (`@/…` or relative); null for a package. */
function resolve(from: string, specifier: string): string | null {
  const base = specifier.startsWith("@/") ? specifier.slice(2) : specifier.startsWith(".") ? path.posix.join(path.posix.dirname(from), specifier) : null;
  if (base === null) return null;
  for (const extension of EXTENSIONS) {
    const file = base + extension;
    if (known.has(file)) return file;
  }
  // a TypeScript module imported by its output name ("./x.js" for x.ts)
  const swapped = base.replace(/\.js$/, ".ts");
  if (known.has(swapped)) return swapped;
  return null; // JSON, CSS, or a module that is not there (tsc says so)
}

/** Each module and what it imports of ours. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of modules) {
    const { importedFiles } = ts.preProcessFile(readFileSync(path.join(ROOT, file), "utf8"), true, true);
    const targets = importedFiles.map((imported) => resolve(file, imported.fileName)).filter((target): target is string => target !== null);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The strongly connected components of more than one module, or of one that imports itself (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || graph.get(node)!.includes(node)) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe("imports", () => {
  it("are read: every module of ours a module names is found", () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(300);
    expect(graph.get("lib/session/session.ts")).toContain("lib/session/read/parse.ts");
    expect(graph.get("components/viewer/url-view.ts")).toContain("components/viewer/viewer-state.ts"); // import type
  });

  it("form no cycle", () => {
    expect(cycles(importGraph())).toEqual([]);
  });

  it("a cycle is found when there is one", () => {
    const graph = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a"]],
      ["d", ["d"]],
      ["e", ["a"]],
    ]);
    expect(cycles(graph)).toEqual([["a", "b", "c"], ["d"]]);
  });
});
