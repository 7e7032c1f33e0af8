/**
 * pi's last projection step, convertToLlm (pi-coding-agent dist/core/messages.js;
 * the harness's dist/harness/messages.js is the same): the context's messages
 * as the model's API gets them. Roles the model does not know become user
 * text with pi's own wrappers; a `!!` bash run is left out.
 */
import type { ContextMessage, JsonObject } from "../../types";

export const COMPACTION_SUMMARY_PREFIX = "The conversation history before this point was compacted into the following summary:\n\n<summary>\n";
export const COMPACTION_SUMMARY_SUFFIX = "\n</summary>";
export const BRANCH_SUMMARY_PREFIX = "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n";
export const BRANCH_SUMMARY_SUFFIX = "</summary>";

/** One message the model gets, and where it came from. */
export interface LlmMessage {
  /** exactly what pi hands the provider for this message */
  message: JsonObject;
  /** the entry it came from */
  entryId: string;
  /** its index among the context's messages */
  contextIndex: number;
  /** the role before conversion (bashExecution, custom, branchSummary, compactionSummary, or the same as now) */
  from: string;
}

// pi reads these fields without checking them (template literals, truthiness): so does this
/** A bash run as the user text pi sends: the command, its output fenced, and how it ended. */
export function bashExecutionToText(msg: JsonObject): string {
  let text = `Ran \`${msg.command}\`\n`;
  if (msg.output) text += `\`\`\`\n${msg.output}\n\`\`\``;
  else text += "(no output)";
  if (msg.cancelled) text += "\n\n(command cancelled)";
  else if (msg.exitCode !== null && msg.exitCode !== undefined && msg.exitCode !== 0) text += `\n\nCommand exited with code ${msg.exitCode}`;
  if (msg.truncated && msg.fullOutputPath) text += `\n\n[Output truncated. Full output: ${msg.fullOutputPath}]`;
  return text;
}

function converted(m: JsonObject, passSystem: boolean): JsonObject | undefined {
  switch (m.role) {
    case "bashExecution":
      if (m.excludeFromContext) return undefined;
      return { role: "user", content: [{ type: "text", text: bashExecutionToText(m) }], timestamp: m.timestamp };
    case "custom":
      return { role: "user", content: typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content, timestamp: m.timestamp };
    case "branchSummary":
      return { role: "user", content: [{ type: "text", text: BRANCH_SUMMARY_PREFIX + m.summary + BRANCH_SUMMARY_SUFFIX }], timestamp: m.timestamp };
    case "compactionSummary":
      return { role: "user", content: [{ type: "text", text: COMPACTION_SUMMARY_PREFIX + m.summary + COMPACTION_SUMMARY_SUFFIX }], timestamp: m.timestamp };
    case "system":
      return passSystem ? m : undefined;
    case "user":
    case "assistant":
    case "toolResult":
      return m;
    default:
      return undefined;
  }
}

/**
 * convertToLlm over a context's messages. `passSystem`: system messages go to
 * the model as they are (pi-coding-agent ≥ 0.86); before, pi drops them here.
 */
export function convertToLlm(messages: readonly ContextMessage[], passSystem: boolean): LlmMessage[] {
  const out: LlmMessage[] = [];
  messages.forEach((m, contextIndex) => {
    const message = converted(m.message, passSystem);
    if (message) out.push({ message, entryId: m.entryId, contextIndex, from: String(m.message.role) });
  });
  return out;
}
