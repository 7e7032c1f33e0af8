/**
 * How the inspector names and marks an entry in one line: a label and a
 * colour tone on top of the graph's own description (lib/layout/describe),
 * so that a card and its inspector row always say the same thing.
 */
import { describeEntry, type EntryDescription, type EntryKind as DescribedKind } from "@/lib/layout/describe";
import type { SessionEntry } from "@/lib/session";

export type Tone = "user" | "assistant" | "tool" | "error" | "bash" | "summary" | "custom" | "setting" | "meta" | "unknown";

export interface EntryLook {
  kind: DescribedKind;
  label: string;
  tone: Tone;
}

const LOOKS: Record<DescribedKind, Omit<EntryLook, "kind">> = {
  user: { label: "User", tone: "user" },
  assistant: { label: "Assistant", tone: "assistant" },
  toolResult: { label: "Tool result", tone: "tool" },
  bashExecution: { label: "Bash", tone: "bash" },
  custom: { label: "Custom", tone: "custom" },
  branchSummary: { label: "Branch summary", tone: "summary" },
  compaction: { label: "Compaction", tone: "summary" },
  model: { label: "Model change", tone: "setting" },
  thinking: { label: "Thinking level", tone: "setting" },
  label: { label: "Label", tone: "meta" },
  sessionInfo: { label: "Session info", tone: "meta" },
  leaf: { label: "Leaf move", tone: "meta" },
  system: { label: "System message", tone: "setting" },
  usage: { label: "Usage", tone: "meta" },
  contextEdit: { label: "Context edit", tone: "setting" },
  unknown: { label: "Unknown", tone: "unknown" },
};

/** Labels where the entry type says more than the described kind. */
const TYPE_LABELS: Record<string, string> = {
  custom_message: "Custom message",
  custom: "Extension state",
  compaction: "Compaction",
  active_tools_change: "Active tools",
};

function look(entry: SessionEntry, described: EntryDescription): EntryLook {
  const base = LOOKS[described.kind];
  let label = (typeof entry.type === "string" && TYPE_LABELS[entry.type]) || base.label;
  if (entry.type === "message" && described.kind === "compaction") label = "Compaction summary";
  if (described.kind === "unknown") {
    const noMessage = entry.type === "message" && (typeof entry.message !== "object" || entry.message === null);
    label = noMessage ? "Message without message" : entry.type === "message" ? `Message: ${described.title}` : `Unknown: ${described.title}`;
  }
  if (entry.type === "active_tools_change") return { kind: described.kind, label, tone: "setting" };
  const tone =
    described.error && (described.kind === "toolResult" || described.kind === "bashExecution" || described.kind === "assistant" || described.kind === "unknown")
      ? "error"
      : base.tone;
  return { kind: described.kind, label: tone === "error" && described.kind === "toolResult" ? "Tool error" : label, tone };
}

export function entryKind(entry: SessionEntry): EntryLook {
  return look(entry, describeEntry(entry));
}

/** The kind of a context message, which has no entry around it. */
export function messageKind(message: unknown): EntryLook {
  const entry = { type: "message", message };
  return look(entry, describeEntry(entry));
}

/** First words of what the entry says, on one line. */
export function entrySnippet(entry: SessionEntry): string {
  return snippet(describeEntry(entry));
}

export function messageSnippet(message: unknown): string {
  return snippet(describeEntry({ type: "message", message }));
}

function snippet(described: EntryDescription): string {
  if (described.kind === "compaction" || described.kind === "branchSummary") return described.text.replace(/(^|\s)#{1,6}\s+/g, "$1") || described.title;
  const tools = described.tools.length ? `→ ${described.tools.join(", ")}` : "";
  if (described.kind === "toolResult") return `${described.title}: ${described.text}`;
  if (described.text && tools) return `${described.text} ${tools}`;
  return described.text || tools || described.title;
}
