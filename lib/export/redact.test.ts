import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Session } from "@/lib/session";
import { listFixtures } from "@/lib/session/testing/golden";
import { transcriptMarkdown } from "@/lib/export/markdown-transcript";
import { describeRedaction, redactJsonl, redactJsonValue, redactSession, redactText, SECRET_PATTERNS } from "./redact";

// fake secrets of the right shapes, assembled so that no literal key sits in the source
const alnum = (n: number, seed = 7) => Array.from({ length: n }, (_, i) => "A1b2C3d4E5f6G7h8J9k0"[(i * seed) % 20]).join("");
const upper = (n: number) => Array.from({ length: n }, (_, i) => "QWERTYUIOP2345ASDF67"[i % 20]).join("");
const PEM = ["-----BEGIN RSA PRIVATE KEY-----", "MIIEowIBAAKCAQEA" + alnum(40), alnum(64), "-----END RSA PRIVATE KEY-----"].join("\n");
const JWT = "eyJhbGciOiJIUzI1NiJ9" + ".eyJzdWIiOiIxMjM0NTY3ODkwIn0" + "." + alnum(43);

const positives: Record<string, string[]> = {
  "private-key": [
    PEM,
    `key:\n-----BEGIN OPENSSH PRIVATE KEY-----\n${alnum(70)}\n-----END OPENSSH PRIVATE KEY-----\n`,
    `-----BEGIN PRIVATE KEY-----\n${alnum(64)}\n(output truncated)`,
    `-----BEGIN ENCRYPTED PRIVATE KEY-----\n${alnum(64)}\n-----END ENCRYPTED PRIVATE KEY-----`,
  ],
  "aws-access-key-id": [`AKIA${upper(16)}`, `export AWS_ACCESS_KEY_ID=ASIA${upper(16)}`],
  "aws-secret-access-key": [`aws_secret_access_key = ${alnum(36)}/+ab`, `"SecretAccessKey": "${alnum(40)}"`, `AWS_SECRET_ACCESS_KEY=${alnum(40)}`],
  "github-token": [`ghp_${alnum(36)}`, `gho_${alnum(36)}`, `ghs_${alnum(40)}`, `github_pat_11${alnum(20)}_${alnum(59)}`],
  "anthropic-key": [`sk-ant-api03-${alnum(80)}`, `ANTHROPIC_API_KEY=sk-ant-${alnum(30)}`],
  "openai-key": [`sk-${alnum(48)}`, `sk-proj-${alnum(40)}_${alnum(20)}`, `OPENAI_API_KEY="sk-svcacct-${alnum(30)}"`],
  "stripe-key": [`sk_live_${alnum(24)}`, `rk_live_${alnum(30)}`, `sk_test_${alnum(24)}`],
  "slack-token": [
    `xoxb-${alnum(12)}-${alnum(12)}-${alnum(24)}`,
    `xoxp-${alnum(40)}`,
    `https://hooks.slack.com/services/T${upper(8)}/B${upper(8)}/${alnum(24)}`,
  ],
  "google-api-key": [`AIza${alnum(35)}`, `key=AIza${alnum(33)}-_`],
  jwt: [JWT, `token: ${JWT}`],
  "bearer-token": [`Authorization: Bearer ${alnum(32)}`, `curl -H "authorization: bearer ${alnum(20)}.${alnum(10)}"`],
  "url-password": [
    "postgres://admin:hunter2hunter2@db.internal:5432/app",
    "https://user:p4ss%40word@example.com/x",
    "mongodb+srv://svc:S3cr3t!@cluster0.example.net",
  ],
  "query-secret": ["https://api.example.com/v1?user=a&password=hunter2", "GET /login?token=abc123def456 HTTP/1.1", "curl 'https://x.test/?api_key=k3y&x=1'"],
};

const negatives: Record<string, string[]> = {
  "private-key": [
    "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkq\n-----END PUBLIC KEY-----",
    "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----",
    "the private key is in ~/.ssh/id_ed25519",
  ],
  "aws-access-key-id": [`AKIA${upper(10)}`, `XAKIA${upper(16)}`, "AKIAlowercaseletters1"],
  "aws-secret-access-key": [`some_other_key = ${alnum(40)}`, "aws_secret_access_key = ${AWS_SECRET}"],
  "github-token": ["ghp_short", `ghx_${alnum(36)}`, "github_pat_", "see github.com/ghp_docs"],
  "anthropic-key": ["sk-ant-short", "the task-ant-colony test"],
  "openai-key": ["sk-short", `task-${alnum(30)}`, "risk-assessment-for-the-quarterly-plan", "sk-learn is scikit-learn"],
  "stripe-key": ["sk_live_short", `pk_live_${alnum(24)}`, `sk_prod_${alnum(24)}`],
  "slack-token": ["xoxb-", "xoxz-1234567890abc", "https://hooks.slack.com/services/"],
  "google-api-key": [`AIza${alnum(20)}`, `BIza${alnum(35)}`],
  jwt: ["eyJhbGciOiJIUzI1NiJ9", "eyJ.eyJ.sig", `header.${alnum(20)}.${alnum(20)}`],
  "bearer-token": ["Bearer short", "the bearer of bad news", "Authorization: Basic dXNlcjpwYXNz"],
  "url-password": ["https://example.com/path", "git@github.com:org/repo.git", "https://user@example.com/", "mailto:someone@example.com"],
  "query-secret": ["https://example.com/?page=2&sort=asc", "the password= field is empty in the form", "tokens=3&passwords=4"],
};

