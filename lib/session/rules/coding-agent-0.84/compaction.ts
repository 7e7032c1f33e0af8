/**
 * What pi's compaction would do if it ran at a leaf (pi-coding-agent
 * dist/core/compaction/compaction.js: prepareCompaction and findCutPoint):
 * where it cuts (the first kept entry), what it summarizes, the prefix of a
 * turn it splits, the size it records, the summary it extends and the file
 * lists it keeps. Nothing is summarized here: this is the preparation, exact.
 */
import { SessionQueryError, type ContextMessage, type JsonObject, type TreeEntry } from "../../types";
import type { TokenEstimate } from "./tokens";

export interface CompactionPreview {
  /** where the kept part of the context starts */
  firstKeptEntryId: string;
  /** the messages the summary would stand for, oldest first, and the entries they come from */
  messagesToSummarize: JsonObject[];
  summarizeIds: string[];
  /** when the cut splits a turn: its start up to the kept part, summarized apart */
  turnPrefixMessages: JsonObject[];
  turnPrefixIds: string[];
  isSplitTurn: boolean;
  /** the context's size pi records on the compaction */
  tokensBefore: number;
  /** the summary of the compaction before, which the new one extends; null: none */
  previousSummary: string | null;
  readFiles: string[];
  modifiedFiles: string[];
  /** the harness records the messages it keeps on the compaction itself */
  retainedTail?: JsonObject[];
}

/** How one pi version prepares a compaction. */
export interface CompactionRules {
  /** sessionEntryToContextMessages */
  messages(entry: TreeEntry): ContextMessage[];
  /** estimateTokens */
  tokens(message: JsonObject): number;
  /** buildSessionContext at the path's last entry, measured (estimateContextTokens) */
  contextSize(path: readonly TreeEntry[]): TokenEstimate;
  /** pi ≥ 0.86: when the newest messages alone pass the budget, keep from the last cut point rather than the first */
  keepLastCutPoint: boolean;
  /** pi ≥ 0.86: a system message is prompt state, never summarized */
  skipSystem: boolean;
}

const CUT_POINT_ROLES = new Set(["user", "assistant", "bashExecution", "custom", "branchSummary", "compactionSummary"]);
const TURN_START_ROLES = new Set(["user", "bashExecution", "custom", "branchSummary", "compactionSummary"]);

/** An error pi's own code would throw (it reads fields unchecked), as the query error it is here. */
export function asQueryError(error: unknown): never {
  if (error instanceof SessionQueryError) throw error;
  throw new SessionQueryError("invalid", error instanceof Error ? `${error.name}: ${error.message}` : String(error));
}

/** extractFileOpsFromMessage and the previous compaction's details (computeFileLists at the end). */
export class FileOps {
  private readonly read = new Set<unknown>();
  private readonly written = new Set<unknown>();
  private readonly edited = new Set<unknown>();

  fromDetails(details: unknown): void {
    const d = details as { readFiles?: unknown; modifiedFiles?: unknown };
    if (Array.isArray(d.readFiles)) for (const f of d.readFiles) this.read.add(f);
    if (Array.isArray(d.modifiedFiles)) for (const f of d.modifiedFiles) this.edited.add(f);
  }

  fromMessage(message: JsonObject): void {
    if (message.role !== "assistant" || !("content" in message) || !Array.isArray(message.content)) return;
    for (const block of message.content as unknown[]) {
      if (typeof block !== "object" || block === null) continue;
      const call = block as { type?: unknown; arguments?: unknown; name?: unknown };
      if (call.type !== "toolCall" || !("arguments" in call) || !("name" in call) || !call.arguments) continue;
      const path = (call.arguments as { path?: unknown }).path;
      if (typeof path !== "string" || !path) continue;
      if (call.name === "read") this.read.add(path);
      else if (call.name === "write") this.written.add(path);
      else if (call.name === "edit") this.edited.add(path);
    }
  }

  lists(): { readFiles: string[]; modifiedFiles: string[] } {
    const modified = new Set([...this.edited, ...this.written]);
    return { readFiles: ([...this.read].filter((f) => !modified.has(f)) as string[]).sort(), modifiedFiles: ([...modified] as string[]).sort() };
  }
}

/** What items [from, to) yield, oldest first, and the entries that yield it (an entry that yields nothing is left out). */
export function collectMessages(
  from: number,
  to: number,
  at: (i: number) => { id: string; messages: readonly JsonObject[] },
): { messages: JsonObject[]; ids: string[] } {
  const messages: JsonObject[] = [];
  const ids: string[] = [];
  for (let i = from; i < to; i++) {
    const item = at(i);
    if (item.messages.length === 0) continue;
    messages.push(...item.messages);
    ids.push(item.id);
  }
  return { messages, ids };
}

