import { codingAgent086 } from "../coding-agent-0.86";
import type { RuleSet } from "../rule-set";
import { contextEdits, editedCaContext, projectEdited } from "./context";
import { branchSummaryPreview, dateTime, fullEntry } from "../coding-agent-0.84/branch-summary";
import { caBranch } from "../coding-agent-0.84/branch";
import { estimateTokens } from "../coding-agent-0.84/tokens";
import { CODING_AGENT_087_TOKENS, estimateProjectedContextTokens } from "./tokens";
import { prepareProjectedCompaction } from "./compaction";
import { ca086ContextEntries, ca086Messages } from "../coding-agent-0.86/context";

/** pi-coding-agent 0.87 to 1.6 (checked 0.87.1 and 1.6.0): context_edit entries; one compaction summary. */
export const codingAgent087: RuleSet = {
  ...codingAgent086,
  id: "ca-0.87",
  label: "pi-coding-agent ≥ 0.87",
  oracle: "@earendil-works/pi-coding-agent 0.87.1 and 1.6.0",
  summary: "context_edit entries replace an earlier message on their branch; only the newest compaction yields a summary",
  context: ({ tree }, id) => editedCaContext(tree, id),
  contextTokens: estimateProjectedContextTokens,
  compaction: ({ tree }, id, keep, path) =>
    prepareProjectedCompaction(
      tree.get(id)!,
      path,
      ca086ContextEntries(tree, id).map((e) => tree.full(e)),
      editedCaContext(tree, id).messages,
      keep,
      ca086Messages,
    ),
  messageTokens: (message) => estimateTokens(message, CODING_AGENT_087_TOKENS),
  // as 1.6 does it: an entry a context_edit in the summarized range replaced is summarized as edited (0.87.1 ignores edits here)
  branchSummary: ({ tree }, from, to, budget) =>
    branchSummaryPreview(
      {
        branch: (id) => caBranch(tree, id),
        entry: fullEntry(tree),
        missingThrows: false,
        customMessages: true,
        fromHookCounts: false,
        editedMessage: (entry, edit) => projectEdited(entry, edit)[0]?.message,
        tokens: CODING_AGENT_087_TOKENS,
        time: dateTime,
      },
      from,
      to,
      budget,
    ),
  whyNotSent(entries) {
    const out = new Map<string, string>();
    const edits = contextEdits(entries);
    entries.forEach((entry, index) => {
      const edit = edits.get(entry.id);
      if (edit && edit.replacement === null) out.set(entry.id, `removed by context_edit ${edit.id} on this branch (pi ≥ 0.87)`);
      else if (entry.type === "compaction" && index > 0) out.set(entry.id, "an older compaction in the kept range: pi ≥ 0.87 sends only the newest summary");
    });
    return out;
  },
};
