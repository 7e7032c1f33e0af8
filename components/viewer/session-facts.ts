// Facts about a loaded session that the shell shows (title, diagnostics summary); pure, over the core's Session.
import type { Diagnostic, Session, Severity } from "@/lib/session";

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
  if (typeof content === "string") return content.replace(/\s+/g, " ").trim();
  if (!Array.isArray(content)) return "";
  return content
    .filter((block): block is { type: "text"; text: string } => block?.type === "text" && typeof block.text === "string")
    .map((block) => block.text)
    .join(" ")
    .replace(/\s+/g, " ")
    .trim();
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
