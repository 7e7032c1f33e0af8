import { codingAgent086 } from "../coding-agent-0.86";
import type { RuleSet } from "../rule-set";
import { contextEdits, editedCaContext } from "./context";
import { estimateTokens } from "../coding-agent-0.84/tokens";
import { CODING_AGENT_087_TOKENS, estimateProjectedContextTokens } from "./tokens";

/** pi-coding-agent 0.87 to 1.6 (checked 0.87.1 and 1.6.0): context_edit entries; one compaction summary. */
export const codingAgent087: RuleSet = {
  ...codingAgent086,
  id: "ca-0.87",
  label: "pi-coding-agent ≥ 0.87",
  oracle: "@earendil-works/pi-coding-agent 0.87.1 and 1.6.0",
  summary: "context_edit entries replace an earlier message on their branch; only the newest compaction yields a summary",
  context: ({ tree }, id) => editedCaContext(tree, id),
  contextTokens: estimateProjectedContextTokens,
  messageTokens: (message) => estimateTokens(message, CODING_AGENT_087_TOKENS),
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
