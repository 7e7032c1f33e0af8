/**
 * Two entries side by side ("并线"): where their paths part, what each path
 * adds after that point, and how the contexts the model gets at each differ.
 * Pure; built on `caBranch` and `Session.context`, which are golden-tested.
 * Not responsible for presentation or for choosing the two entries.
 */
import { isObject } from "../json";
import { contextModelLabel } from "../model-label";
import { caBranch } from "../rules/coding-agent-0.84/branch";
import type { Session } from "../session";
import { SessionQueryError, type ContextMessage, type ModelRef, type RuleSetId, type TreeEntry } from "../types";
import { addUsage, entryUsage, ZERO_USAGE, type Usage } from "../usage";

/** One context message in a comparison, keyed so the same message on both sides has the same key. */
export interface ComparedMessage {
  key: string;
  entryId: string;
  message: ContextMessage;
}

export interface CompareSide {
  id: string;
  /** entries after the common ancestor, down to this entry (the whole path when there is no ancestor) */
  segment: string[];
  contextEntryIds: string[];
  model: ModelRef | null;
  thinkingLevel: unknown;
  /** provider usage summed over the root→entry path */
  pathUsage: Usage;
  /** provider usage summed over the divergent segment alone: what this line cost after the split */
  segmentUsage: Usage;
  /** usage of the last assistant message in the context: the context size the provider last reported (null: none) */
  lastUsage: Usage | null;
  messageCount: number;
}

export interface Comparison {
  /** the deepest entry on both root paths; null when they share no root */
  commonAncestorId: string | null;
  a: CompareSide;
  b: CompareSide;
  onlyInA: ComparedMessage[];
  onlyInB: ComparedMessage[];
  /** in A's order */
  shared: ComparedMessage[];
  modelDiffers: boolean;
  thinkingDiffers: boolean;
}

/**
 * The identity of a context message across two contexts: the id of the entry
 * it comes from, plus the retained-tail index for the harness's tail items.
 *
 * @remarks Matching is by entry, never by content. Every context message is
 * produced by exactly one entry (stored messages and custom messages 1:1; a
 * compaction's or branch summary's synthesized summary message by that
 * compaction / branch_summary entry; a harness compaction's retainedTail items
 * by the compaction plus their index), and the same entry yields the same
 * message in both contexts. Two different entries holding equal text (a prompt
 * typed again on the other branch, two compactions with the same summary) are
 * different history, so they count as different. An entry on both root paths
 * can still be "only in A" when a compaction on B's side cut it from B's context.
 */
export function messageKey(message: ContextMessage): string {
  return message.source === "retainedTail" ? `${message.entryId}#retainedTail[${message.tailIndex}]` : message.entryId;
}

/**
 * Compares the entries `a` and `b`. The common ancestor and the segments follow
 * the tree's parent links (the coding agent's `getBranch`), whatever the reader;
 * the contexts are the chosen reader's. Throws what `branch`/`context` throw:
 * SessionQueryError "not-found" for an id not in the file, "cycle", "invalid".
 */
export function compareNodes(session: Session, a: string, b: string, reader: RuleSetId = session.reader): Comparison {
  for (const id of [a, b]) if (!session.tree.get(id)) throw new SessionQueryError("not-found", `Entry ${id} not found`);
  const pathA = caBranch(session.tree, a);
  const pathB = caBranch(session.tree, b);
  let common = 0;
  while (common < pathA.length && common < pathB.length && pathA[common]!.id === pathB[common]!.id) common++;
  const commonAncestorId = common > 0 ? pathA[common - 1]!.id : null;

  const contextA = session.context(a, reader);
  const contextB = session.context(b, reader);
  const keyed = (messages: ContextMessage[]) => messages.map((message) => ({ key: messageKey(message), entryId: message.entryId, message }));
  const listA = keyed(contextA.messages);
  const listB = keyed(contextB.messages);
  const keysA = new Set(listA.map((m) => m.key));
  const keysB = new Set(listB.map((m) => m.key));

  const side = (id: string, path: TreeEntry[], context: typeof contextA): CompareSide => {
    const segment = path.slice(common);
    return {
      id,
      segment: segment.map((e) => e.id),
      contextEntryIds: context.entryIds,
      model: context.model,
      thinkingLevel: context.thinkingLevel,
      pathUsage: path.reduce((sum, entry) => addUsage(sum, entryUsage(entry)), ZERO_USAGE),
      segmentUsage: segment.reduce((sum, entry) => addUsage(sum, entryUsage(entry)), ZERO_USAGE),
      lastUsage: lastAssistantUsage(session, context.messages),
      messageCount: context.messages.length,
    };
  };

  const sideA = side(a, pathA, contextA);
  const sideB = side(b, pathB, contextB);
  return {
    commonAncestorId,
    a: sideA,
    b: sideB,
    onlyInA: listA.filter((m) => !keysB.has(m.key)),
    onlyInB: listB.filter((m) => !keysA.has(m.key)),
    shared: listA.filter((m) => keysB.has(m.key)),
    modelDiffers: contextModelLabel(sideA.model) !== contextModelLabel(sideB.model),
    thinkingDiffers: sideA.thinkingLevel !== sideB.thinkingLevel,
  };
}

function lastAssistantUsage(session: Session, messages: ContextMessage[]): Usage | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const item = messages[i]!;
    if (item.source !== "stored" || !isObject(item.message) || item.message.role !== "assistant") continue;
    const entry = session.tree.get(item.entryId);
    const usage = entry ? entryUsage(entry) : null;
    if (usage) return usage;
  }
  return null;
}
