/**
 * Masks likely secrets in what the viewer exports (fork JSONL, Markdown and HTML
 * transcripts). The pattern list is fixed and documented (README, "Redacting
 * secrets"): each match becomes `[REDACTED:<pattern name>]`, and the caller is
 * told how many it masked per pattern. It is a safety net for well-known key
 * formats, not a guarantee: a secret without a recognisable shape stays.
 */
import { Session } from "@/lib/session/session";
import { SessionParser } from "@/lib/session/parse";
import type { ReadLine } from "@/lib/session/lines";
import type { JsonObject } from "@/lib/session/types";

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
  { name: "github-token", description: "GitHub tokens (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`, `github_pat_`)", regex: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/g },
  { name: "anthropic-key", description: "Anthropic API keys (`sk-ant-…`)", regex: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { name: "openai-key", description: "OpenAI-style API keys (`sk-…`, `sk-proj-…`, 20+ characters)", regex: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g },
  { name: "stripe-key", description: "Stripe secret and restricted keys (`sk_live_`, `rk_live_`, `sk_test_`, `rk_test_`)", regex: /\b[sr]k_(?:live|test)_[A-Za-z0-9]{16,}\b/g },
  { name: "slack-token", description: "Slack tokens (`xoxb-`, `xoxp-`, `xoxa-`, `xoxo-`, `xoxr-`, `xoxs-`) and incoming-webhook URLs", regex: /\bxox[abposr]-[A-Za-z0-9-]{10,}|https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/_-]{20,}/g },
  { name: "google-api-key", description: "Google API keys (`AIza` + 35 characters)", regex: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  { name: "jwt", description: "JSON Web Tokens (three base64url parts, the first two starting `eyJ`)", regex: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { name: "bearer-token", description: "the token after `Bearer ` (as in `Authorization: Bearer …`), 16+ characters", regex: /\bBearer\s+(?<secret>[A-Za-z0-9\-._~+/]{16,}=*)/gi },
  { name: "url-password", description: "the password in a URL's user info (`scheme://user:password@host`)", regex: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/?#@"'<>]+:(?<secret>[^\s@/"'<>]+)@/gi },
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

/** Masks every match in one string; adds to `counts`. */
export function redactString(text: string, counts: RedactionCounts = {}): string {
  let out = text;
  for (const pattern of SECRET_PATTERNS) {
    pattern.regex.lastIndex = 0;
    if (!pattern.regex.test(out)) continue;
    out = out.replace(pattern.regex, (...args: unknown[]) => {
      const match = args[0] as string;
      const groups = args[args.length - 1] as Record<string, string | undefined> | undefined;
      const secret = typeof groups === "object" && groups ? groups.secret : undefined;
      if (secret !== undefined && secret.startsWith(MASK_PREFIX)) return match;
      counts[pattern.name] = (counts[pattern.name] ?? 0) + 1;
      if (secret === undefined) return mask(pattern.name);
      const at = match.lastIndexOf(secret);
      return match.slice(0, at) + mask(pattern.name) + match.slice(at + secret.length);
    });
  }
  return out;
}

/**
 * Fields that hold the session's structure, never secrets: left untouched so a
 * redacted fork keeps its tree (ids, parents, label targets, entry types).
 */
const STRUCTURAL_KEYS = new Set(["id", "parentId", "targetId", "fromId", "firstKeptEntryId", "type", "toolCallId"]);

/** A deep copy of a JSON value with every string value redacted (object keys and structural fields kept). */
export function redactJsonValue(value: unknown, counts: RedactionCounts = {}): unknown {
  // an explicit stack: session values can nest deeper than the call stack allows
  if (typeof value === "string") return redactString(value, counts);
  if (value === null || typeof value !== "object") return value;
  const root: unknown = Array.isArray(value) ? [] : {};
  const stack: { from: unknown; to: unknown }[] = [{ from: value, to: root }];
  while (stack.length > 0) {
    const { from, to } = stack.pop()!;
    const keys = Object.keys(from as object);
    for (const key of keys) {
      const child = (from as Record<string, unknown>)[key];
      let copy: unknown;
      if (typeof child === "string") copy = Array.isArray(from) || !STRUCTURAL_KEYS.has(key) ? redactString(child, counts) : child;
      else if (child !== null && typeof child === "object") {
        copy = Array.isArray(child) ? [] : {};
        stack.push({ from: child, to: copy });
      } else copy = child;
      (to as Record<string, unknown>)[key] = copy;
    }
  }
  return root;
}

function summed(counts: RedactionCounts): number {
  return Object.values(counts).reduce((a, b) => a + b, 0);
}

/** Plain text (Markdown, HTML built from already-redacted values, anything else). */
export function redactText(text: string): Redacted<string> {
  const counts: RedactionCounts = {};
  const value = redactString(text, counts);
  return { value, counts, total: summed(counts) };
}

/**
 * JSONL: the string values of each line's JSON are redacted and the line is
 * written back with JSON.stringify, so the result is still valid JSONL with the
 * same tree. A line that is not JSON is redacted as text.
 */
export function redactJsonl(text: string): Redacted<string> {
  const counts: RedactionCounts = {};
  const value = text
    .split("\n")
    .map((line) => {
      if (line.trim() === "") return line;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        return redactString(line, counts);
      }
      return JSON.stringify(redactJsonValue(parsed, counts));
    })
    .join("\n");
  return { value, counts, total: summed(counts) };
}

/**
 * The session with every string value redacted, same ids and tree, read by the
 * same reader: what the transcript exports are written from. Only the header and
 * the entries are carried over (unreadable lines have nothing to export).
 */
export function redactSession(session: Session): Redacted<Session> {
  const counts: RedactionCounts = {};
  const lines: ReadLine[] = [];
  if (session.header) lines.push({ kind: "value", value: redactJsonValue(session.header, counts) });
  for (const entry of session.tree.entries) lines.push({ kind: "value", value: redactJsonValue(session.tree.full(entry), counts) as JsonObject });
  const parser = new SessionParser();
  parser.pushLines(lines);
  return { value: new Session(parser.end(null), { reader: session.reader }), counts, total: summed(counts) };
}

/** "Masked 3 secrets (2 github-token, 1 jwt)" */
export function describeRedaction(counts: RedactionCounts): string {
  const total = summed(counts);
  const parts = Object.entries(counts).map(([name, n]) => `${n} ${name}`);
  return `Masked ${total} secret${total === 1 ? "" : "s"}${parts.length ? ` (${parts.join(", ")})` : ""}`;
}
