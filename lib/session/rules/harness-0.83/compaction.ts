/**
 * The harness's prepareCompaction (pi-agent-core 0.83 dist/harness/compaction;
 * 0.84's v4 log differs where the options say): it cuts on the harness's own
 * path (which starts at the last compaction), counts only message entries,
 * and records the messages it keeps as the compaction's retained tail.
 */
import { branchSummaryMessageOf, customMessageOf } from "../coding-agent-0.84/branch-summary";
import { asQueryError, collectMessages, summarizedFiles, type CompactionPreview } from "../coding-agent-0.84/compaction";
import { estimateTokens, type TokenRules } from "../coding-agent-0.84/tokens";
import { SessionQueryError, type JsonObject, type TreeEntry } from "../../types";

export interface HarnessCompactionRules {
  tokens: TokenRules;
  /** the context at the path's last entry, measured (estimateContextTokens of buildSessionContext) */
  contextSize(): number;
  /** 0.83: custom_message entries are cut points and start turns; v4 has none */
  customMessages: boolean;
  /**
   * v4: the previous compaction's retainedTail stands, as entries, before the
   * rest (ids `<compaction>:retained:<n>`); 0.83: the path from the entry the
   * previous compaction kept first
   */
  retainedTailEntries: boolean;
  /** v4 reads the previous compaction's file lists whoever wrote it; 0.83 not an extension's */
  fromHookCounts: boolean;
  /** timestamps as the writer's createXMessage keeps them */
  time(timestamp: unknown): number;
}

const CUT_ROLES = new Set(["bashExecution", "custom", "branchSummary", "compactionSummary", "user", "assistant"]);

function messageOf(entry: TreeEntry, rules: HarnessCompactionRules): JsonObject | undefined {
  switch (entry.type) {
    case "message":
      return entry.message as JsonObject;
    case "custom_message":
      return rules.customMessages ? customMessageOf(entry, rules.time) : undefined;
    case "branch_summary":
      return branchSummaryMessageOf(entry, rules.time);
    default:
      return undefined; // a compaction is never summarized again
  }
}

function findCutPoint(entries: readonly TreeEntry[], end: number, start: number, keep: number, rules: HarnessCompactionRules) {
  const marker = (e: TreeEntry) => e.type === "branch_summary" || (rules.customMessages && e.type === "custom_message");
  const cutPoints: number[] = [];
  for (let i = start; i < end; i++) {
    const entry = entries[i]!;
    if ((entry.type === "message" && CUT_ROLES.has((entry.message as JsonObject).role as string)) || marker(entry)) cutPoints.push(i);
  }
  if (cutPoints.length === 0) return { firstKeptEntryIndex: start, turnStartIndex: -1, isSplitTurn: false };
  let accumulated = 0;
  let cutIndex = cutPoints[0]!;
  for (let i = end - 1; i >= start; i--) {
    const entry = entries[i]!;
    if (entry.type !== "message") continue;
    accumulated += estimateTokens(entry.message, rules.tokens);
    if (accumulated >= keep) {
      cutIndex = cutPoints.find((c) => c >= i) ?? cutIndex;
      break;
    }
  }
  while (cutIndex > start) {
    const previous = entries[cutIndex - 1]!;
    if (previous.type === "compaction" || previous.type === "message") break;
    cutIndex--;
  }
  const cutEntry = entries[cutIndex]!;
  const userMessage = cutEntry.type === "message" && (cutEntry.message as JsonObject).role === "user";
  let turnStartIndex = -1;
  if (!userMessage) {
    for (let i = cutIndex; i >= start; i--) {
      const entry = entries[i]!;
      const role = entry.type === "message" ? (entry.message as JsonObject).role : null;
      if (marker(entry) || role === "user" || role === "bashExecution") {
        turnStartIndex = i;
        break;
      }
    }
  }
  return { firstKeptEntryIndex: cutIndex, turnStartIndex, isSplitTurn: !userMessage && turnStartIndex !== -1 };
}

/** prepareCompaction over the harness's `path` (root or last compaction → leaf); null where it prepares nothing. */
export function prepareHarnessCompaction(path: readonly TreeEntry[], keep: number, rules: HarnessCompactionRules): CompactionPreview | null {
  try {
    if (path.length === 0 || path[path.length - 1]!.type === "compaction") return null;
    let previousIndex = -1;
    for (let i = path.length - 1; i >= 0; i--) {
      if (path[i]!.type === "compaction") {
        previousIndex = i;
        break;
      }
    }
    const previous = previousIndex >= 0 ? path[previousIndex]! : null;
    let entries: readonly TreeEntry[] = path;
    let start = 0;
    if (previous && rules.retainedTailEntries) {
      const tail = (previous.retainedTail as JsonObject[]).map((message, index): TreeEntry => ({
        type: "message",
        id: `${previous.id}:retained:${index}`,
        parentId: index === 0 ? previous.id : `${previous.id}:retained:${index - 1}`,
        timestamp: message.timestamp,
        message,
      }));
      entries = [...tail, ...path.slice(previousIndex + 1)];
    } else if (previous) {
      const kept = previous.firstKeptEntryId ? path.findIndex((e) => e.id === previous.firstKeptEntryId) : -1;
      start = kept >= 0 ? kept : previousIndex + 1;
    }
    const tokensBefore = rules.contextSize();
    const cut = findCutPoint(entries, entries.length, start, keep, rules);
    const firstKept = entries[cut.firstKeptEntryIndex];
    if (!rules.retainedTailEntries && !firstKept?.id) throw new SessionQueryError("invalid", "First kept entry has no UUID - session may need migration");
    const historyEnd = cut.isSplitTurn ? cut.turnStartIndex : cut.firstKeptEntryIndex;
    const collect = (from: number, to: number) =>
      collectMessages(from, to, (i) => {
        const message = messageOf(entries[i]!, rules);
        return { id: entries[i]!.id, messages: message ? [message] : [] };
      });
    const summarize = collect(start, historyEnd);
    const prefix = cut.isSplitTurn ? collect(cut.turnStartIndex, cut.firstKeptEntryIndex) : { messages: [], ids: [] };
    const retained = collect(cut.firstKeptEntryIndex, entries.length);
    return {
      firstKeptEntryId: firstKept?.id ?? "",
      messagesToSummarize: summarize.messages,
      summarizeIds: summarize.ids,
      turnPrefixMessages: prefix.messages,
      turnPrefixIds: prefix.ids,
      isSplitTurn: cut.isSplitTurn,
      tokensBefore,
      previousSummary: previous ? (previous.summary as string) : null,
      retainedTail: retained.messages,
      ...summarizedFiles(previous, rules.fromHookCounts, summarize, prefix),
    };
  } catch (error) {
    asQueryError(error);
  }
}
