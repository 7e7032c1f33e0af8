import { codingAgent084 } from "../coding-agent-0.84";
import type { RuleSet } from "../rule-set";
import { TreePath } from "../../tree/tree-path";
import { hxBranch } from "./branch";
import { hxContext, hxContextEntries, hxMessages } from "./context";
import { estimateContextTokens, estimateTokens, type TokenRules } from "../coding-agent-0.84/tokens";
import { branchSummaryPreview, dateTime, fullEntry } from "../coding-agent-0.84/branch-summary";
import { prepareHarnessCompaction } from "./compaction";
import { forkHarness } from "./fork";

/** pi-agent-core's harness counts as the coding agent does, but stringifies tool arguments safely. */
export const HARNESS_TOKENS: TokenRules = { system: false, safeJson: true };

/** pi-agent-core 0.83's harness storage (0.78 – 0.83): files whose cursor moves are `leaf` entries. */
export const harness083: RuleSet = {
  id: "hx",
  label: "pi-agent-core 0.83 harness",
  oracle: "@earendil-works/pi-agent-core 0.83.0 (leaf entries, 0.78 – 0.83)",
  summary: "the harness storage: leaf entries move the cursor, paths stop at compactions, retainedTail is inlined",
  plainName: "harness",
  pathStopsAtCompaction: true,
  tracksActiveTools: true,
  sessionName: codingAgent084.sessionName,
  leaf: ({ tree }) => tree.leaf("hx"),
  labels: ({ tree }) => tree.labels("hx"),
  branch: ({ tree }, id) => hxBranch(tree, id),
  branchPath: ({ tree }, id) => TreePath.ofEntries(hxBranch(tree, id)),
  contextEntries: ({ tree }, id) => hxContextEntries(hxBranch(tree, id)),
  context: ({ tree }, id) => hxContext(tree, id),
  messages: hxMessages,
  whyNotSent: () => new Map(),
  llm: codingAgent084.llm,
  contextTokens: (messages) =>
    estimateContextTokens(
      messages.map((m) => m.message),
      HARNESS_TOKENS,
    ),
  messageTokens: (message) => estimateTokens(message, HARNESS_TOKENS),
  compaction: ({ tree }, id, keep, path) =>
    prepareHarnessCompaction(
      path().map((e) => tree.full(e)),
      keep,
      {
        tokens: HARNESS_TOKENS,
        contextSize: () =>
          estimateContextTokens(
            hxContext(tree, id).messages.map((m) => m.message),
            HARNESS_TOKENS,
          ).tokens,
        customMessages: true,
        retainedTailEntries: false,
        fromHookCounts: false,
        time: dateTime,
      },
    ),
  branchSummary: ({ tree }, from, to, budget) =>
    branchSummaryPreview(
      {
        branch: (id) => hxBranch(tree, id),
        entry: fullEntry(tree),
        missingThrows: true,
        customMessages: true,
        fromHookCounts: false,
        tokens: HARNESS_TOKENS,
        time: dateTime,
      },
      from,
      to,
      budget,
    ),
  fork: ({ tree, header }, id, options) => forkHarness(tree, header, id, options),
};
