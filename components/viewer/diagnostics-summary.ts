// The diagnostics banner's figures: unreadable lines apart from other issues, and the worst severity.
import type { Diagnostic, Session, Severity } from "@/lib/session";

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
