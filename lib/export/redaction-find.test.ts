import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { listFixtures } from "@/lib/session/testing/golden";
import { redactJsonl, type RedactionRules } from "./redact";
import { CONTEXT_CHARS, findRedactions, jsonPath } from "./redaction-find";
import { compileRedaction, type RedactionOptions } from "./redaction-rules";

// fake secrets assembled from parts, as in redact.test.ts
const alnum = (n: number) => Array.from({ length: n }, (_, i) => "A1b2C3d4E5f6G7h8J9k0"[(i * 7) % 20]).join("");
const GITHUB = `ghp_${alnum(36)}`;
const PEM = ["-----BEGIN RSA PRIVATE KEY-----", alnum(64), alnum(64), alnum(64), "-----END RSA PRIVATE KEY-----"].join("\n");
const CUSTOMER = ["Glo", "bex"].join("");

function rules(options: RedactionOptions): RedactionRules {
  const compiled = compileRedaction(options);
  if ("errors" in compiled) throw new Error(JSON.stringify(compiled.errors));
  return compiled;
}

const USER_RULES = rules({ literals: [CUSTOMER, "the"], regexes: ["[A-Z][a-z]+Error", "session (?<secret>[0-9a-f]{4,})"], homePaths: true });

function expectSameCounts(text: string, compiled: RedactionRules, label?: string) {
  const found = findRedactions(text.split("\n"), compiled, { limit: 10 });
  const redacted = redactJsonl(text, compiled);
  expect(found.counts, label).toEqual(redacted.counts);
  expect(found.total, label).toBe(redacted.total);
  return found;
}

