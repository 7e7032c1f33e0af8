import { describe, expect, it } from "vitest";
import { Session } from "@/lib/session";
import { transcriptMarkdown } from "@/lib/export/markdown-transcript";
import { redactJsonl, redactJsonValue, redactSession, redactText, SECRET_PATTERNS, type RedactionRules } from "./redact";
import { compileRedaction, hasNestedRepetition, redactionRecord, type RedactionOptions } from "./redaction-rules";

// fake secrets assembled from parts, as in redact.test.ts, so that no key-shaped literal sits in the source
const alnum = (n: number) => Array.from({ length: n }, (_, i) => "A1b2C3d4E5f6G7h8J9k0"[(i * 7) % 20]).join("");
const GITHUB = `ghp_${alnum(36)}`;
const JWT = "eyJhbGciOiJIUzI1NiJ9" + ".eyJzdWIiOiIxMjM0NTY3ODkwIn0" + "." + alnum(43);
const CUSTOMER = ["Glo", "bex ", "Industrial"].join("");

function rules(options: RedactionOptions): RedactionRules {
  const compiled = compileRedaction(options);
  if ("errors" in compiled) throw new Error(JSON.stringify(compiled.errors));
  return compiled;
}

function errorsOf(options: RedactionOptions) {
  const compiled = compileRedaction(options);
  return "errors" in compiled ? compiled.errors : [];
}

/** A session that names the customer in every kind of text, and in two structural fields. */
function sessionNaming(name: string): string {
  const t = (s: number) => `2026-01-01T00:00:0${s}.000Z`;
  const callId = `call-${name}-1`;
  const lines = [
    { type: "session", version: 3, id: "s1", timestamp: t(0), cwd: "/srv/app" },
    { type: "message", id: "u1", parentId: null, timestamp: t(1), message: { role: "user", content: `write to ${name} about the invoice`, timestamp: 1 } },
    {
      type: "message",
      id: "a1",
      parentId: "u1",
      timestamp: t(2),
      message: {
        role: "assistant",
        content: [
          { type: "text", text: `Drafting for ${name}.` },
          { type: "toolCall", id: callId, name: "bash", arguments: { command: `mail -s "${name}" x`, options: { headers: [{ to: `billing@${name}` }] } } },
        ],
        provider: "p",
        model: "m",
        usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
        stopReason: "toolUse",
        timestamp: 2,
      },
    },
    {
      type: "message",
      id: "r1",
      parentId: "a1",
      timestamp: t(3),
      message: {
        role: "toolResult",
        toolCallId: callId,
        toolName: "bash",
        content: [{ type: "text", text: `sent to ${name}\n${name}` }],
        isError: false,
        timestamp: 3,
      },
    },
    { type: "label", id: "l1", parentId: "r1", timestamp: t(4), targetId: "u1", label: name },
  ];
  return lines.map((l) => JSON.stringify(l) + "\n").join("");
}

describe("literals", () => {
  it("masks a literal in every string of a JSONL session, and leaves its tree and structural fields alone", () => {
    const text = sessionNaming(CUSTOMER);
    const redacted = redactJsonl(text, rules({ literals: [CUSTOMER] }));
    expect(redacted.counts).toEqual({ "literal-1": 7 });
    expect(redacted.value).toContain("write to [REDACTED:literal-1] about the invoice");
    expect(redacted.value).toContain("billing@[REDACTED:literal-1]");
    // left only where it is structure: the tool call's id and the result's toolCallId
    expect(redacted.value.split(CUSTOMER).length - 1).toBe(2);
    const before = Session.fromText(text);
    const after = Session.fromText(redacted.value);
    expect(after.parser.diagnostics).toEqual(before.parser.diagnostics);
    expect(after.tree.entries.map((e) => [e.id, e.parentId, e.type])).toEqual(before.tree.entries.map((e) => [e.id, e.parentId, e.type]));
    expect(after.leafId).toBe(before.leafId);
  });

  it("matches a literal with regex metacharacters literally, case-sensitively", () => {
    const only = rules({ builtIn: false, literals: ["a.b*c"] });
    expect(redactText("a.b*c axbc abbbc a.bc A.B*C (a.b*c)", only).value).toBe("[REDACTED:literal-1] axbc abbbc a.bc A.B*C ([REDACTED:literal-1])");
    expect(redactText("x$^(y)[z]|\\w", rules({ literals: ["$^(y)[z]|\\w"] })).value).toBe("x[REDACTED:literal-1]");
  });

  it("names literals by their place in the options, ignoring empty ones", () => {
    const compiled = rules({ builtIn: false, literals: ["", "kiwi"] });
    expect(compiled.list.map((r) => r.name)).toEqual(["literal-2"]);
    expect(redactText("a kiwi", compiled).counts).toEqual({ "literal-2": 1 });
  });

  it("masks the longer of two overlapping literals whole", () => {
    const compiled = rules({ literals: ["Acme", "Acme Corp"] });
    expect(redactText("Acme Corp and Acme", compiled).value).toBe("[REDACTED:literal-2] and [REDACTED:literal-1]");
  });
});

