import { describe, expect, it } from "vitest";
import { clip, countKinds, describeEntry, kindOf, modelOf, toolCallLabel } from "./describe";
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
        const expected = { user: "user", assistant: "assistant", toolResult: "toolResult", bashExecution: "bashExecution", custom: "custom", branchSummary: "branchSummary", compactionSummary: "compaction" }[role];
        expect(d.kind).toBe(expected);
      }
    }
  });

  it("names tool calls with their main argument", () => {
    const assistant = entries.find((e) => e.type === "message" && JSON.stringify(e.message).includes('"toolCall"'))!;
    const calls = ((assistant.message as { content: { type: string; name: string; arguments: Record<string, unknown> }[] }).content).filter((b) => b.type === "toolCall");
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

  it("reads only the start of huge contents", () => {
    const huge = { type: "message", id: "h", message: { role: "toolResult", toolName: "read", content: [{ type: "text", text: "word ".repeat(500_000) }], isError: false } };
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
});
