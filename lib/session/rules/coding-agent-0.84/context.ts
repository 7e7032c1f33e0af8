import { CYCLE, ROOT, step, type PathState } from "../../tree/path-state";
import type { SessionTree } from "../session-tree";
import type { Usage } from "../../usage";
import { SessionQueryError, type ContextMessage, type JsonObject, type SessionContext, type TreeEntry } from "../../types";
import { caBranch } from "./branch";

/**
 * Memoised per-entry state of the coding agent's path walk, so that the
 * context at any entry costs the length of its context, not a walk of the file.
 */
class CaPathMemo {
  private states = new Map<string, PathState>();
  private shape = -1;

  constructor(private readonly tree: SessionTree) {}

  get(id: string): PathState {
    if (this.shape !== this.tree.structureRevision) {
      this.states = new Map();
      this.shape = this.tree.structureRevision;
    }
    const known = this.tree.pathState(id) ?? this.states.get(id);
    if (known) return known;
    const pending: TreeEntry[] = [];
    let current: TreeEntry | undefined = this.tree.get(id);
    let base = ROOT;
    while (current) {
      const state = this.tree.pathState(current.id) ?? this.states.get(current.id);
      if (state) {
        base = state;
        break;
      }
      pending.push(current);
      if (pending.length > this.tree.size) {
        for (const entry of pending) this.states.set(entry.id, CYCLE);
        return CYCLE;
      }
      const parentId = current.parentId;
      current = parentId ? this.tree.get(parentId as string) : undefined;
    }
    for (let i = pending.length - 1; i >= 0; i--) {
      base = step(base, pending[i]!);
      this.states.set(pending[i]!.id, base);
    }
    return base;
  }
}

const memos = new WeakMap<SessionTree, CaPathMemo>();
function memoOf(tree: SessionTree): CaPathMemo {
  let memo = memos.get(tree);
  if (!memo) memos.set(tree, (memo = new CaPathMemo(tree)));
  return memo;
}

/** pi's walk state at `id` (model, thinking level, nearest compaction, depth); throws where pi throws or never returns. */
export function stateAt(tree: SessionTree, id: string): PathState {
  if (!tree.get(id)) throw new SessionQueryError("not-found", `Entry ${id} not found`);
  const state = memoOf(tree).get(id);
  if (state.cycle) throw new SessionQueryError("cycle", `the path of ${id} runs into a parent cycle: pi never returns here`);
  return state;
}

/** Number of entries on the root→id path, and the provider usage summed along it. */
export function pathSummary(tree: SessionTree, id: string): { depth: number; usage: Usage } {
  const state = stateAt(tree, id);
  return { depth: state.depth, usage: state.usage };
}

/** The coding agent's `buildContextEntries` with `id` as the leaf (spec §8). */
export function caContextEntries(tree: SessionTree, id: string): TreeEntry[] {
  const state = stateAt(tree, id);
  if (state.compactionId === null) return caBranch(tree, id);
  const compaction = tree.get(state.compactionId)!;
  const after: TreeEntry[] = [];
  let current: TreeEntry | undefined = tree.get(id);
  while (current && current.id !== compaction.id) {
    after.push(current);
    current = tree.get(current.parentId as string);
  }
  const before: TreeEntry[] = [];
  const firstKept = compaction.firstKeptEntryId;
  let found = false;
  current = compaction.parentId ? tree.get(compaction.parentId as string) : undefined;
  while (current) {
    before.push(current);
    if (current.id === firstKept) {
      found = true;
      break;
    }
    const parentId = current.parentId;
    current = parentId ? tree.get(parentId as string) : undefined;
  }
  const kept = found ? before.reverse() : [];
  return [compaction, ...kept, ...after.reverse()];
}

/** The coding agent's `buildSessionContext` with `id` as the leaf; null: before any entry. */
export function caContext(tree: SessionTree, id: string | null): SessionContext {
  if (id === null) return { entryIds: [], messages: [], model: null, thinkingLevel: "off" };
  const state = stateAt(tree, id);
  if (state.error) throw new SessionQueryError("invalid", state.error);
  const entries = caContextEntries(tree, id);
  return {
    entryIds: entries.map((e) => e.id),
    messages: entries.flatMap((e) => caMessages(tree.full(e))),
    model: state.model,
    thinkingLevel: state.thinkingLevel,
  };
}

function timeMs(value: unknown): number {
  return new Date(value as string).getTime();
}

export function customMessage(entry: TreeEntry, content: unknown): JsonObject {
  return { role: "custom", customType: entry.customType, content, display: entry.display, details: entry.details, timestamp: timeMs(entry.timestamp) };
}

export function summaryMessages(entry: TreeEntry): ContextMessage[] {
  if (entry.type === "branch_summary" && entry.summary) {
    return [
      {
        entryId: entry.id,
        source: "synthesized",
        message: { role: "branchSummary", summary: entry.summary, fromId: entry.fromId, timestamp: timeMs(entry.timestamp) },
      },
    ];
  }
  if (entry.type === "compaction") {
    return [
      {
        entryId: entry.id,
        source: "synthesized",
        message: { role: "compactionSummary", summary: entry.summary, tokensBefore: entry.tokensBefore, timestamp: timeMs(entry.timestamp) },
      },
    ];
  }
  return [];
}

/** pi's `sessionEntryToContextMessages` (coding agent). */
export function caMessages(entry: TreeEntry): ContextMessage[] {
  if (entry.type === "message") {
    const message = entry.message as JsonObject;
    const role = message.role;
    if ((role === "user" || role === "assistant" || role === "toolResult") && message.content == null) {
      return [{ entryId: entry.id, source: "synthesized", message: { ...message, content: [] } }];
    }
    return [{ entryId: entry.id, source: "stored", message }];
  }
  if (entry.type === "custom_message") return [{ entryId: entry.id, source: "synthesized", message: customMessage(entry, entry.content ?? []) }];
  return summaryMessages(entry);
}
