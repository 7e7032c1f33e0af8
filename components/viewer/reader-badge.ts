import { DEFAULT_RULES, rulesBadgeText, type Session } from "@/lib/session";

export interface ReaderBadge {
  text: string;
  title: string;
  tone: "neutral" | "accent";
}

/**
 * How the top bar names the rules a file is read by: pi 0.84's two v3 readers
 * by name, newer rules as "Read as pi-coding-agent ≥ 0.87 (line 14: context_edit)"
 * with the reason and what the rules change in the tooltip.
 */
export function readerBadge(session: Session): ReaderBadge {
  const choice = session.rulesChoice;
  const rules = choice.rules;
  const tone = rules === DEFAULT_RULES ? "neutral" : "accent";
  if (rules.plainName) return { text: rules.plainName, title: choice.reason, tone };
  const lanes = session.lanes.map((l) => `${l.lane} → ${l.leafId ?? "(empty)"}`);
  const lines = [choice.reason, `Rules: ${rules.summary}.`, `Checked against ${rules.oracle}.`];
  if (lanes.length) lines.push(`Lanes: ${lanes.join(", ")}`);
  return { text: rulesBadgeText(choice), title: lines.join("\n"), tone };
}

/** Entries in the file: a v4 log's lines also hold lanes, facts and records, which are not entries. */
export function entryCountOf(session: Session): number {
  return session.v4 ? session.tree.entryCount : session.account().entry;
}