describe("secret patterns", () => {
  it("has positive and negative samples for every pattern", () => {
    expect(Object.keys(positives).sort()).toEqual(SECRET_PATTERNS.map((p) => p.name).sort());
    expect(Object.keys(negatives).sort()).toEqual(SECRET_PATTERNS.map((p) => p.name).sort());
  });

  describe.each(SECRET_PATTERNS.map((p) => p.name))("%s", (name) => {
    it.each(positives[name]!)("masks %s", (sample) => {
      const { value, counts, total } = redactText(`before ${sample} after`);
      expect(counts[name], JSON.stringify(counts)).toBe(1);
      expect(total).toBe(1);
      expect(value).toContain(`[REDACTED:${name}]`);
      expect(value.startsWith("before ")).toBe(true);
      expect(value.endsWith(" after") || name === "private-key").toBe(true);
    });

    it.each(negatives[name]!)("leaves %s alone", (sample) => {
      const { value, counts } = redactText(sample);
      expect(counts[name]).toBeUndefined();
      expect(value).toBe(sample);
    });
  });

  it("keeps the context around a masked part: the scheme, user, header name and parameter name stay", () => {
    expect(redactText("postgres://admin:hunter2hunter2@db:5432/app").value).toBe("postgres://admin:[REDACTED:url-password]@db:5432/app");
    expect(redactText(`Authorization: Bearer ${alnum(32)}`).value).toBe("Authorization: Bearer [REDACTED:bearer-token]");
    expect(redactText("https://x.test/?a=1&password=hunter2&b=2").value).toBe("https://x.test/?a=1&password=[REDACTED:query-secret]&b=2");
  });

  it("counts a secret once even where two patterns would match it", () => {
    const { counts, total } = redactText(`Authorization: Bearer ${JWT}`);
    expect(counts).toEqual({ jwt: 1 });
    expect(total).toBe(1);
    expect(redactText(`https://u:${alnum(10)}@h/?token=${alnum(12)}`).total).toBe(2);
  });

  it("redacts again without finding anything new", () => {
    // a cut-off key block runs to the end of the text, so it goes last
    const samples = Object.values(positives)
      .flat()
      .sort((a, b) => Number(a.includes("(output truncated)")) - Number(b.includes("(output truncated)")));
    const once = redactText(samples.join("\n"));
    expect(once.total).toBe(samples.length);
    expect(redactText(once.value).total).toBe(0);
  });

  it("words the count for the user", () => {
    expect(describeRedaction({})).toBe("Masked 0 secrets");
    expect(describeRedaction({ "github-token": 2, jwt: 1 })).toBe("Masked 3 secrets (2 github-token, 1 jwt)");
    expect(describeRedaction({ jwt: 1 })).toBe("Masked 1 secret (1 jwt)");
  });
});

describe("redactJsonValue", () => {
  it("redacts strings at any depth, keys too, and keeps the structure where pi's schema puts it", () => {
    const token = `ghp_${alnum(36)}`;
    const counts = {};
    const value = {
      id: token,
      parentId: token,
      type: "message",
      [token]: 1,
      message: {
        role: "assistant",
        content: [
          { type: "text", text: `use ${token}` },
          { type: "toolCall", id: token, name: "bash", arguments: { id: token, type: token, nested: { [token]: { id: token } } } },
        ],
      },
      list: [token],
    };
    const out = redactJsonValue(value, counts) as typeof value;
    expect(out.id).toBe(token);
    expect(out.parentId).toBe(token);
    expect(Object.keys(out)).toEqual(["id", "parentId", "type", "[REDACTED:github-token]", "message", "list"]);
    expect(out.message.content[0]!.text).toBe("use [REDACTED:github-token]");
    // the tool call's id pairs it with its result; the same names inside its arguments are the model's text
    expect(out.message.content[1]).toEqual({
      type: "toolCall",
      id: token,
      name: "bash",
      arguments: { id: "[REDACTED:github-token]", type: "[REDACTED:github-token]", nested: { "[REDACTED:github-token]": { id: "[REDACTED:github-token]" } } },
    });
    expect(out.list).toEqual(["[REDACTED:github-token]"]);
    expect(counts).toEqual({ "github-token": 7 });
    expect(value.message.content[0]!.text).toBe(`use ${token}`); // the input is not changed
  });

  it("keeps every value when two keys are masked alike", () => {
    const [a, b] = [`ghp_${alnum(36)}`, `ghp_${alnum(36, 3)}`];
    const out = redactJsonValue({ type: "custom", data: { [a]: 1, [b]: 2, "[REDACTED:github-token] (2)": 3 } }) as { data: object };
    expect(out.data).toEqual({ "[REDACTED:github-token]": 1, "[REDACTED:github-token] (2)": 2, "[REDACTED:github-token] (2) (2)": 3 });
  });

  it("walks a 100k-deep value without overflowing the stack", () => {
    let deep: unknown = `sk-${alnum(40)}`;
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    const counts = {};
    redactJsonValue(deep, counts);
    expect(counts).toEqual({ "openai-key": 1 });
  });
});

