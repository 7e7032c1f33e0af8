import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Session } from "../session";
import { clip, countKinds, describeEntry, kindAt, kindOf, modelAt, modelOf, toolCallLabel } from "./describe";
import { Rng } from "../session/testing/rng";
import { allFixtureSessions } from "./testing/fixtures";
import { fixtureSession } from "./testing/fixtures";

describe("describeEntry", () => {
  const session = fixtureSession("ca-roles-a");
  const entries = session.tree.entries.filter((e) => typeof e.id === "string");

  it("gives every entry type and message role of the roles fixture a kind and a title", () => {
    for (const entry of entries) {
      const d = describeEntry(entry);
      expect(d.title.length).toBeGreaterThan(0);
      if (entry.type === "message") {
        const role = (entry.message as { role: string }).role;
        const expected = {
          user: "user",
          assistant: "assistant",
          toolResult: "toolResult",
          bashExecution: "bashExecution",
          custom: "custom",
          branchSummary: "branchSummary",
          compactionSummary: "compaction",
        }[role];
        expect(d.kind).toBe(expected);
      }
    }
  });

  it("names tool calls with their main argument", () => {
    const assistant = entries.find((e) => e.type === "message" && JSON.stringify(e.message).includes('"toolCall"'))!;
    const calls = (assistant.message as { content: { type: string; name: string; arguments: Record<string, unknown> }[] }).content.filter(
      (b) => b.type === "toolCall",
    );
    const d = describeEntry(assistant);
    expect(d.tools).toEqual(calls.map((c) => toolCallLabel(c.name, c.arguments)));
    expect(d.tools[0]).toMatch(new RegExp(`^${calls[0]!.name}\\(`));
  });

  it("flags failed tool results and bash commands", () => {
    for (const entry of entries) {
      const message = entry.message as Record<string, unknown> | undefined;
      if (message?.role === "toolResult") expect(describeEntry(entry).error).toBe(message.isError === true);
      if (message?.role === "bashExecution") {
        const failed = message.cancelled === true || (typeof message.exitCode === "number" && message.exitCode !== 0);
        expect(describeEntry(entry).error).toBe(failed);
      }
    }
  });

  it("reports the model of model changes and assistant messages", () => {
    for (const entry of entries) {
      if (entry.type === "model_change") expect(describeEntry(entry).model).toBe(`${entry.provider}/${entry.modelId}`);
      const message = entry.message as Record<string, unknown> | undefined;
      if (message?.role === "assistant") expect(describeEntry(entry).model).toBe(`${message.provider}/${message.model}`);
    }
  });

  it.each(allFixtureSessions())("kindOf and modelOf agree with describeEntry on every entry of $name", ({ session }) => {
    for (const entry of session.tree.entries) {
      expect(kindOf(entry)).toBe(describeEntry(entry).kind);
      expect(modelOf(entry)).toBe(describeEntry(entry).model);
    }
  });

  it.each(allFixtureSessions())("kindAt and modelAt read from the tree's columns what kindOf and modelOf read from each entry of $name", ({ session }) => {
    const tree = session.tree;
    for (let slot = 0; slot < tree.entryCount; slot++) {
      const entry = tree.entryAt(slot);
      expect([kindAt(tree, slot), modelAt(tree, slot)]).toEqual([kindOf(entry), modelOf(entry)]);
    }
  });

  it("gives no kind to types and roles that name an object's own properties", () => {
    const text = [
      JSON.stringify({ type: "session", version: 3, id: "s", timestamp: "t", cwd: "/" }),
      JSON.stringify({ type: "constructor", id: "a", parentId: null, timestamp: "t" }),
      JSON.stringify({ type: "message", id: "b", parentId: "a", timestamp: "t", message: { role: "toString" } }),
      JSON.stringify({ type: "__proto__", id: "c", parentId: "b", timestamp: "t" }),
    ].join("\n");
    const tree = Session.fromText(text).tree;
    for (let slot = 0; slot < 3; slot++) expect([kindAt(tree, slot), kindOf(tree.entryAt(slot))]).toEqual(["unknown", "unknown"]);
  });

  it("reads only the start of huge contents", () => {
    const huge = {
      type: "message",
      id: "h",
      message: { role: "toolResult", toolName: "read", content: [{ type: "text", text: "word ".repeat(500_000) }], isError: false },
    };
    expect(describeEntry(huge).text.length).toBeLessThanOrEqual(120);
  });

  it("survives entries that are not what they claim", () => {
    expect(describeEntry({ type: "message", id: "x" }).kind).toBe("unknown");
    expect(describeEntry({ id: "y" }).title).toBe("(no type)");
    expect(describeEntry({ type: "leaf", id: "z", targetId: null }).kind).toBe("leaf");
  });

  it("clips and counts", () => {
    expect(clip("a\n\n  b", 10)).toBe("a b");
    expect(clip("x".repeat(20), 10)).toHaveLength(10);
    expect(countKinds(["user", "assistant", "toolResult", "bashExecution", "label"])).toEqual({ user: 1, assistant: 1, tool: 2, other: 1 });
  });

  it("clips as collapsing \\s+ to one space, trimming and cutting would (the start of the text only)", () => {
    const byRegex = (text: string, max: number) => {
      const flat = text
        .slice(0, max * 4)
        .replace(/\s+/g, " ")
        .trim();
      return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
    };
    const pieces = ["a", "bc", " ", "  ", "\n", "\t\r", "\u00a0", "\u2028", "\u3000", "\ufeff", "\u200b", "é", "😀", "xyz"];
    const rng = new Rng(11);
    for (let n = 0; n < 3000; n++) {
      let text = "";
      const length = rng.int(300);
      for (let i = 0; i < length; i++) text += pieces[rng.int(pieces.length)];
      for (const max of [1, 2, 7, 48, 120]) expect(clip(text, max), JSON.stringify(text)).toBe(byRegex(text, max));
    }
  });
});

