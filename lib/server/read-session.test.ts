// A session indexed from its light lines with its content read again from the file by byte range
// (readSessionIndex, for files larger than memory) answers every question as the whole file read into memory does.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cases, sameAnswers } from "@/lib/session/testing/light-answers";
import { SessionParser } from "@/lib/session";
import { readSessionFile, readSessionIndex } from "./read-session";

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), "pi-read-index-"));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("readSessionIndex answers as readSessionFile: content read from the file by byte range", () => {
  it.each(cases().map((c, i) => ({ ...c, i })))("$name", async ({ name, text, i }) => {
    const file = path.join(tmp, `${i}.jsonl`);
    writeFileSync(file, text);
    const full = await readSessionFile(file);
    const indexed = await readSessionIndex(file);
    try {
      await sameAnswers(full, indexed.session, name);
    } finally {
      indexed.close();
    }
  });

  it.each(cases().map((c, i) => ({ ...c, i })))("$name, with 8 entry objects kept and the rest read again from the file", async ({ name, text, i }) => {
    const file = path.join(tmp, `few-${i}.jsonl`);
    writeFileSync(file, text);
    const full = await readSessionFile(file);
    const indexed = await readSessionIndex(file, { keepEntries: 8 });
    try {
      await sameAnswers(full, indexed.session, name);
    } finally {
      indexed.close();
    }
  });

  it.each(cases().map((c, i) => ({ ...c, i })))("$name, its schema checked as it is indexed", async ({ name, text, i }) => {
    const file = path.join(tmp, `schema-${i}.jsonl`);
    writeFileSync(file, text);
    const full = await readSessionFile(file);
    const indexed = await readSessionIndex(file, { keepEntries: 8, checkSchema: true });
    try {
      await sameAnswers(full, indexed.session, name);
    } finally {
      indexed.close();
    }
  });

  it("finds schema issues as it indexes (the cases above hold some)", async () => {
    const file = path.join(tmp, "schema-issues.jsonl");
    const lines = [
      { type: "session", version: 3, id: "s", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" },
      { type: "message", id: "a", parentId: null, timestamp: "2026-01-01T00:00:01.000Z", message: { role: "user", content: "hi", timestamp: 1 } },
      { type: "model_change", id: "b", parentId: "a", timestamp: "2026-01-01T00:00:02.000Z", provider: 7, modelId: "m" },
    ];
    writeFileSync(file, lines.map((e) => `${JSON.stringify(e)}\n`).join(""));
    const indexed = await readSessionIndex(file, { checkSchema: true });
    try {
      const schema = indexed.session.diagnostics().filter((d) => d.kind === "schema");
      expect(schema.map((d) => [d.line, d.entryId])).toEqual([[3, "b"]]);
      expect(schema).toEqual((await readSessionFile(file)).diagnostics().filter((d) => d.kind === "schema"));
    } finally {
      indexed.close();
    }
    let withIssues = 0;
    for (const { text } of cases()) {
      const parser = new SessionParser();
      parser.checkSchemaAsRead();
      parser.push(text);
      withIssues += parser.end().schemaCheckedAsRead!.issues.size;
    }
    expect(withIssues).toBeGreaterThan(0);
  });

  it("says so when content is asked for after the file was let go", async () => {
    const file = path.join(tmp, "closed.jsonl");
    const long = "x".repeat(4000);
    writeFileSync(
      file,
      [
        { type: "session", version: 3, id: "s", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" },
        { type: "message", id: "a", parentId: null, timestamp: "2026-01-01T00:00:01.000Z", message: { role: "user", content: long, timestamp: 1 } },
      ]
        .map((e) => `${JSON.stringify(e)}\n`)
        .join(""),
    );
    const indexed = await readSessionIndex(file);
    expect(indexed.session.tree.get("a")!.message).not.toEqual({ role: "user", content: long, timestamp: 1 });
    expect(indexed.session.tree.full(indexed.session.tree.get("a")!).message).toEqual({ role: "user", content: long, timestamp: 1 });
    indexed.close();
    const fresh = await readSessionIndex(file);
    fresh.close();
    expect(() => fresh.session.tree.full(fresh.session.tree.get("a")!)).toThrow(/closed\.jsonl is closed: line 2 cannot be read again/);
  });
});
