/**
 * What pi's /tree navigation would summarize when the cursor leaves `oldLeafId`
 * for `targetId` (pi-coding-agent dist/core/compaction/branch-summarization.js:
 * collectEntriesForBranchSummary, then prepareBranchEntries within a token
 * budget). The harness and the v4 log have their own copies; the few ways they
 * differ are the options below.
 */
import type { SessionTree } from "../session-tree";
import { SessionQueryError, type JsonObject, type TreeEntry } from "../../types";
import { asQueryError, FileOps } from "./compaction";
import { estimateTokens, type TokenRules } from "./tokens";

/** pi's default `branchSummary.reserveTokens`: the summarizer's budget is the model's window (128,000 when unknown) less this */
export const BRANCH_SUMMARY_RESERVE = 16384;
/** the window pi assumes for a model that names none */
export const BRANCH_SUMMARY_FALLBACK_WINDOW = 128000;

export interface BranchSummaryPreview {
  /** the entries from the old leaf back to (not including) the common ancestor, oldest first */
  entryIds: string[];
  commonAncestorId: string | null;
  /** what pi hands the summarizer (prepareBranchEntries), oldest first, each with its entry */
  messages: { message: JsonObject; entryId: string }[];
  /** their estimateTokens total */
  tokens: number;
  /** entries that yield a message but did not fit the budget (the rest of those not summarized yield none) */
  overBudgetIds: string[];
  /** pi's file lists for the summary's details (computeFileLists) */
  readFiles: string[];
  modifiedFiles: string[];
}

export interface BranchSummaryRules {
  /** getBranch (root → id) as the writer's /tree reads it */
  branch(id: string): readonly TreeEntry[];
  /** an entry by id, complete (not the light copy) */
  entry(id: string): TreeEntry | undefined;
  /** the harness and v4 stop with an error at an entry that is missing; the coding agent stops quietly */
  missingThrows: boolean;
  /** pi-coding-agent ≥ 1.6 gives an entry a context_edit replaced as edited (projectContextEntry) */
  editedMessage?: (entry: TreeEntry, edit: TreeEntry) => JsonObject | undefined;
  /** v4 has no custom_message entries to turn into messages */
  customMessages: boolean;
  /** v4 reads a branch_summary's file lists even when an extension wrote it */
  fromHookCounts: boolean;
  tokens: TokenRules;
  /** timestamps as the writer's createXMessage keeps them (v4 also takes numbers as they are) */
  time(timestamp: unknown): number;
}

/** An entry of the tree by id, complete (the tree may hold a light copy). */
export const fullEntry =
  (tree: SessionTree) =>
  (id: string): TreeEntry | undefined => {
    const entry = tree.get(id);
    return entry && tree.full(entry);
  };

/** new Date(timestamp).getTime(), as pi's message factories read an entry's timestamp */
export const dateTime = (timestamp: unknown): number => new Date(timestamp as string).getTime();

function messageOf(entry: TreeEntry, rules: BranchSummaryRules, edit: TreeEntry | undefined): JsonObject | undefined {
  switch (entry.type) {
    case "message": {
      const message = entry.message as JsonObject;
      if (message.role === "toolResult") return undefined;
      return edit && rules.editedMessage ? rules.editedMessage(entry, edit) : message;
    }
    case "custom_message":
      if (!rules.customMessages) return undefined;
      if (edit && rules.editedMessage) return rules.editedMessage(entry, edit);
      return customMessageOf(entry, rules.time);
    case "branch_summary":
      return branchSummaryMessageOf(entry, rules.time);
    case "compaction":
      return { role: "compactionSummary", summary: entry.summary, tokensBefore: entry.tokensBefore, timestamp: rules.time(entry.timestamp) };
    default:
      return undefined;
  }
}

/** createCustomMessage of a custom_message entry, its timestamp read as the writer keeps it */
export function customMessageOf(entry: TreeEntry, time: (timestamp: unknown) => number): JsonObject {
  return {
    role: "custom",
    customType: entry.customType,
    content: entry.content,
    display: entry.display,
    details: entry.details,
    timestamp: time(entry.timestamp),
  };
}