describe("findRedactions", () => {
  const lines = [
    JSON.stringify({ type: "session", id: "s1", cwd: "/home/dev/app" }),
    "",
    JSON.stringify({
      type: "message",
      id: "u1",
      parentId: null,
      message: { role: "user", content: [{ type: "text", text: `line one\nask ${CUSTOMER}\tabout ${GITHUB} today` }] },
    }),
    "not json: " + CUSTOMER,
    JSON.stringify({
      type: "message",
      id: "a1",
      parentId: "u1",
      message: { role: "assistant", content: [{ type: "toolCall", id: CUSTOMER, name: "bash", arguments: { "odd-key": [`echo ${CUSTOMER}`] } }] },
    }),
  ];

  it("says which rule matched, on which line, in which entry and field, with the text around it", () => {
    const found = findRedactions(lines, USER_RULES);
    expect(found.counts).toEqual({ "github-token": 1, "literal-1": 3, "home-path": 1 });
    expect(found.total).toBe(5);
    expect(found.truncated).toBe(false);
    const places = found.hits.map(({ rule, line, entryId, field }) => ({ rule, line, entryId, field }));
    expect(places).toEqual([
      { rule: "home-path", line: 1, entryId: "s1", field: "cwd" },
      { rule: "github-token", line: 3, entryId: "u1", field: "message.content[0].text" },
      { rule: "literal-1", line: 3, entryId: "u1", field: "message.content[0].text" },
      { rule: "literal-1", line: 4, entryId: null, field: "" },
      { rule: "literal-1", line: 5, entryId: "a1", field: 'message.content[0].arguments["odd-key"][0]' },
    ]);
    expect(found.hits[1]).toMatchObject({ before: `line one ask ${CUSTOMER} about `, match: GITHUB, after: " today" });
    expect(found.hits[2]).toMatchObject({ before: "line one ask ", match: CUSTOMER, after: ` about ${GITHUB} today`.slice(0, CONTEXT_CHARS) });
    expect(found.hits[0]).toMatchObject({ before: "", match: "/home/dev", after: "/app" });
  });

  it("changes nothing and counts what redacting counts", () => {
    const copy = [...lines];
    expectSameCounts(lines.join("\n"), USER_RULES);
    findRedactions(lines, USER_RULES);
    expect(lines).toEqual(copy);
  });

  it("keeps the context to about 40 characters a side on one line, and a long match to its ends", () => {
    const text = `${"x".repeat(100)}\n${"y\r\n".repeat(30)}${PEM}\n${"z".repeat(100)}`;
    const [hit] = findRedactions([JSON.stringify({ id: "e", note: text })], USER_RULES).hits;
    expect(hit!.rule).toBe("private-key");
    expect(hit!.before.length).toBe(CONTEXT_CHARS);
    expect(hit!.after).toBe(" " + "z".repeat(CONTEXT_CHARS - 1));
    for (const part of [hit!.before, hit!.match, hit!.after]) expect(part).not.toMatch(/[\r\n\t]/);
    expect(hit!.match.length).toBeLessThan(PEM.length);
    expect(hit!.match.startsWith("-----BEGIN RSA PRIVATE KEY----- ")).toBe(true);
    expect(hit!.match.endsWith(" -----END RSA PRIVATE KEY-----")).toBe(true);
  });

  it("does not cut a character in two at the edge of the context", () => {
    const [hit] = findRedactions([JSON.stringify({ note: "😀".repeat(30) + CUSTOMER + "😀".repeat(30) })], USER_RULES).hits;
    expect(hit!.before).toBe("😀".repeat(20));
    expect(hit!.after).toBe("😀".repeat(20));
  });

  it("stops listing at the limit but counts everything", () => {
    const many = Array.from({ length: 50 }, (_, i) => JSON.stringify({ id: `e${i}`, text: `${CUSTOMER} and ${CUSTOMER}` }));
    const found = findRedactions(many, USER_RULES, { limit: 7 });
    expect(found.hits.length).toBe(7);
    expect(found.total).toBe(100);
    expect(found.counts).toEqual({ "literal-1": 100 });
    expect(found.truncated).toBe(true);
    expect(findRedactions(many, USER_RULES, { limit: 0 }).hits).toEqual([]);
  });

  it("finds a secret in a key, and says which object holds it", () => {
    const line = JSON.stringify({
      type: "message",
      id: "a2",
      message: { role: "assistant", content: [{ type: "toolCall", id: "c", name: "x", arguments: { [GITHUB]: { id: CUSTOMER } } }] },
    });
    const found = expectSameCounts(line, USER_RULES);
    expect(found.hits.map(({ rule, field, match }) => ({ rule, field, match }))).toEqual([
      { rule: "github-token", field: "message.content[0].arguments{key}", match: GITHUB },
      { rule: "literal-1", field: `message.content[0].arguments.${GITHUB}.id`, match: CUSTOMER },
    ]);
    expect(findRedactions([JSON.stringify({ [CUSTOMER]: 1 })], USER_RULES).hits[0]!.field).toBe("{key}");
  });

  it("spells JSON paths for arrays at the root and keys that are not identifiers", () => {
    const found = findRedactions([JSON.stringify([{ "a b": { x: CUSTOMER } }, CUSTOMER]), JSON.stringify(CUSTOMER)], USER_RULES);
    expect(found.hits.map((h) => h.field).sort()).toEqual(["", '[0]["a b"].x', "[1]"]);
    expect(jsonPath(null, null)).toBe("");
  });

  it("counts what redacting counts on crafted inputs", () => {
    const samples = [
      `${GITHUB}${GITHUB} [REDACTED:jwt] ${CUSTOMER}${CUSTOMER}`,
      "/home/sam/the/home/sam C:\\Users\\the\\x",
      "session abcdef, session 12, TypeError and theThe",
      PEM.slice(0, 80),
    ];
    const text = samples.flatMap((s, i) => [JSON.stringify({ id: `e${i}`, a: [s, { b: s }] }), s, "  "]).join("\r\n");
    const found = expectSameCounts(text, USER_RULES);
    expect(found.total).toBeGreaterThan(20);
    expectSameCounts(text, rules({}));
  });

  it("counts what redacting counts on every fixture", () => {
    const fixtures = listFixtures();
    expect(fixtures.length).toBeGreaterThan(10);
    let total = 0;
    for (const fixture of fixtures) {
      const text = readFileSync(fixture.file, "utf8");
      total += expectSameCounts(text, USER_RULES, fixture.name).total;
      expectSameCounts(text, rules({}), fixture.name);
    }
    expect(total).toBeGreaterThan(1000);
  });
});
