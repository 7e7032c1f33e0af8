import { codingAgent084 } from "../coding-agent-0.84";
import type { RuleSet } from "../rule-set";
import { ca086Context, ca086ContextEntries, ca086Messages } from "./context";
import { forkCa086 } from "./fork";
import { convertToLlm } from "../coding-agent-0.84/llm";
import { caBranchSinceCompaction } from "../coding-agent-0.84/branch";
import { prepareCompaction } from "../coding-agent-0.84/compaction";
import { CODING_AGENT_TOKENS, estimateContextTokens, estimateTokens } from "../coding-agent-0.84/tokens";

/** pi-coding-agent 0.86: system messages, usage entries, a compaction's systemMessage. */
export const codingAgent086: RuleSet = {
  ...codingAgent084,
  id: "ca-0.86",
  label: "pi-coding-agent 0.86",
  oracle: "@earendil-works/pi-coding-agent 0.86.1",
  summary: "usage entries; system messages (kept ranges skip them); a compaction's systemMessage comes before its summary",
  plainName: null,
  contextEntries: ({ tree }, id) => (id === null ? [] : ca086ContextEntries(tree, id)),
  context: ({ tree }, id) => ca086Context(tree, id),
  messages: ca086Messages,
  // system messages reach the model; they still count 0 tokens in 0.86's estimate
  llm: (messages) => convertToLlm(messages, true),
  compaction: ({ tree }, id, keep) =>
    prepareCompaction(
      caBranchSinceCompaction(tree, id).map((e) => tree.full(e)),
      keep,
      {
        messages: ca086Messages,
        tokens: (message) => estimateTokens(message, CODING_AGENT_TOKENS),
        contextSize: () =>
          estimateContextTokens(
            ca086Context(tree, id).messages.map((m) => m.message),
            CODING_AGENT_TOKENS,
          ),
        keepLastCutPoint: true,
        skipSystem: true,
      },
    ),
  // pi ≥ 0.85 re-targets a compaction's firstKeptEntryId that named a dropped label entry
  fork: ({ tree, header }, id, options) => forkCa086(tree, header, id, options),
};
