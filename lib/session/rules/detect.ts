import type { SessionParser } from "../read/parse";
import type { RuleSetId } from "../types";
import type { FormatTrace } from "./format-evidence";
import { harnessRefusal } from "./harness-0.83/refusal";
import { RULE_SETS } from "./registry";
import type { RuleSet } from "./rule-set";

/** The rules applied to a file, and why: what the viewer shows as "Read as …". */
export interface RulesChoice {
  rules: RuleSet;
  id: RuleSetId;
  label: string;
  reason: string;
  /** the harness's refusal, when it has one */
  harnessError: string | null;
  /** the line that decided, when one did */
  line: number | null;
  /** short form for a badge: "line 14: context_edit" */
  detail: string | null;
  forced: boolean;
  /** every trace of a newer writer, first line of each kind */
  traces: FormatTrace[];
}

/** "Read as pi-coding-agent ≥ 0.87 (line 14: context_edit)" */
export function rulesBadgeText(choice: Pick<RulesChoice, "label" | "detail">): string {
  return `Read as ${choice.label}${choice.detail ? ` (${choice.detail})` : ""}`;
}

/**
 * The rules a file is read by: those forced, else a v4 log's, else the
 * harness's for a v3 file with leaf entries it opens, else the newest rules
 * whose traces the file holds, else the coding agent 0.84's.
 */
export function chooseRules(parser: SessionParser, forced: "auto" | RuleSetId = "auto"): RulesChoice {
  const tree = parser.tree;
  const harnessError = tree.hasLeafEntries || forced === "hx" ? harnessOpenError(parser) : null;
  const traces = tree.evidence.all;
  const choice = (id: RuleSetId, reason: string, line: number | null = null, detail: string | null = null): RulesChoice => ({
    rules: RULE_SETS[id],
    id,
    reason,
    harnessError,
    label: RULE_SETS[id].label,
    line,
    detail,
    forced: forced !== "auto",
    traces,
  });
  if (forced !== "auto") return choice(forced, `reader chosen explicitly (${forced})`, null, "chosen explicitly");
  const v4 = parser.v4;
  if (v4)
    return choice(
      "v4",
      `line ${v4.headerLine} is a v4 log header ({"kind":"header","version":4}): read as pi-agent-core 0.84.1's JSONL storage reads it`,
      v4.headerLine,
      `line ${v4.headerLine}: v4 header`,
    );
  if (!tree.hasLeafEntries) {
    const trace = tree.evidence.strongest;
    if (trace) return choice(trace.rules, `${trace.reason}: read by ${RULE_SETS[trace.rules].label}'s rules`, trace.line, `line ${trace.line}: ${trace.what}`);
    return choice("ca", "no leaf entries: read as pi's coding agent reads it");
  }
  if (harnessError === null) return choice("hx", "leaf entries: read as pi-agent-core's harness (0.78–0.83) reads it");
  return choice("ca", `leaf entries, but the harness refuses the file (${harnessError}): read by the coding agent's rules`);
}

/** Why the harness would not open the file, or null when it would. */
function harnessOpenError(parser: SessionParser): string | null {
  const refusal = harnessRefusal(parser);
  if (refusal) return refusal;
  const leaf = parser.tree.leaf("hx");
  if (leaf !== null && !parser.tree.get(leaf)) return `Entry ${leaf} not found`;
  return null;
}
