/**
 * The graph's key map, in one place: what each key does and how the help
 * popover lists it. Follows pi's `/tree` where a key has a meaning there
 * (Ctrl/Alt+←/→ fold or jump between branch segments, Enter opens the entry);
 * in a top-down graph ↑/↓ go to the parent / the child toward the leaf and
 * ←/→ to the neighbouring sibling.
 */

export type GraphAction =
  | "parent"
  | "child"
  | "previousSibling"
  | "nextSibling"
  | "foldOrUp"
  | "unfoldOrDown"
  | "previousBranch"
  | "nextBranch"
  | "toggleFold"
  | "root"
  | "leaf"
  | "newestLeaf"
  | "open"
  | "fitView"
  | "toggleOverlay"
  | "help"
  | "close";

export interface KeyBinding {
  action: GraphAction;
  /** as shown in the help; also what `actionForKey` matches ("Ctrl+ArrowLeft", "?", " ") */
  keys: string[];
  help: string;
}

export const GRAPH_KEYS: readonly KeyBinding[] = [
  { action: "parent", keys: ["ArrowUp"], help: "Parent entry" },
  { action: "child", keys: ["ArrowDown"], help: "Child (toward the leaf first, as pi lists it)" },
  { action: "previousSibling", keys: ["ArrowLeft"], help: "Previous sibling" },
  { action: "nextSibling", keys: ["ArrowRight"], help: "Next sibling" },
  { action: "foldOrUp", keys: ["Ctrl+ArrowLeft", "Alt+ArrowLeft"], help: "Fold the branch here, or jump to the previous branch start (pi)" },
  { action: "unfoldOrDown", keys: ["Ctrl+ArrowRight", "Alt+ArrowRight"], help: "Unfold, or jump to the next branch start or the branch end (pi)" },
  { action: "previousBranch", keys: ["["], help: "Previous branch start" },
  { action: "nextBranch", keys: ["]"], help: "Next branch start, or the end of the branch" },
  { action: "toggleFold", keys: [" "], help: "Expand / fold a segment; collapse / open a subtree" },
  { action: "root", keys: ["Home"], help: "Root of this tree" },
  { action: "leaf", keys: ["End"], help: "The leaf" },
  { action: "newestLeaf", keys: ["n"], help: "Newest leaf below (follow the newest child)" },
  { action: "open", keys: ["Enter"], help: "Open the entry in the inspector (expands a segment, at its first search hit)" },
  { action: "fitView", keys: ["f"], help: "Fit the whole graph" },
  { action: "toggleOverlay", keys: ["c"], help: "Fade what compaction cut from the context" },
  { action: "help", keys: ["?"], help: "Show / hide these keys" },
  { action: "close", keys: ["Escape"], help: "Close this help" },
];

export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  altKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
}

/** "Ctrl+ArrowLeft" for a key event; Shift only counts for keys that are not printable characters. */
export function keyName(event: KeyLike): string {
  const parts: string[] = [];
  if (event.ctrlKey || event.metaKey) parts.push("Ctrl");
  if (event.altKey) parts.push("Alt");
  if (event.shiftKey && event.key.length > 1) parts.push("Shift");
  parts.push(event.key);
  return parts.join("+");
}

const BY_KEY = new Map<string, GraphAction>();
for (const binding of GRAPH_KEYS) for (const key of binding.keys) BY_KEY.set(key, binding.action);

export function actionForKey(event: KeyLike): GraphAction | null {
  return BY_KEY.get(keyName(event)) ?? null;
}

const GLYPHS: Record<string, string> = { ArrowUp: "↑", ArrowDown: "↓", ArrowLeft: "←", ArrowRight: "→", " ": "Space", Escape: "Esc" };

/** How a key is printed in the help: "Ctrl+←". */
export function keyLabel(key: string): string {
  return key
    .split("+")
    .map((part) => GLYPHS[part] ?? part)
    .join("+");
}
