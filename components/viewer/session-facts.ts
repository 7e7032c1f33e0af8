// Facts about a loaded session that the shell shows (title, diagnostics summary); pure, over the core's Session.
import { DEFAULT_RULES, rulesBadgeText, type Diagnostic, type Session, type Severity } from "@/lib/session";
import { textOf } from "@/lib/session/json";

/** The session's name (last session_info), else its first user message, else null. */
export function sessionTitle(session: Session): string | null {
  if (session.name) return session.name;
  for (const entry of session.tree.entries) {
    const message = entry.message as { role?: unknown; content?: unknown } | undefined;
    if (entry.type !== "message" || message?.role !== "user") continue;
    const text = messageText(message.content);
    if (text) return text.length > 160 ? text.slice(0, 159) + "…" : text;
  }
  return null;
}

function messageText(content: unknown): string {
  return textOf(content).replace(/\s+/g, " ").trim();
}

export interface DiagnosticsSummary {
  /** lines pi skips or refuses (not JSON, not an object, BOM, cut off) */
  unreadable: number;
  /** warnings and errors about anything else */
  otherIssues: number;
  worst: Severity | null;
  all: Diagnostic[];
}

const RANK: Record<Severity, number> = { info: 0, warning: 1, error: 2 };

export function summarizeDiagnostics(session: Session): DiagnosticsSummary {
  const all = session.diagnostics();
  const unreadableLines = session.parser.unreadable;
  let worst: Severity | null = null;
  let otherIssues = 0;
  for (const d of all) {
    if (d.severity === "info") continue;
    if (worst === null || RANK[d.severity] > RANK[worst]) worst = d.severity;
    if (!unreadableLines.has(d.line)) otherIssues++;
  }
  return { unreadable: session.account().unreadable, otherIssues, worst, all };
}

/** "2 lines could not be read · 1 other issue" */
export function diagnosticsHeadline(summary: DiagnosticsSummary): string {
  const parts: string[] = [];
  if (summary.unreadable > 0) parts.push(`${summary.unreadable} ${summary.unreadable === 1 ? "line" : "lines"} could not be read`);
  if (summary.otherIssues > 0) {
    const noun = summary.otherIssues === 1 ? "issue" : "issues";
    parts.push(summary.unreadable > 0 ? `${summary.otherIssues} other ${noun}` : `${summary.otherIssues} ${noun}`);
  }
  return parts.join(" · ");
}

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
  return session.v4 ? session.tree.entries.length : session.account().entry;
}