/** computeFileLists at the end of prepareCompaction: the previous compaction's lists (a hook's only where `hookCounts`), then the summarized tool calls. */
export function summarizedFiles(
  previous: TreeEntry | null,
  hookCounts: boolean,
  ...parts: { messages: readonly JsonObject[] }[]
): { readFiles: string[]; modifiedFiles: string[] } {
  const files = new FileOps();
  if (previous && (hookCounts || !previous.fromHook) && previous.details) files.fromDetails(previous.details);
  for (const part of parts) for (const message of part.messages) files.fromMessage(message);
  return files.lists();
}

interface CutPoint {
  firstKeptEntryIndex: number;
  turnStartIndex: number;
  isSplitTurn: boolean;
}

function findCutPoint(path: readonly TreeEntry[], start: number, end: number, keepRecentTokens: number, rules: CompactionRules): CutPoint {
  const visible = (entry: TreeEntry) => (entry.type === "compaction" ? [] : rules.messages(entry).map((m) => m.message));
  const cutPoints: number[] = [];
  for (let i = start; i < end; i++) if (visible(path[i]!).some((m) => CUT_POINT_ROLES.has(m.role as string))) cutPoints.push(i);
  if (cutPoints.length === 0) return { firstKeptEntryIndex: start, turnStartIndex: -1, isSplitTurn: false };
  let accumulated = 0;
  let cutIndex = cutPoints[0]!;
  for (let i = end - 1; i >= start; i--) {
    const size = rules.messages(path[i]!).reduce((sum, m) => sum + rules.tokens(m.message), 0);
    if (size === 0) continue;
    accumulated += size;
    if (accumulated >= keepRecentTokens) {
      const after = cutPoints.find((c) => c >= i);
      cutIndex = after ?? (rules.keepLastCutPoint ? cutPoints[cutPoints.length - 1]! : cutIndex);
      break;
    }
  }
  // metadata entries just before the cut go with the kept part
  while (cutIndex > start) {
    const previous = path[cutIndex - 1]!;
    if (previous.type === "compaction" || rules.messages(previous).length > 0) break;
    cutIndex--;
  }
  const startsTurn = (i: number) => visible(path[i]!).some((m) => TURN_START_ROLES.has(m.role as string));
  let turnStartIndex = -1;
  if (!startsTurn(cutIndex)) {
    for (let i = cutIndex; i >= start; i--) {
      if (startsTurn(i)) {
        turnStartIndex = i;
        break;
      }
    }
  }
  return { firstKeptEntryIndex: cutIndex, turnStartIndex, isSplitTurn: !startsTurn(cutIndex) && turnStartIndex !== -1 };
}

/** prepareCompaction over `path` (root → leaf); null where pi prepares nothing. Throws where pi throws. */
export function prepareCompaction(path: readonly TreeEntry[], keepRecentTokens: number, rules: CompactionRules): CompactionPreview | null {
  try {
    if (path.length > 0 && path[path.length - 1]!.type === "compaction") return null;
    let previousIndex = -1;
    for (let i = path.length - 1; i >= 0; i--) {
      if (path[i]!.type === "compaction") {
        previousIndex = i;
        break;
      }
    }
    let previousSummary: string | null = null;
    let start = 0;
    if (previousIndex >= 0) {
      const previous = path[previousIndex]!;
      previousSummary = previous.summary as string;
      const kept = path.findIndex((e) => e.id === previous.firstKeptEntryId);
      start = kept >= 0 ? kept : previousIndex + 1;
    }
    const tokensBefore = rules.contextSize(path).tokens;
    const cut = findCutPoint(path, start, path.length, keepRecentTokens, rules);
    const firstKept = path[cut.firstKeptEntryIndex];
    if (!firstKept?.id) return null;
    const historyEnd = cut.isSplitTurn ? cut.turnStartIndex : cut.firstKeptEntryIndex;
    const messageOf = (entry: TreeEntry) => {
      const message = entry.type === "compaction" ? undefined : rules.messages(entry)[0]?.message;
      return rules.skipSystem && message?.role === "system" ? undefined : message;
    };
    const collect = (from: number, to: number) =>
      collectMessages(from, to, (i) => {
        const message = messageOf(path[i]!);
        return { id: path[i]!.id, messages: message ? [message] : [] };
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
      ...summarizedFiles(previousIndex >= 0 ? path[previousIndex]! : null, false, summarize, prefix),
    };
  } catch (error) {
    asQueryError(error);
  }
}