describe("regexes", () => {
  it("masks the whole match without a `secret` group", () => {
    const compiled = rules({ regexes: ["corp\\.internal\\.[a-z]+"] });
    const { value, counts } = redactText("ssh build.corp.internal.eu and corp.internal.us", compiled);
    expect(value).toBe("ssh build.[REDACTED:regex-1] and [REDACTED:regex-1]");
    expect(counts).toEqual({ "regex-1": 2 });
  });

  it("masks only the `secret` group, at its own position", () => {
    const compiled = rules({ builtIn: false, regexes: ["x", "ticket=(?<secret>[A-Z]+-\\d+)", "(?<secret>\\w+)=\\w+"] });
    expect(redactText("see ticket=OPS-42.", compiled).value).toBe("see ticket=[REDACTED:regex-2].");
    // the secret's text also follows the "=": it is the first copy that goes
    expect(redactText("ab=ab", compiled).value).toBe("[REDACTED:regex-3]=ab");
  });

  it("names each invalid regex and says why, without repeating it", () => {
    const errors = errorsOf({ regexes: ["fine", "(unclosed", "[z-a]"] });
    expect(errors.map((e) => e.rule)).toEqual(["regex-2", "regex-3"]);
    for (const error of errors) expect(error.message).toMatch(/^not a valid regular expression: \w/);
    expect(errors[0]!.message).not.toContain("(unclosed");
  });

  it.each(["", "a*", "\\b", "x?", "^", "x|", "(?=a)", "$"])("rejects %j, which can match an empty string", (source) => {
    expect(errorsOf({ regexes: ["ok", source] })).toEqual([{ rule: "regex-2", message: expect.stringMatching(/empty string/) }]);
  });

  it("steps over empty matches it could not foresee, and empty `secret` groups", () => {
    const lookahead = rules({ builtIn: false, regexes: ["(?=corp)"] });
    expect(redactText("corp corp", lookahead)).toEqual({ value: "corp corp", counts: {}, total: 0 });
    const emptySecret = rules({ builtIn: false, regexes: ["key=(?<secret>\\w*)"] });
    expect(redactText("key= key=abc", emptySecret).value).toBe("key= key=[REDACTED:regex-1]");
  });

  it.each(["(a+)+", "(?:\\w*x)*", "(\\d+){2,}", "((ab)*c)+", "(?<n>[^/]+/?)*z"])("rejects %j, a repeated group that repeats", (source) => {
    expect(errorsOf({ regexes: [source] })).toEqual([{ rule: "regex-1", message: expect.stringMatching(/repeats/) }]);
  });

  it.each(["(?:ab)+", "[a+]+", "\\(a+\\)+", "a+b+", "(a+){2}", "(?<secret>[a-z]+)@x", "[(]a+[)]+"])("accepts %j", (source) => {
    expect(hasNestedRepetition(source)).toBe(false);
    expect(errorsOf({ regexes: [source] })).toEqual([]);
  });
});