describe("entries written by newer pi versions", () => {
  const dir = path.join(__dirname, "../../e2e/fixtures/sessions/--home-dev-projects-newest--");
  const entries = readdirSync(dir)
    .filter((name) => name.endsWith(".jsonl"))
    .flatMap((name) => Session.fromText(readFileSync(path.join(dir, name), "utf8")).tree.entries);

  it("gives usage, context_edit and system messages their own kinds, never unknown", () => {
    const usage = entries.filter((e) => e.type === "usage");
    const edits = entries.filter((e) => e.type === "context_edit");
    const system = entries.filter((e) => e.type === "message" && (e.message as { role?: unknown }).role === "system");
    expect(usage.length && edits.length && system.length).toBeTruthy();
    for (const entry of usage) expect([describeEntry(entry).kind, kindOf(entry)]).toEqual(["usage", "usage"]);
    for (const entry of edits) expect([describeEntry(entry).kind, kindOf(entry)]).toEqual(["contextEdit", "contextEdit"]);
    for (const entry of system) expect([describeEntry(entry).kind, kindOf(entry)]).toEqual(["system", "system"]);
  });

  it("says what a context_edit does to its target", () => {
    for (const entry of entries.filter((e) => e.type === "context_edit")) {
      const text = describeEntry(entry).text;
      if (entry.replacement === null) expect(text).toBe(`removes ${entry.targetId as string}`);
      else expect(text.startsWith(`replaces ${entry.targetId as string}: `)).toBe(true);
    }
  });

  it("sums a usage record's tokens as pi wrote them", () => {
    const entry = entries.find((e) => e.type === "usage")!;
    const usage = entry.usage as { input: number; output: number };
    expect(describeEntry(entry).text.startsWith(`${usage.input.toLocaleString("en-US")} in · ${usage.output.toLocaleString("en-US")} out`)).toBe(true);
  });
});
