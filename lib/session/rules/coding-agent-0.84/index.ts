import type { RuleSet } from "../rule-set";
import { caBranch, caBranchSinceCompaction, caBranchSlots } from "./branch";
import { TreePath } from "../../tree/tree-path";
import { caContext, caContextEntries, caMessages } from "./context";
import { forkSession } from "./fork";
import { branchSummaryPreview, dateTime, fullEntry } from "./branch-summary";
import { convertToLlm } from "./llm";
import { prepareCompaction } from "./compaction";
import { CODING_AGENT_TOKENS, estimateContextTokens, estimateTokens } from "./tokens";

/** pi-coding-agent 0.84's SessionManager (the same context rules 0.81 – 0.85): the default for v3 files. */
export const codingAgent084: RuleSet = {
  id: "ca",
  label: "pi-coding-agent 0.84",
  oracle: "@earendil-works/pi-coding-agent 0.84.1 (same context rules 0.81 – 0.85)",
  summary: "the coding agent's SessionManager; an earlier compaction inside the kept range adds a second summary",
  plainName: "coding agent",
  pathStopsAtCompaction: false,
  tracksActiveTools: false,
  sessionName: ({ tree }) => tree.name,
  leaf: ({ tree }) => tree.leaf("ca"),
  labels: ({ tree }) => tree.labels("ca"),
  branch: ({ tree }, id) => caBranch(tree, id),
  branchPath: ({ tree }, id) => TreePath.ofSlots(tree, caBranchSlots(tree, id)),
  contextEntries: ({ tree }, id) => (id === null ? [] : caContextEntries(tree, id)),
  context: ({ tree }, id) => caContext(tree, id),
  messages: caMessages,
  whyNotSent: () => new Map(),
  llm: (messages) => convertToLlm(messages, false),
  contextTokens: (messages) =>
    estimateContextTokens(
      messages.map((m) => m.message),
      CODING_AGENT_TOKENS,
    ),
  messageTokens: (message) => estimateTokens(message, CODING_AGENT_TOKENS),
  branchSummary: ({ tree }, from, to, budget) =>
    branchSummaryPreview(
      {
        branch: (id) => caBranch(tree, id),
        entry: fullEntry(tree),
        missingThrows: false,
        customMessages: true,
        fromHookCounts: false,
        tokens: CODING_AGENT_TOKENS,
        time: dateTime,
      },
      from,
      to,
      budget,
    ),
  compaction: ({ tree }, id, keep) =>
    prepareCompaction(
      caBranchSinceCompaction(tree, id).map((e) => tree.full(e)),
      keep,
      {
        messages: caMessages,
        tokens: (message) => estimateTokens(message, CODING_AGENT_TOKENS),
        contextSize: () =>
          estimateContextTokens(
            caContext(tree, id).messages.map((m) => m.message),
            CODING_AGENT_TOKENS,
          ),
        keepLastCutPoint: false,
        skipSystem: false,
      },
    ),
  fork: ({ tree, header }, id, options) => forkSession(tree, header, id, options),
};
