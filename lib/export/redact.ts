/**
 * Masks likely secrets in what the viewer exports (fork JSONL, Markdown and HTML
 * transcripts). The pattern list is fixed and documented (README, "Redacting
 * secrets"): each match becomes `[REDACTED:<pattern name>]`, and the caller is
 * told how many it masked per pattern. It is a safety net for well-known key
 * formats, not a guarantee: a secret without a recognisable shape stays. For a
 * shared file the user can add rules of their own (redaction-rules.ts) and see
 * where they match before anything is written (redaction-find.ts).
 */
import { Session } from "@/lib/session/session";
import { SessionParser } from "@/lib/session/read/parse";
import { readLine, type ReadLine } from "@/lib/session/read/lines";
import type { JsonObject } from "@/lib/session/types";
import { mapJsonStrings } from "./map-json-strings";

export interface SecretPattern {
  name: string;
  description: string;
  /** global regex; a named group `secret` marks the part to mask (the rest, e.g. `Bearer `, stays) */
  regex: RegExp;
}

/** Most specific first: once masked, a secret no longer matches the broader patterns after it. */
export const SECRET_PATTERNS: readonly SecretPattern[] = [
  {
    name: "private-key",
    description: "PEM private key blocks (`-----BEGIN … PRIVATE KEY-----` to its END line, or to the end of the text when cut off)",
    regex: /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY( BLOCK)?-----[\s\S]*?(?:-----END \1PRIVATE KEY\2-----|$)/g,
  },
  { name: "aws-access-key-id", description: "AWS access key ids (`AKIA…`, `ASIA…`, 20 characters)", regex: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/g },
  {
    name: "aws-secret-access-key",
    description: "AWS secret access keys (40 characters) after `aws_secret_access_key` / `AWS_SECRET_ACCESS_KEY` / `SecretAccessKey`",
    regex: /(?:aws_secret_access_key|AWS_SECRET_ACCESS_KEY|SecretAccessKey)["']?\s*[:=]\s*["']?(?<secret>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/g,
  },
  {
    name: "github-token",
    description: "GitHub tokens (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`, `github_pat_`)",
    regex: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/g,
  },
  { name: "anthropic-key", description: "Anthropic API keys (`sk-ant-…`)", regex: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  {
    name: "openai-key",
    description: "OpenAI-style API keys (`sk-…`, `sk-proj-…`, 20+ characters)",
    regex: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g,
  },
  {
    name: "stripe-key",
    description: "Stripe secret and restricted keys (`sk_live_`, `rk_live_`, `sk_test_`, `rk_test_`)",
    regex: /\b[sr]k_(?:live|test)_[A-Za-z0-9]{16,}\b/g,
  },
  {
    name: "slack-token",
    description: "Slack tokens (`xoxb-`, `xoxp-`, `xoxa-`, `xoxo-`, `xoxr-`, `xoxs-`) and incoming-webhook URLs",
    regex: /\bxox[abposr]-[A-Za-z0-9-]{10,}|https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/_-]{20,}/g,
  },
  { name: "google-api-key", description: "Google API keys (`AIza` + 35 characters)", regex: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  {
    name: "jwt",
    description: "JSON Web Tokens (three base64url parts, the first two starting `eyJ`)",
    regex: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
  },
  {
    name: "bearer-token",
    description: "the token after `Bearer ` (as in `Authorization: Bearer …`), 16+ characters",
    regex: /\bBearer\s+(?<secret>[A-Za-z0-9\-._~+/]{16,}=*)/gi,
  },
  {
    name: "url-password",
    description: "the password in a URL's user info (`scheme://user:password@host`)",
    regex: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/?#@"'<>]+:(?<secret>[^\s@/"'<>]+)@/gi,
  },
  {
    name: "query-secret",
    description: "values of `password=`, `passwd=`, `pwd=`, `secret=`, `token=`, `access_token=`, `api_key=`, `apikey=` in URLs and form data",
    regex: /[?&;](?:password|passwd|pwd|secret|token|access_token|api_key|apikey)=(?<secret>[^&\s"'#<>]+)/gi,
  },
];

export const MASK_PREFIX = "[REDACTED:";

function mask(name: string): string {
  return `${MASK_PREFIX}${name}]`;
}

export type RedactionCounts = Record<string, number>;

export interface Redacted<T> {
  value: T;
  /** masked secrets by pattern name (patterns with none are absent) */
  counts: RedactionCounts;
  total: number;
}

export type RedactionRuleKind = "built-in" | "literal" | "regex" | "home-path";

export interface RedactionRule {
  name: string;
  kind: RedactionRuleKind;
  /** what the rule catches, in words; never the user's literal or regex, so it can be written into a shared file */
  description: string;
  /** global; a named group `secret` marks the part to replace */
  regex: RegExp;
  /** what a match (or its `secret` group) becomes */
  replacement: string;
}

/** Rules in the order they apply; build them with `compileRedaction` (redaction-rules.ts). */
export interface RedactionRules {
  readonly list: readonly RedactionRule[];
}

/** A rule whose matches become `[REDACTED:<name>]`. */
export function maskingRule(name: string, kind: RedactionRuleKind, description: string, source: string, flags: string): RedactionRule {
  // `d` gives the secret group's own offsets: searching the match for its text could find an earlier copy
  const withIndices = source.includes("(?<secret>") ? flags + "d" : flags;
  return { name, kind, description, regex: new RegExp(source, withIndices), replacement: mask(name) };
}

/** What redacting does without options: the built-in patterns only. */
export const BUILT_IN_RULES: RedactionRules = {
  list: SECRET_PATTERNS.map((p) => maskingRule(p.name, "built-in", p.description, p.regex.source, p.regex.flags)),
};

/** Told of each replaced span, as offsets into the string given to `redactString`. */
export type OnRedaction = (rule: RedactionRule, start: number, end: number) => void;

/**
 * A stretch of the string being redacted: either text of the original (`at` is
 * its offset there) or a replacement (`at` is -1), which later rules never see.
 * That is what keeps a mask from being masked again, whatever a user rule matches.
 */
interface Piece {
  text: string;
  at: number;
}

/** Masks already in the input (a file redacted before): kept as they are, out of every rule's reach. */
const EARLIER_MASK = /\[REDACTED:[a-z0-9-]+\]/g;

/** The span a match replaces: its `secret` group if that took part, else all of it. */
function replacedSpan(match: RegExpExecArray): readonly [number, number] {
  return match.indices?.groups?.secret ?? [match.index, match.index + match[0].length];
}

/**
 * The piece cut at the rule's matches (at earlier masks when `rule` is null),
 * or null when nothing matched: the common case, and allocation-free.
 */
function splitPiece(piece: Piece, rule: RedactionRule | null, counts: RedactionCounts, onRedaction?: OnRedaction): Piece[] | null {
  const regex = rule?.regex ?? EARLIER_MASK;
  const { text, at } = piece;
  let out: Piece[] | null = null;
  let from = 0;
  regex.lastIndex = 0;
  for (let match = regex.exec(text); match !== null; match = regex.exec(text)) {
    if (match[0] === "") {
      regex.lastIndex++; // exec would find the same empty match forever
      continue;
    }
    const [start, end] = replacedSpan(match);
    if (start === end) continue;
    out ??= [];
    if (start > from) out.push({ text: text.slice(from, start), at: at + from });
    out.push({ text: rule?.replacement ?? text.slice(start, end), at: -1 });
    from = end;
    if (rule === null) continue;
    counts[rule.name] = (counts[rule.name] ?? 0) + 1;
    onRedaction?.(rule, at + start, at + end);
  }
  if (out !== null && from < text.length) out.push({ text: text.slice(from), at: at + from });
  return out;
}

function splitPieces(pieces: Piece[], rule: RedactionRule | null, counts: RedactionCounts, onRedaction?: OnRedaction): Piece[] {
  let out: Piece[] | null = null;
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i]!;
    const split = piece.at < 0 ? null : splitPiece(piece, rule, counts, onRedaction);
    if (split === null) out?.push(piece);
    else (out ??= pieces.slice(0, i)).push(...split);
  }
  return out ?? pieces;
}

/** Replaces every match of the rules in one string, in order; adds to `counts`. */
export function redactString(text: string, counts: RedactionCounts = {}, rules: RedactionRules = BUILT_IN_RULES, onRedaction?: OnRedaction): string {
  let pieces: Piece[] = [{ text, at: 0 }];
  if (text.includes(MASK_PREFIX)) pieces = splitPieces(pieces, null, counts);
  for (const rule of rules.list) pieces = splitPieces(pieces, rule, counts, onRedaction);
  return pieces.length === 1 ? pieces[0]!.text : pieces.map((p) => p.text).join("");
}

/**
 * A deep copy of a parsed JSONL line with every string redacted, keys included, at any depth; only the places
 * pi's schema gives the session's structure (ids, parents, types, roles) and images' bytes are kept.
 */
export function redactJsonValue(value: unknown, counts: RedactionCounts = {}, rules: RedactionRules = BUILT_IN_RULES): unknown {
  return mapJsonStrings(value, (text) => redactString(text, counts, rules));
}

export function totalCount(counts: RedactionCounts): number {
  return Object.values(counts).reduce((a, b) => a + b, 0);
}

/** Plain text (Markdown, HTML built from already-redacted values, anything else). */
export function redactText(text: string, rules: RedactionRules = BUILT_IN_RULES): Redacted<string> {
  const counts: RedactionCounts = {};
  const value = redactString(text, counts, rules);
  return { value, counts, total: totalCount(counts) };
}

/**
 * JSONL: the strings of each line's JSON are redacted and the line is
 * written back with JSON.stringify, so the result is still valid JSONL with the
 * same tree. A line that is not JSON is redacted as text.
 */
export function redactJsonl(text: string, rules: RedactionRules = BUILT_IN_RULES): Redacted<string> {
  const counts: RedactionCounts = {};
  const value = text
    .split("\n")
    .map((line) => {
      const read = readLine(line);
      if (read.kind === "blank") return line;
      if (read.kind === "invalid") return redactString(line, counts, rules);
      return JSON.stringify(redactJsonValue(read.value, counts, rules));
    })
    .join("\n");
  return { value, counts, total: totalCount(counts) };
}

/**
 * The session with every string redacted, same ids and tree, read by the
 * same reader: what the transcript exports are written from. Only the header and
 * the entries are carried over (unreadable lines have nothing to export).
 */
export function redactSession(session: Session, rules: RedactionRules = BUILT_IN_RULES): Redacted<Session> {
  const counts: RedactionCounts = {};
  const lines: ReadLine[] = [];
  if (session.header) lines.push({ kind: "value", value: redactJsonValue(session.header, counts, rules) });
  for (const entry of session.tree.allEntries()) lines.push({ kind: "value", value: redactJsonValue(session.tree.full(entry), counts, rules) as JsonObject });
  const parser = new SessionParser();
  parser.pushLines(lines);
  return { value: new Session(parser.end(null), { reader: session.reader }), counts, total: totalCount(counts) };
}

/** "Masked 3 secrets (2 github-token, 1 jwt)" */
export function describeRedaction(counts: RedactionCounts): string {
  const total = totalCount(counts);
  const parts = Object.entries(counts).map(([name, n]) => `${n} ${name}`);
  return `Masked ${total} secret${total === 1 ? "" : "s"}${parts.length ? ` (${parts.join(", ")})` : ""}`;
}