/** createBranchSummaryMessage of a branch_summary entry */
export function branchSummaryMessageOf(entry: TreeEntry, time: (timestamp: unknown) => number): JsonObject {
  return { role: "branchSummary", summary: entry.summary, fromId: entry.fromId, timestamp: time(entry.timestamp) };
}

/** collectEntriesForBranchSummary and prepareBranchEntries; `budget` 0: no limit. Throws SessionQueryError where pi throws. */
export function branchSummaryPreview(rules: BranchSummaryRules, oldLeafId: string | null, targetId: string, budget: number): BranchSummaryPreview {
  try {
    return prepared(rules, oldLeafId, targetId, budget);
  } catch (error) {
    // pi reads entries unchecked (a message entry without a message): its TypeError is the query's error here
    asQueryError(error);
  }
}

function prepared(rules: BranchSummaryRules, oldLeafId: string | null, targetId: string, budget: number): BranchSummaryPreview {
  const collected: TreeEntry[] = [];
  let commonAncestorId: string | null = null;
  if (oldLeafId) {
    const oldPath = new Set(rules.branch(oldLeafId).map((e) => e.id));
    const targetPath = rules.branch(targetId);
    for (let i = targetPath.length - 1; i >= 0; i--) {
      if (oldPath.has(targetPath[i]!.id)) {
        commonAncestorId = targetPath[i]!.id;
        break;
      }
    }
    let current: unknown = oldLeafId;
    const seen = new Set<unknown>();
    while (current && current !== commonAncestorId) {
      // a parent cycle that misses the ancestor: pi walks it for ever
      if (seen.has(current)) throw new SessionQueryError("cycle", `the walk up from ${oldLeafId} never reaches the common ancestor`);
      seen.add(current);
      const entry = typeof current === "string" ? rules.entry(current) : undefined;
      if (!entry) {
        if (rules.missingThrows) throw new SessionQueryError("invalid", `Entry ${String(current)} not found`);
        break;
      }
      collected.push(entry);
      current = entry.parentId;
    }
    collected.reverse();
  }

  const files = new FileOps();
  for (const entry of collected) {
    if (entry.type !== "branch_summary" || !entry.details || (entry.fromHook && !rules.fromHookCounts)) continue;
    files.fromDetails(entry.details);
  }
  const edits = new Map<unknown, TreeEntry>();
  if (rules.editedMessage) for (const entry of collected) if (entry.type === "context_edit") edits.set(entry.targetId, entry);
  const messages: BranchSummaryPreview["messages"] = [];
  let tokens = 0;
  let stoppedAt = -1;
  for (let i = collected.length - 1; i >= 0; i--) {
    const entry = collected[i]!;
    const message = messageOf(entry, rules, edits.get(entry.id));
    if (!message) continue;
    files.fromMessage(message);
    const size = estimateTokens(message, rules.tokens);
    if (budget > 0 && tokens + size > budget) {
      // a summary is worth keeping even over the budget, while the budget is not nearly spent
      if ((entry.type === "compaction" || entry.type === "branch_summary") && tokens < budget * 0.9) {
        messages.unshift({ message, entryId: entry.id });
        tokens += size;
      }
      stoppedAt = i;
      break;
    }
    messages.unshift({ message, entryId: entry.id });
    tokens += size;
  }
  const kept = new Set(messages.map((m) => m.entryId));
  const overBudgetIds: string[] = [];
  for (let i = 0; i <= stoppedAt; i++) {
    const entry = collected[i]!;
    if (!kept.has(entry.id) && messageOf(entry, rules, edits.get(entry.id)) !== undefined) overBudgetIds.push(entry.id);
  }
  return {
    entryIds: collected.map((e) => e.id),
    commonAncestorId,
    messages,
    tokens,
    overBudgetIds,
    ...files.lists(),
  };
}
