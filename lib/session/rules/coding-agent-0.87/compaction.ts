/**
 * pi-coding-agent ≥ 0.87's prepareCompaction (checked 0.87.1 and 1.6.0): it
 * works on the projected context (context entries with the messages they
 * yield after context_edit), keeps what the newest compaction already kept,
 * measures with estimateProjectedContextTokens, leaves system messages out of
 * the summary, and does not cut in front of a failed reply whose omission is
 * all that follows the last visible input.
 */
import { asQueryError, collectMessages, summarizedFiles, type CompactionPreview } from "../coding-agent-0.84/compaction";
import { estimateTokens } from "../coding-agent-0.84/tokens";
import type { ContextMessage, JsonObject, TreeEntry } from "../../types";
import { CODING_AGENT_087_TOKENS, estimateProjectedContextTokens } from "./tokens";

interface Projected {
  source: TreeEntry;
  messages: JsonObject[];
}

const CUT_POINT_ROLES = new Set(["user", "assistant", "bashExecution", "custom", "branchSummary", "compactionSummary"]);
const TURN_START_ROLES = new Set(["user", "bashExecution", "custom", "branchSummary", "compactionSummary"]);

const startsTurn = (entry: Projected) => entry.source.type !== "compaction" && entry.messages.some((m) => TURN_START_ROLES.has(m.role as string));

function findProjectedCutPoint(
  entries: readonly Projected[],
  start: number,
  end: number,
  keepRecentTokens: number,
  ownMessages: (entry: TreeEntry) => ContextMessage[],
): { firstKeptEntryIndex: number; turnStartIndex: number; isSplitTurn: boolean } {
  const cutPoints: number[] = [];
  for (let i = start; i < end; i++) {
    const entry = entries[i]!;
    if (entry.source.type !== "compaction" && entry.messages.some((m) => CUT_POINT_ROLES.has(m.role as string))) cutPoints.push(i);
  }
  if (cutPoints.length === 0) return { firstKeptEntryIndex: start, turnStartIndex: -1, isSplitTurn: false };
  let accumulated = 0;
  let exceeded = false;
  let cutIndex = cutPoints[0]!;
  for (let i = end - 1; i >= start; i--) {
    const size = entries[i]!.messages.reduce((sum, m) => sum + estimateTokens(m, CODING_AGENT_087_TOKENS), 0);
    if (size === 0) continue;
    accumulated += size;
    if (accumulated >= keepRecentTokens) {
      exceeded = true;
      cutIndex = cutPoints.find((c) => c >= i) ?? cutPoints[cutPoints.length - 1]!;
      break;
    }
  }
  // a failed reply whose omission (by a context_edit) is all that follows the last input: the cut moves past it
  const suffix = entries.slice(cutIndex + 1, end);
  const intrinsicallyVisible = (e: Projected) => e.source.type !== "context_edit" && ownMessages(e.source).length > 0;
  const omitted = (e: Projected) => intrinsicallyVisible(e) && e.messages.length === 0;
  const omittedIds = new Set(suffix.filter(omitted).map((e) => e.source.id));
  const externalReplacement = suffix.some(
    (e) => e.source.type === "context_edit" && e.source.replacement !== null && !omittedIds.has(e.source.targetId as string),
  );
  const recovery =
    exceeded &&
    !externalReplacement &&
    suffix.some((e) => e.source.type === "message" && (e.source.message as JsonObject).role === "assistant" && omitted(e)) &&
    suffix.every((e) => e.source.type !== "compaction" && (!intrinsicallyVisible(e) || omitted(e)));
  if (recovery) cutIndex++;
  while (cutIndex > start) {
    const previous = entries[cutIndex - 1]!;
    if (previous.source.type === "compaction" || previous.messages.length > 0) break;
    cutIndex--;
  }
  // pi reads the entry at the cut unchecked: past the end it throws, and so does this
  const atCut = entries[cutIndex] as Projected;
  const turnStarts = startsTurn(atCut);
  let turnStartIndex = -1;
  if (!turnStarts) {
    for (let i = cutIndex; i >= start; i--) {
      if (startsTurn(entries[i]!)) {
        turnStartIndex = i;
        break;
      }
    }
  }
  return { firstKeptEntryIndex: cutIndex, turnStartIndex, isSplitTurn: !turnStarts && turnStartIndex !== -1 };
}

/**
 * prepareCompaction at `leaf` (`path`: root → leaf), given the context at the leaf
 * (its entries and their messages); null where pi prepares nothing.
 */
export function prepareProjectedCompaction(
  leaf: TreeEntry,
  path: () => readonly TreeEntry[],
  contextEntries: readonly TreeEntry[],
  contextMessages: readonly ContextMessage[],
  keepRecentTokens: number,
  ownMessages: (entry: TreeEntry) => ContextMessage[],
): CompactionPreview | null {
  try {
    if (leaf.type === "compaction") return null;
    const byEntry = new Map<string, JsonObject[]>();
    for (const m of contextMessages) {
      const list = byEntry.get(m.entryId);
      if (list) list.push(m.message);
      else byEntry.set(m.entryId, [m.message]);
    }
    // each context entry once with what it yields (an entry listed twice yields its messages at its first place)
    const seen = new Set<string>();
    const entries: Projected[] = contextEntries.map((source) => {
      const first = !seen.has(source.id);
      seen.add(source.id);
      return { source, messages: first ? (byEntry.get(source.id) ?? []) : [] };
    });
    const previousIndex = entries.findIndex((e) => e.source.type === "compaction" && e.messages.length > 0);
    let previousSummary: string | null = null;
    let start = 0;
    if (previousIndex >= 0) {
      previousSummary = entries[previousIndex]!.source.summary as string;
      start = previousIndex + 1;
    }
    const tokensBefore = estimateProjectedContextTokens(contextMessages, path).tokens;
    const cut = findProjectedCutPoint(entries, start, entries.length, keepRecentTokens, ownMessages);
    const firstKept = entries[cut.firstKeptEntryIndex]?.source;
    if (!firstKept?.id) return null;
    const historyEnd = cut.isSplitTurn ? cut.turnStartIndex : cut.firstKeptEntryIndex;
    const collect = (from: number, to: number) =>
      collectMessages(from, to, (i) => {
        const { source, messages } = entries[i]!;
        return { id: source.id, messages: source.type === "compaction" ? [] : messages.filter((m) => m.role !== "system") };
      });
    const summarize = collect(start, historyEnd);
    const prefix = cut.isSplitTurn ? collect(cut.turnStartIndex, cut.firstKeptEntryIndex) : { messages: [], ids: [] };
    if (summarize.messages.length === 0 && prefix.messages.length === 0) return null;
    return {
      firstKeptEntryId: firstKept.id,
      messagesToSummarize: summarize.messages,
      summarizeIds: summarize.ids,
      turnPrefixMessages: prefix.messages,
      turnPrefixIds: prefix.ids,
      isSplitTurn: cut.isSplitTurn,
      tokensBefore,
      previousSummary,
      ...summarizedFiles(previousIndex >= 0 ? entries[previousIndex]!.source : null, false, summarize, prefix),
    };
  } catch (error) {
    asQueryError(error);
  }
}
