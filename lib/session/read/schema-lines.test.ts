import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SchemaLineChecker } from "./schema-lines";
import { Session } from "../session";
import { SessionParser } from "./parse";
import { listFixtures } from "../testing/golden";

/** The session as the viewer builds it: the parser fed in chunks, the schema checked from the same text apart. */
function checkedApart(text: string, chunk: number): Session {
  const parser = new SessionParser();
  const checker = new SchemaLineChecker();
  for (let i = 0; i < text.length; i += chunk) {
    parser.push(text.slice(i, i + chunk));
    checker.push(text.slice(i, i + chunk));
  }
  return new Session(parser.end(), { schemaChecked: checker.result() });
}

describe.each(listFixtures())("$name: schema checked apart", (fixture) => {
  const text = readFileSync(fixture.file, "utf8");

  it("gives the diagnostics Session computes itself", () => {
    const own = Session.fromText(text).diagnostics();
    expect(checkedApart(text, text.length || 1).diagnostics()).toEqual(own);
    expect(checkedApart(text, 97).diagnostics()).toEqual(own);
  });
});

describe("SchemaLineChecker", () => {
  const header = JSON.stringify({ type: "session", version: 3, id: "s", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" });
  const bad = JSON.stringify({ type: "model_change", id: "a", parentId: null, timestamp: "2026-01-01T00:00:01.000Z", provider: 7, modelId: "m" });

  it("finds what Session finds, by line", () => {
    const text = `${header}\n\n${bad}\n`;
    const own = Session.fromText(text).schemaDiagnostics();
    expect(own).toHaveLength(1);
    const checker = new SchemaLineChecker();
    checker.push(text);
    expect(checker.result().lines).toBe(3);
    expect([...checker.result().issues.keys()]).toEqual([3]);
    expect(checkedApart(text, 5).schemaDiagnostics()).toEqual(own);
  });

  it("leaves a final line without newline to the session, which checks it itself as it grows", () => {
    const parser = new SessionParser();
    const checker = new SchemaLineChecker();
    const torn = `${header}\n${bad.slice(0, 20)}`;
    parser.push(torn);
    checker.push(torn);
    expect(checker.result().lines).toBe(1);
    const session = new Session(parser.end(), { schemaChecked: checker.result() });
    expect(session.schemaDiagnostics()).toEqual([]);
    expect(parser.reopen()).toBe(true);
    parser.push(`${bad.slice(0, 20)}${bad.slice(20)}\n`);
    parser.end();
    expect(session.schemaDiagnostics()).toEqual(Session.fromText(`${header}\n${bad}\n`).schemaDiagnostics());
  });
});
