import { SessionQueryError } from "../../types";
import type { LabelState } from "../coding-agent-0.84/tree-state";
import type { RuleSet } from "../rule-set";
import { TreePath } from "../../tree/tree-path";
import { v4Branch, v4Context, v4ContextEntries, v4Messages } from "./context";
import { forkV4Log } from "./fork";
import { harness083, HARNESS_TOKENS } from "../harness-0.83";
import { branchSummaryPreview, dateTime, fullEntry } from "../coding-agent-0.84/branch-summary";
import { prepareHarnessCompaction } from "../harness-0.83/compaction";
import { estimateContextTokens } from "../coding-agent-0.84/tokens";

/** pi-agent-core 0.84's v4 mutation log (dist/harness/session/jsonl). */
export const v4Log084: RuleSet = {
  id: "v4",
  label: "pi-agent-core ≥ 0.84 v4 log",
  oracle: "@earendil-works/pi-agent-core 0.84.1 (dist/harness/session/jsonl)",
  summary: "a mutation log: entries, lanes, name and label facts, records; context = last compaction, its retainedTail, then the rest",
  plainName: null,
  pathStopsAtCompaction: false,
  tracksActiveTools: false,
  // its last name fact, as given (pi neither trims it nor treats "" as none)
  sessionName: ({ v4 }) => v4?.name ?? null,
  leaf: ({ v4 }) => v4?.leafId ?? null,
  // label facts, not entries: `entryId` names the fact's line
  labels({ v4 }) {
    const out = new Map<string, LabelState>();
    for (const [targetId, fact] of v4?.labels ?? [])
      out.set(targetId, { label: fact.label, timestamp: undefined, entryId: `seq ${fact.seq}`, line: fact.line });
    return out;
  },
  branch: ({ tree }, id) => v4Branch(tree, id),
  branchPath: ({ tree }, id) => TreePath.ofEntries(v4Branch(tree, id)),
  contextEntries: ({ tree }, id) => (id === null ? [] : v4ContextEntries(v4Branch(tree, id))),
  context: ({ tree }, id) => v4Context(tree, id),
  messages: v4Messages,
  whyNotSent(entries) {
    const out = new Map<string, string>();
    for (const entry of entries) {
      const message = entry.message as { role?: unknown; stopReason?: unknown } | undefined;
      if (entry.type === "message" && message?.role === "assistant" && message.stopReason === "deferred")
        out.set(entry.id, "deferred assistant message: the harness does not send it");
    }
    return out;
  },
  // pi-agent-core 0.84's harness converts and counts as 0.83's did
  llm: harness083.llm,
  contextTokens: harness083.contextTokens,
  messageTokens: harness083.messageTokens,
  // pi-agent-core 0.84's copy: no custom_message entries, a branch summary's file lists counted whoever wrote it
  compaction: ({ tree }, id, keep, path) =>
    prepareHarnessCompaction(
      path().map((e) => tree.full(e)),
      keep,
      {
        tokens: HARNESS_TOKENS,
        contextSize: () =>
          estimateContextTokens(
            v4Context(tree, id).messages.map((m) => m.message),
            HARNESS_TOKENS,
          ).tokens,
        customMessages: false,
        retainedTailEntries: true,
        fromHookCounts: true,
        time: (timestamp) => (typeof timestamp === "number" ? timestamp : dateTime(timestamp)),
      },
    ),
  branchSummary: ({ tree }, from, to, budget) =>
    branchSummaryPreview(
      {
        branch: (id) => v4Branch(tree, id),
        entry: fullEntry(tree),
        missingThrows: true,
        customMessages: false,
        fromHookCounts: true,
        tokens: HARNESS_TOKENS,
        time: (timestamp) => (typeof timestamp === "number" ? timestamp : dateTime(timestamp)),
      },
      from,
      to,
      budget,
    ),
  // a v4 log forks into another v4 log (pi-agent-core's repo.fork at the entry)
  fork({ tree, v4 }, id, options) {
    if (!v4) throw new SessionQueryError("invalid", "only a v4 log can be forked by the v4 rules");
    return forkV4Log(tree, v4, id, options);
  },
};