/** A session whose every kind of text holds a secret. */
function sessionWithSecrets(): string {
  const t = (s: number) => `2026-01-01T00:00:${String(s).padStart(2, "0")}.000Z`;
  const lines = [
    { type: "session", version: 3, id: "s1", timestamp: t(0), cwd: "/home/dev/app" },
    { type: "message", id: "u1", parentId: null, timestamp: t(1), message: { role: "user", content: `deploy with AKIA${upper(16)} please`, timestamp: 1 } },
    {
      type: "message",
      id: "a1",
      parentId: "u1",
      timestamp: t(2),
      message: {
        role: "assistant",
        content: [
          { type: "thinking", thinking: `the key is sk-ant-${alnum(30)}` },
          { type: "toolCall", id: "c1", name: "bash", arguments: { command: `curl -H 'Authorization: Bearer ${alnum(30)}' https://api.test` } },
        ],
        provider: "anthropic",
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
      message: { role: "toolResult", toolCallId: "c1", toolName: "bash", content: [{ type: "text", text: PEM }], isError: false, timestamp: 3 },
    },
    { type: "label", id: "l1", parentId: "r1", timestamp: t(4), targetId: "u1", label: `ghp_${alnum(36)}` },
    {
      type: "custom_message",
      id: "m1",
      parentId: "l1",
      timestamp: t(5),
      customType: "note",
      content: `db at postgres://app:${alnum(12)}@db/app`,
      display: true,
    },
  ];
  return lines.map((l) => JSON.stringify(l) + "\n").join("");
}

describe("redacting exports", () => {
  it("a redacted fork is still a pi session with the same tree and path", () => {
    const session = Session.fromText(sessionWithSecrets());
    const fork = session.fork("m1", { timestamp: "2026-01-02T00:00:00.000Z", sessionId: "f1" });
    const redacted = redactJsonl(fork.text);
    expect(redacted.counts).toEqual({ "aws-access-key-id": 1, "anthropic-key": 1, "bearer-token": 1, "private-key": 1, "github-token": 1, "url-password": 1 });
    const original = Session.fromText(fork.text);
    const copy = Session.fromText(redacted.value);
    expect(copy.parser.diagnostics).toEqual(original.parser.diagnostics);
    expect(copy.leafId).toBe(original.leafId);
    expect(copy.branch(copy.leafId!).map((e) => [e.id, e.parentId, e.type])).toEqual(original.branch(original.leafId!).map((e) => [e.id, e.parentId, e.type]));
    expect(copy.context(copy.leafId).entryIds).toEqual(original.context(original.leafId).entryIds);
    expect(redacted.value).not.toMatch(/AKIA[0-9A-Z]{16}|sk-ant-|PRIVATE KEY-----\n[^-]|ghp_|Bearer [A-Za-z0-9]{16}/);
  });

  it("a transcript written from the redacted session holds no secret and the same entries", () => {
    const session = Session.fromText(sessionWithSecrets());
    const redacted = redactSession(session);
    expect(redacted.total).toBe(6);
    expect(redacted.value.leafId).toBe(session.leafId);
    expect(redacted.value.reader).toBe(session.reader);
    const markdown = transcriptMarkdown(redacted.value, "m1");
    expect(markdown).toContain("[REDACTED:private-key]");
    expect(markdown).not.toMatch(/AKIA[0-9A-Z]{16}|sk-ant-|BEGIN RSA PRIVATE KEY-----\n|Bearer [A-Za-z0-9]{16}|postgres:\/\/app:[A-Za-z0-9]/);
    expect(redactText(markdown).total).toBe(0);
  });

  it("redacting every fixture's fork keeps it a valid session with the same path", () => {
    for (const fixture of listFixtures().filter((f) => !f.name.includes("large"))) {
      const session = Session.fromText(readFileSync(fixture.file, "utf8"));
      const leaf = session.leafId;
      if (!leaf) continue;
      let text: string;
      try {
        text = session.fork(leaf, { timestamp: "2026-01-02T00:00:00.000Z", sessionId: "f" }).text;
      } catch {
        continue; // pi cannot fork this file (the round-trip test covers why)
      }
      const copy = Session.fromText(redactJsonl(text).value);
      const original = Session.fromText(text);
      expect(
        copy.branch(copy.leafId!).map((e) => e.id),
        fixture.name,
      ).toEqual(original.branch(original.leafId!).map((e) => e.id));
    }
  });
});
