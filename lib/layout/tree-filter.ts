/**
 * Which entries the graph shows under a filter: pi's `/tree` filter modes
 * plus filters by entry type and message role, as one visibility predicate,
 * and the forest that predicate leaves (hidden entries' children hang from
 * their nearest shown ancestor, as in pi's tree selector).
 *
 * The modes mirror TreeList.applyFilter and recalculateVisualStructure in
 * pi-coding-agent 0.84.1, dist/modes/interactive/components/tree-selector.js
 * (src/modes/interactive/components/tree-selector.ts in earendil-works/pi).
 * Not responsible for folding or positions (see display-tree.ts).
 */
import type { Session, SessionEntry, SessionTree } from "../session";

export type TreeFilterMode = "default" | "no-tools" | "user-only" | "labeled-only" | "all";

/** In pi's cycling order (Ctrl+O). */
export const TREE_FILTER_MODES: readonly TreeFilterMode[] = ["default", "no-tools", "user-only", "labeled-only", "all"];

export interface TreeFilter {
  /** one of pi's modes, or null: every entry, as the viewer draws by default */
  mode: TreeFilterMode | null;
  /** entry types not to show (`type` field; "(none)" for entries without one) */
  hiddenTypes: ReadonlySet<string>;
  /** message roles not to show (message entries only) */
  hiddenRoles: ReadonlySet<string>;
}

export const NO_FILTER: TreeFilter = { mode: null, hiddenTypes: new Set(), hiddenRoles: new Set() };

/** Bookkeeping entries pi's default view hides. */
const SETTINGS_TYPES = new Set(["label", "custom", "model_change", "thinking_level_change", "session_info"]);

export function isFiltering(filter: TreeFilter): boolean {
  return filter.mode !== null || filter.hiddenTypes.size > 0 || filter.hiddenRoles.size > 0;
}

export function typeOf(entry: SessionEntry): string {
  return typeof entry.type === "string" ? entry.type : "(none)";
}

/** The role of a message entry; null for other entries (and for a message entry without a message). */
export function roleOf(entry: SessionEntry): string | null {
  if (entry.type !== "message") return null;
  const message = entry.message as { role?: unknown } | null | undefined;
  return typeof message?.role === "string" ? message.role : null;
}

function hasTextContent(content: unknown): boolean {
  if (typeof content === "string") return content.trim().length > 0;
  if (!Array.isArray(content)) return false;
  return content.some((c) => typeof c === "object" && c !== null && c.type === "text" && typeof c.text === "string" && c.text.trim().length > 0);
}

export interface ModeContext {
  /** the session's current leaf: pi always keeps it, even as a tool-call-only assistant message */
  leafId: string | null;
  labelled: { has(id: string): boolean };
}

/** pi's per-entry test: an assistant message with only tool calls never shows (unless it is the leaf, an error or aborted), then the mode decides. */
export function passesMode(entry: SessionEntry, mode: TreeFilterMode, context: ModeContext): boolean {
  return modeAllows(typeOf(entry), roleOf(entry), entry.id as string, () => entry, mode, context);
}

/** passesMode from the entry's type and role; `read` gives the entry, asked for only for an assistant message. */
function modeAllows(type: string, role: string | null, id: string, read: () => SessionEntry, mode: TreeFilterMode, context: ModeContext): boolean {
  if (role === "assistant" && id !== context.leafId) {
    const message = read().message as { content?: unknown; stopReason?: unknown };
    const errorOrAborted = !!message.stopReason && message.stopReason !== "stop" && message.stopReason !== "toolUse";
    if (!hasTextContent(message.content) && !errorOrAborted) return false;
  }
  const settings = SETTINGS_TYPES.has(type);
  switch (mode) {
    case "user-only":
      return role === "user";
    case "no-tools":
      return !settings && role !== "toolResult";
    case "labeled-only":
      return context.labelled.has(id);
    case "all":
      return true;
    default:
      return !settings;
  }
}

/**
 * The filter as a predicate over entry ids; null when it shows everything. Types and roles come from the tree's
 * columns: an entry object is read only where pi's rule looks into an assistant message's content.
 */
export function visibilityOf(session: Session, filter: TreeFilter): ((id: string) => boolean) | null {
  if (!isFiltering(filter)) return null;
  const tree = session.tree;
  const context: ModeContext = { leafId: session.leafId, labelled: session.labels() };
  const cache = new Map<string, boolean>();
  return (id) => {
    let shown = cache.get(id);
    if (shown === undefined) {
      const slot = tree.slotOf(id);
      if (slot === -1) shown = false;
      else {
        const type = tree.typeAt(slot) ?? "(none)";
        const role = type === "message" ? (tree.roleAt(slot) ?? null) : null;
        shown =
          !filter.hiddenTypes.has(type) &&
          !(type === "message" && filter.hiddenRoles.has(role ?? "(none)")) &&
          (filter.mode === null || modeAllows(type, role, id, () => tree.entryAt(slot), filter.mode, context));
      }
      cache.set(id, shown);
    }
    return shown;
  };
}

export interface VisibleForest {
  roots: string[];
  /** shown entries directly below `id` once hidden ones are skipped, in tree order */
  children(id: string): readonly string[];
}

/**
 * The tree with hidden entries spliced out: each shown entry's parent is its
 * nearest shown ancestor, or none (a root). Walks with explicit stacks and a
 * visited set, so parent cycles cannot loop.
 */
export function visibleForest(tree: SessionTree, roots: readonly string[], visible: (id: string) => boolean): VisibleForest {
  const memo = new Map<string, string[]>();
  const below = (starts: readonly string[]): string[] => {
    const out: string[] = [];
    const seen = new Set<string>();
    const stack = [...starts].reverse();
    while (stack.length) {
      const id = stack.pop()!;
      if (seen.has(id)) continue;
      seen.add(id);
      if (visible(id)) {
        out.push(id);
        continue;
      }
      const kids = tree.children(id);
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
    }
    return out;
  };
  return {
    roots: below(roots),
    children(id) {
      let kids = memo.get(id);
      if (!kids) memo.set(id, (kids = below(tree.children(id))));
      return kids;
    },
  };
}

/** Every entry the filter shows, with its shown parent (null: a root), in pre-order. */
export function filteredParents(session: Session, filter: TreeFilter): Map<string, string | null> {
  const tree = session.tree;
  const out = new Map<string, string | null>();
  const visible = visibilityOf(session, filter) ?? (() => true);
  const forest = visibleForest(tree, session.shape().roots, visible);
  const stack: [string, string | null][] = forest.roots.map((id): [string, string | null] => [id, null]).reverse();
  while (stack.length) {
    const [id, parent] = stack.pop()!;
    if (out.has(id)) continue;
    out.set(id, parent);
    const kids = forest.children(id);
    for (let i = kids.length - 1; i >= 0; i--) stack.push([kids[i]!, id]);
  }
  return out;
}

/** Entry types and message roles present in the file, with how many entries each has (most first): the filter's choices. */
export function filterChoices(session: Session): { types: [string, number][]; roles: [string, number][] } {
  const types = new Map<string, number>();
  const roles = new Map<string, number>();
  const tree = session.tree;
  for (const slot of tree.nodeSlots()) {
    const type = tree.typeAt(slot) ?? "(none)";
    types.set(type, (types.get(type) ?? 0) + 1);
    if (type === "message") {
      const role = tree.roleAt(slot) ?? "(none)";
      roles.set(role, (roles.get(role) ?? 0) + 1);
    }
  }
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return { types: sorted(types), roles: sorted(roles) };
}