describe("rule order", () => {
  it("applies built-ins, literals, regexes, home paths in turn, and never masks a mask", () => {
    // each user rule would match a mask if it could see one
    const compiled = rules({ literals: ["REDACTED", "sam"], regexes: ["\\[[^\\]]*\\]", "[A-Z]+:[a-z-]+"], homePaths: true });
    expect(compiled.list.map((r) => r.kind)).toEqual([...SECRET_PATTERNS.map(() => "built-in"), "literal", "literal", "regex", "regex", "home-path"]);
    const { value, counts } = redactText(`${JWT} [note] /home/sam/x`, compiled);
    // the literal's mask also leaves "/home/" without a name, so the home rule finds none
    expect(value).toBe("[REDACTED:jwt] [REDACTED:regex-1] /home/[REDACTED:literal-2]/x");
    expect(counts).toEqual({ jwt: 1, "literal-2": 1, "regex-1": 1 });
  });

  it("keeps masks already in the input as they are", () => {
    const compiled = rules({ literals: ["jwt]"], regexes: ["REDACT\\w+"] });
    const once = redactText(`a ${GITHUB} b`, compiled).value;
    expect(once).toBe("a [REDACTED:github-token] b");
    expect(redactText(once, compiled)).toEqual({ value: once, counts: {}, total: 0 });
    expect(redactText("[REDACTED:jwt] REDACTING", compiled).value).toBe("[REDACTED:jwt] [REDACTED:regex-1]");
  });

  it("a secret the built-ins catch counts for them, not for a user rule that matches it too", () => {
    expect(redactText(`use ${GITHUB}`, rules({ literals: [GITHUB] })).counts).toEqual({ "github-token": 1 });
    expect(redactText(`use ${GITHUB}`, rules({ builtIn: false, literals: [GITHUB] })).counts).toEqual({ "literal-1": 1 });
  });

  it("without options, redacts exactly as the built-in defaults do", () => {
    const sample = `${GITHUB} ${JWT} /home/sam ${CUSTOMER}`;
    expect(redactText(sample, rules({}))).toEqual(redactText(sample));
  });
});

describe("the options-taking exports", () => {
  it("redactJsonValue and redactSession use the rules given", () => {
    const compiled = rules({ literals: [CUSTOMER] });
    const counts = {};
    expect(redactJsonValue({ id: CUSTOMER, note: [CUSTOMER] }, counts, compiled)).toEqual({ id: CUSTOMER, note: ["[REDACTED:literal-1]"] });
    expect(counts).toEqual({ "literal-1": 1 });
    const session = Session.fromText(sessionNaming(CUSTOMER));
    const redacted = redactSession(session, compiled);
    expect(redacted.counts).toEqual({ "literal-1": 7 });
    const markdown = transcriptMarkdown(redacted.value, "l1");
    expect(markdown).toContain("[REDACTED:literal-1]");
    expect(markdown).not.toContain(`to ${CUSTOMER}`);
  });
});

describe("redactionRecord", () => {
  it("lists every rule with its kind, words and count, and never the user's text", () => {
    const regex = "corp\\.internal\\.[a-z]+";
    const compiled = rules({ literals: [CUSTOMER], regexes: [regex], homePaths: true });
    const { counts } = redactText(`${CUSTOMER} at build.corp.internal.eu, ${GITHUB}, /home/sam/x`, compiled);
    const record = redactionRecord(compiled, counts);
    expect(record.total).toBe(4);
    expect(record.rules.length).toBe(SECRET_PATTERNS.length + 3);
    expect(record.rules.find((r) => r.name === "github-token")).toMatchObject({ kind: "built-in", count: 1 });
    expect(record.rules.find((r) => r.name === "jwt")).toMatchObject({ kind: "built-in", count: 0 });
    expect(record.rules.slice(-3)).toEqual([
      { name: "literal-1", kind: "literal", description: "a literal string (17 characters)", count: 1 },
      { name: "regex-1", kind: "regex", description: "a regular expression", count: 1 },
      { name: "home-path", kind: "home-path", description: expect.stringContaining("~"), count: 1 },
    ]);
    const serialized = JSON.stringify(record);
    for (const secret of [CUSTOMER, "Globex", regex, "corp", "sam", GITHUB]) expect(serialized).not.toContain(secret);
  });
});
