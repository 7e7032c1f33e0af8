import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { describeEntry } from "@/lib/layout/describe";
import { Session } from "@/lib/session";
import { FIXTURES_DIR } from "@/lib/session/testing/golden";
import { entryKind, entrySnippet, messageKind, messageSnippet } from "./entry-kind";

const roles = Session.fromText(readFileSync(path.join(FIXTURES_DIR, "ca-roles-a.jsonl"), "utf8"));

describe("entryKind", () => {
  it("gives every entry of a file a label, agreeing with the graph's description", () => {
    for (const entry of roles.tree.entries) {
      const kind = entryKind(entry);
      expect(kind.kind).toBe(describeEntry(entry).kind);
      expect(kind.label.length).toBeGreaterThan(0);
    }
  });

  it("marks failures with the error tone", () => {
    const failed = roles.tree.entries.find((e) => e.type === "message" && (e.message as { isError?: boolean }).isError === true)!;
    expect(entryKind(failed).tone).toBe("error");
    expect(entryKind(failed).label).toBe("Tool error");
    expect(messageKind(null)).toMatchObject({ tone: "error", label: "Message without message" });
    expect(messageKind({ role: "hookMessage2" }).label).toBe("Message: hookMessage2");
  });

  it("tells unknown types by their name", () => {
    expect(entryKind({ type: "future_thing", id: "x" }).label).toBe("Unknown: future_thing");
    expect(entryKind({ id: "x" }).label).toBe("Unknown: (no type)");
  });

  it("names the types and roles newer pi versions write", () => {
    expect(entryKind({ type: "context_edit", id: "x", targetId: "y", replacement: null })).toMatchObject({ label: "Context edit", tone: "setting" });
    expect(entryKind({ type: "usage", id: "x", kind: "cache_warm" })).toMatchObject({ label: "Usage", tone: "meta" });
    expect(entryKind({ type: "message", id: "x", message: { role: "system", content: "" } })).toMatchObject({ label: "System message", tone: "setting" });
  });
});

describe("entrySnippet", () => {
  it("shows tool calls of an assistant message, and the tool name of a result", () => {
    const message = { role: "assistant", content: [{ type: "toolCall", id: "t", name: "read", arguments: { path: "src/a.ts" } }] };
    expect(messageSnippet(message)).toBe("→ read(src/a.ts)");
    expect(messageSnippet({ role: "toolResult", toolName: "bash", content: [{ type: "text", text: "ok\n" }] })).toBe("bash: ok");
    expect(entrySnippet({ type: "leaf", id: "l", targetId: null })).toBe("→ (before the first entry)");
  });
});
