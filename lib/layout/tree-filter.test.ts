import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Session } from "../session";
import { FIXTURES_DIR } from "../session/testing/golden";
import { buildDisplayTree, idsOf } from "./display-tree";
import { buildSession } from "./testing/builders";
import { fixtureSession } from "./testing/fixtures";
import { filterChoices, filteredParents, NO_FILTER, TREE_FILTER_MODES, visibilityOf, type TreeFilter, type TreeFilterMode } from "./tree-filter";

// pi's own tree selector is the oracle: its TreeList.filteredNodes for each mode
const PI = path.resolve(__dirname, "../../node_modules/@earendil-works/pi-coding-agent/dist");
const piModule = (file: string) => import(pathToFileURL(path.join(PI, file)).href);

interface PiTreeList {
  filteredNodes: { node: { entry: { id: string } } }[];
}
type PiTreeSelector = new (
  tree: unknown,
  leafId: string | null,
  height: number,
  onSelect: () => void,
  onCancel: () => void,
  onLabel: () => void,
  selected: undefined,
  mode: TreeFilterMode,
) => { treeList: PiTreeList };
interface PiSessionManager {
  getTree(): unknown;
  getLeafId(): string | null;
}

let TreeSelector: PiTreeSelector;
let openSession: (file: string) => PiSessionManager;
let sessionDir: string;

beforeAll(async () => {
  const theme = await piModule("modes/interactive/theme/theme.js");
  theme.initTheme("dark");
  TreeSelector = (await piModule("modes/interactive/components/tree-selector.js")).TreeSelectorComponent;
  const { SessionManager } = await piModule("core/session-manager.js");
  sessionDir = mkdtempSync(path.join(os.tmpdir(), "tree-filter-"));
  openSession = (file) => SessionManager.open(file, sessionDir);
});

afterAll(() => {
  if (sessionDir) rmSync(sessionDir, { recursive: true, force: true });
});

const filterOf = (mode: TreeFilterMode | null, hiddenTypes: string[] = [], hiddenRoles: string[] = []): TreeFilter => ({
  mode,
  hiddenTypes: new Set(hiddenTypes),
  hiddenRoles: new Set(hiddenRoles),
});

/** The nearest shown ancestor by a plain walk up the parentId chain (null: none). */
function nearestShownAncestor(session: Session, id: string, shown: (id: string) => boolean): string | null {
  const seen = new Set<string>();
  let current = session.tree.parentOf(id);
  while (current !== null && !seen.has(current)) {
    if (shown(current)) return current;
    seen.add(current);
    current = session.tree.parentOf(current);
  }
  return null;
}

// coding-agent files pi's SessionManager opens (no parent cycles: pi's reader would never return)
const FIXTURES = [
  "ca-tiny",
  "ca-labels",
  "ca-branching-a",
  "ca-roles-a",
  "ca-compaction-a",
  "ca-compaction-multi-a",
  "ca-medium-a",
  "ca-large",
  "edge-unknown-type",
  "edge-missing-parent",
];

