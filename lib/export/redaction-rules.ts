/**
 * Redaction rules the user adds for a shared file (exact strings, regular
 * expressions, home directories) on top of the built-in secret patterns, and
 * the record of what they masked. The record names rules and counts only: a
 * user's literal or regex is itself the secret, so it never leaves the device.
 */
import { HOME_PATH_RULE } from "./home-path-rule";
import { BUILT_IN_RULES, maskingRule, type RedactionCounts, type RedactionRule, type RedactionRuleKind, type RedactionRules } from "./redact";

export interface RedactionOptions {
  /** the built-in SECRET_PATTERNS (default true) */
  builtIn?: boolean;
  /** exact, case-sensitive strings; empty ones are ignored */
  literals?: string[];
  /** regular expression sources, compiled with flags "g"; a named group `secret` masks only that part */
  regexes?: string[];
  /** home directories ("/Users/<name>", "/home/<name>", "C:\Users\<name>", pi's "--home-<name>-…--" folders) become "~" (home-path-rule.ts) */
  homePaths?: boolean;
}

export interface RedactionRuleError {
  /** the rule's name, e.g. "regex-2" */
  rule: string;
  message: string;
}

export type CompiledRedaction = RedactionRules | { errors: RedactionRuleError[] };

export interface RedactionRecord {
  rules: Array<{ name: string; kind: RedactionRuleKind; description: string; count: number }>;
  total: number;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Longest first, so that "Acme Corp" is masked whole even when "Acme" is a rule too; names keep the user's order. */
function literalRules(literals: readonly string[]): RedactionRule[] {
  return literals
    .map((text, i) => ({ text, name: `literal-${i + 1}` }))
    .filter(({ text }) => text !== "")
    .sort((a, b) => b.text.length - a.text.length)
    .map(({ text, name }) => maskingRule(name, "literal", `a literal string (${[...text].length} characters)`, escapeRegex(text), "g"));
}

/** Text where a regex that can match nothing would show it: word boundaries, line ends, between characters. */
const EMPTY_MATCH_PROBE = "aZ09_ .-/\\:@\n\t\"'";

function matchesEmpty(regex: RegExp): boolean {
  for (const probe of ["", EMPTY_MATCH_PROBE]) {
    regex.lastIndex = 0;
    for (let match = regex.exec(probe); match !== null; match = regex.exec(probe)) {
      if (match[0] === "") return true;
    }
  }
  return false;
}

/** The quantifier at `at` if it is unbounded (`*`, `+`, `{n,}`), as its length; else 0. */
function unboundedQuantifier(source: string, at: number): number {
  const c = source[at];
  if (c === "*" || c === "+") return 1;
  const braces = c === "{" ? /^\{\d+,\}/.exec(source.slice(at, at + 24)) : null;
  return braces ? braces[0].length : 0;
}

/**
 * Whether a group that repeats without bound holds something that does too, as
 * in `(a+)+`: the classic shape of exponential backtracking, which would freeze
 * the page on the wrong text. A heuristic that also refuses some safe forms.
 */
export function hasNestedRepetition(source: string): boolean {
  const groups: boolean[] = [false]; // per open group: does it hold an unbounded quantifier
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") i++;
    else if (c === "[") {
      for (i++; i < source.length && source[i] !== "]"; i++) if (source[i] === "\\") i++;
    } else if (c === "(") groups.push(false);
    else if (c === ")" && groups.length > 1) {
      const inner = groups.pop()!;
      const repeats = unboundedQuantifier(source, i + 1) > 0;
      if (inner && repeats) return true;
      groups[groups.length - 1] ||= inner || repeats;
    } else if (unboundedQuantifier(source, i) > 0) groups[groups.length - 1] = true;
  }
  return false;
}

/** The engine's reason without the message's copy of the source (the error may be shown next to a shared file). */
function syntaxReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.slice(message.lastIndexOf(": ") + 1).trim();
}

function regexRule(source: string, name: string): RedactionRule | RedactionRuleError {
  let rule: RedactionRule;
  try {
    rule = maskingRule(name, "regex", "a regular expression", source, "g");
  } catch (error) {
    return { rule: name, message: `not a valid regular expression: ${syntaxReason(error)}` };
  }
  if (hasNestedRepetition(source))
    return {
      rule: name,
      message:
        "repeats a group that itself repeats without bound, as `(a+)+` does, which can take practically forever on some text; rewrite it without the nested repetition",
    };
  if (matchesEmpty(rule.regex))
    return {
      rule: name,
      message: "can match an empty string (as `x*`, `\\b` or a lone lookahead do), so it would mask nothing; make it match at least one character",
    };
  return rule;
}

/**
 * The rules to redact with, in the order they apply: built-ins, literals,
 * regexes, home paths. User rules are named by their place in the options
 * (`literal-1`, `regex-2`) so an error or a count points at the right one.
 */
export function compileRedaction(options: RedactionOptions = {}): CompiledRedaction {
  const regexes = (options.regexes ?? []).map((source, i) => regexRule(source, `regex-${i + 1}`));
  const errors = regexes.filter((r): r is RedactionRuleError => "message" in r);
  if (errors.length > 0) return { errors };
  const list = [
    ...(options.builtIn === false ? [] : BUILT_IN_RULES.list),
    ...literalRules(options.literals ?? []),
    ...(regexes as RedactionRule[]),
    ...(options.homePaths ? [HOME_PATH_RULE] : []),
  ];
  return { list };
}

/** What a shared file says about its redaction: every rule that ran, in words, with its count. */
export function redactionRecord(rules: RedactionRules, counts: RedactionCounts): RedactionRecord {
  const records = rules.list.map(({ name, kind, description }) => ({ name, kind, description, count: counts[name] ?? 0 }));
  return { rules: records, total: records.reduce((sum, r) => sum + r.count, 0) };
}
