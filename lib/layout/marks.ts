/**
 * Per-entry marks the graph draws on top of the layout: the active path, what
 * compaction cut from a node's context, and where the model changes. Answers
 * come from the core library; a question pi cannot answer (a parent cycle, a
 * broken message) yields an empty mark instead of an error.
 */
import type { IdSet, Session } from "../session";
import { modelAt } from "./describe";
import { drain, lastAnswer, lastAnswerSteps, STEP_EVERY, type Steps } from "./last-answer";

/** Ids on `session.branch(id)` (root → id, by the session's reader); empty if pi cannot walk it. */
export const pathIds = lastAnswer((session: Session, id: string | null): IdSet => {
  if (id === null || !session.tree.get(id)) return new Set();
  try {
    return session.pathIndex(id);
  } catch {
    return new Set([id]);
  }
});

/**
 * Entries above `id` that its context leaves out: on its full root → id path
 * but not in `session.contextEntries(id)` (cut by a compaction, or behind the
 * harness's truncated path).
 */
export const cutFromContext = lastAnswer((session: Session, id: string | null): IdSet => {
  if (id === null || !session.tree.get(id)) return new Set();
  try {
    return session.cutFromContext(id);
  } catch {
    return new Set();
  }
});

/**
 * Where the model changes along each path: model_change entries, and
 * assistant messages whose model differs from the one in force at their
 * parent (pi's branch-local model rule). Value: "provider/model".
 */
export function modelSwitches(session: Session): Map<string, string> {
  return switchesOf.get(session, null);
}

/** modelSwitches as a walk in slices (see lastAnswerSteps), for the loader. */
export function modelSwitchSteps(session: Session): Steps<Map<string, string>> {
  return switchesOf.steps(session, null);
}

const switchesOf = lastAnswerSteps<null, Map<string, string>>((session) =>
  session.tree.structureRevision === 0 ? switchesInFileOrder(session) : switchesByWalk(session),
);

/**
 * In a tree no late parent or repeated id has reshaped, every parent comes before its children in the file:
 * the model in force at each entry follows from its parent's in one pass in file order, with no walk stack.
 */
function* switchesInFileOrder(session: Session): Steps<Map<string, string>> {
  const tree = session.tree;
  const out = new Map<string, string>();
  /** the model in force after each entry, by its position among entry lines */
  const inForce: (string | null)[] = new Array<string | null>(tree.entryCount).fill(null);
  let visited = 0;
  for (const slot of tree.nodeSlots()) {
    if (++visited % STEP_EVERY === 0) yield;
    // (an entry that names itself finds itself, not yet in force: as a root, no model)
    const parent = tree.parentSlot(slot);
    const model = parent === -1 ? null : inForce[parent]!;
    let current = model;
    if (tree.modelAt(slot)) {
      const next = modelAt(tree, slot);
      if ((tree.typeAt(slot) === "model_change" || next !== model) && next) out.set(tree.idAt(slot)!, next);
      current = next;
    }
    inForce[slot] = current;
  }
  return out;
}

/** modelSwitches as a walk from the roots, whatever the tree's shape (what the pass in file order must answer like). */
export function modelSwitchesByWalk(session: Session): Map<string, string> {
  return drain(switchesByWalk(session));
}

/** The same as a walk from the roots (a reshaped tree: parents may come after their children, ids repeat). */
function* switchesByWalk(session: Session): Steps<Map<string, string>> {
  const tree = session.tree;
  const out = new Map<string, string>();
  const seen = new Set<string>();
  const stack: { id: string; model: string | null }[] = session.shape().roots.map((id) => ({ id, model: null }));
  let visited = 0;
  while (stack.length) {
    if (++visited % STEP_EVERY === 0) yield;
    const { id, model } = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const slot = tree.slotOf(id);
    if (slot === -1) continue;
    let current = model;
    if (tree.modelAt(slot)) {
      const next = modelAt(tree, slot);
      if ((tree.typeAt(slot) === "model_change" || next !== model) && next) out.set(id, next);
      current = next;
    }
    for (const child of tree.children(id)) stack.push({ id: child, model: current });
  }
  return out;
}