describe("pi's /tree filter modes", () => {
  for (const name of FIXTURES) {
    it(`show the entries pi's tree selector lists in ${name}`, () => {
      const session = fixtureSession(name);
      expect(session.reader).toBe("ca");
      const pi = openSession(path.join(FIXTURES_DIR, `${name}.jsonl`));
      for (const mode of TREE_FILTER_MODES) {
        const expected = new TreeSelector(
          pi.getTree(),
          pi.getLeafId(),
          40,
          () => {},
          () => {},
          () => {},
          undefined,
          mode,
        ).treeList.filteredNodes.map((n) => n.node.entry.id);
        const shown = [...filteredParents(session, filterOf(mode)).keys()];
        expect(new Set(shown), `${name} ${mode}`).toEqual(new Set(expected));
      }
    });
  }

  it("hang each shown entry from its nearest shown ancestor, in the display tree too", () => {
    for (const name of ["ca-branching-a", "ca-labels", "ca-compaction-multi-a"]) {
      const session = fixtureSession(name);
      for (const mode of TREE_FILTER_MODES) {
        const filter = filterOf(mode);
        const visible = visibilityOf(session, filter)!;
        const parents = filteredParents(session, filter);
        for (const [id, parent] of parents) expect(parent, `${name} ${mode} ${id}`).toBe(nearestShownAncestor(session, id, visible));

        const display = buildDisplayTree(session, { visible, threshold: Infinity });
        const drawn = [...display.nodes.values()].flatMap((node) => [...idsOf(node)]);
        expect(new Set(drawn)).toEqual(new Set(parents.keys()));
        expect(drawn).toHaveLength(parents.size);
        for (const node of display.nodes.values()) if (node.kind === "entry") expect(node.parent).toBe(parents.get(node.id));
      }
    }
  });

  it("fold chains that only the filter made linear", () => {
    // a user turn, then a tool-only assistant message and its result before each answer: no-tools leaves a chain
    const specs = [{ id: "u0", parentId: null }];
    let parent = "u0";
    for (let i = 1; i <= 12; i++) {
      specs.push({ id: `r${i}`, parentId: parent, role: "toolResult" } as never, { id: `a${i}`, parentId: `r${i}`, role: "assistant" } as never);
      parent = `a${i}`;
    }
    const session = buildSession(specs);
    const display = buildDisplayTree(session, { visible: visibilityOf(session, filterOf("no-tools"))!, keep: [] });
    const drawn = [...display.nodes.values()].flatMap((node) => [...idsOf(node)]);
    expect(drawn).toEqual(["u0", ...Array.from({ length: 12 }, (_, i) => `a${i + 1}`)]);
    expect([...display.nodes.values()].some((node) => node.kind === "segment")).toBe(true);
  });
});

describe("type and role filters", () => {
  const session = buildSession([
    { id: "u", parentId: null },
    { id: "m", parentId: "u", type: "model_change", extra: { provider: "p", modelId: "x" } },
    { id: "a", parentId: "m", role: "assistant" },
    { id: "t", parentId: "a", role: "toolResult" },
    { id: "b", parentId: "t", role: "assistant" },
    { id: "c", parentId: "a", type: "custom", extra: { customType: "k" } },
  ]);

  it("show everything with no filter", () => {
    expect(visibilityOf(session, NO_FILTER)).toBeNull();
    expect([...filteredParents(session, NO_FILTER).keys()]).toEqual(["u", "m", "a", "t", "b", "c"]);
  });

  it("hide entry types and message roles, hanging children from the nearest shown entry", () => {
    const parents = filteredParents(session, filterOf(null, ["model_change"], ["toolResult"]));
    expect([...parents]).toEqual([
      ["u", null],
      ["a", "u"],
      ["b", "a"],
      ["c", "a"],
    ]);
  });

  it("combine with a pi mode: both must let an entry through", () => {
    const parents = filteredParents(session, filterOf("all", [], ["assistant"]));
    expect([...parents]).toEqual([
      ["u", null],
      ["m", "u"],
      ["t", "m"],
      ["c", "m"],
    ]);
  });

  it("make shown descendants of hidden roots into roots", () => {
    const parents = filteredParents(session, filterOf(null, [], ["user"]));
    expect(parents.get("m")).toBeNull();
  });
});

describe("filterChoices", () => {
  it("counts the file's entry types and message roles, most first", () => {
    const session = fixtureSession("ca-labels");
    const { types, roles } = filterChoices(session);
    const count = (test: (e: Record<string, unknown>) => boolean) => [...session.tree.nodes()].filter((n) => test(n.entry)).length;
    for (const [type, n] of types) expect(n).toBe(count((e) => e.type === type));
    for (const [role, n] of roles) expect(n).toBe(count((e) => e.type === "message" && (e.message as { role: string }).role === role));
    expect(types.reduce((sum, [, n]) => sum + n, 0)).toBe(session.tree.size);
    expect(types.map(([, n]) => n)).toEqual([...types.map(([, n]) => n)].sort((a, b) => b - a));
  });
});
