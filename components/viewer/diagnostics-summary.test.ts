import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Session } from "../../lib/session";
import { diagnosticsHeadline, summarizeDiagnostics } from "./diagnostics-summary";

const SESSIONS = path.join(__dirname, "../../e2e/fixtures/sessions");
const open = (rel: string) => Session.fromText(readFileSync(path.join(SESSIONS, rel), "utf8"));

describe("summarizeDiagnostics", () => {
  it("counts the unreadable lines of a file with a malformed line apart from other issues", () => {
    const session = open("--home-dev-projects-edge--/2026-02-02T10-00-00-000Z_0199f0aa-1111-7222-8333-444455556666.jsonl");
    const summary = summarizeDiagnostics(session);
    expect(summary.unreadable).toBe(session.account().unreadable);
    expect(summary.unreadable).toBeGreaterThan(0);
    const unreadableLines = [...session.parser.unreadable.keys()];
    expect(summary.all.filter((d) => unreadableLines.includes(d.line)).length).toBeGreaterThan(0);
    expect(diagnosticsHeadline(summary)).toMatch(/^1 line could not be read/);
  });

  it("has nothing to say about a clean file", () => {
    const summary = summarizeDiagnostics(open("--home-dev-src-pi-viewer--/2026-01-09T12-00-00-001Z_019ba2a0-b600-70e6-8877-21a2c363a4ac.jsonl"));
    expect(summary.worst).toBeNull();
    expect(diagnosticsHeadline(summary)).toBe("");
  });

  it("words counts in the singular and plural", () => {
    const base = { worst: "warning" as const, all: [] };
    expect(diagnosticsHeadline({ ...base, unreadable: 2, otherIssues: 1 })).toBe("2 lines could not be read · 1 other issue");
    expect(diagnosticsHeadline({ ...base, unreadable: 0, otherIssues: 3 })).toBe("3 issues");
  });
});
