import { describe, expect, it } from "vitest";
import { toolViewOf } from "@/lib/session/features/tool-view";
import { truncate } from "@/lib/session/features/transcript-model";
import { boundedToolView } from "./bounded-tool-view";

const result = (text: string, details: object = {}) => ({
  role: "toolResult",
  toolCallId: "c",
  toolName: "x",
  content: [{ type: "text", text }],
  isError: false,
  details,
});

describe("boundedToolView", () => {
  it("leaves a view within the limit as it is", () => {
    const view = toolViewOf({ id: "c", name: "bash", arguments: { command: "ls" } }, result("a\nb"));
    expect(boundedToolView(view, 100)).toEqual(view);
  });

  it("cuts each text it shows with the transcript's note", () => {
    const long = "y".repeat(250);
    const read = boundedToolView(toolViewOf({ id: "c", name: "read", arguments: { path: "a.ts" } }, result(long)), 100);
    expect(read.tool === "read" && read.content).toBe(truncate(long, 100));
    const bash = boundedToolView(toolViewOf({ id: "c", name: "bash", arguments: { command: "yes" } }, result(long)), 100);
    expect(bash.tool === "bash" && bash.shown).toBe(truncate(long, 100));
    const write = boundedToolView(toolViewOf({ id: "c", name: "write", arguments: { path: "a.ts", content: long } }, result("ok")), 100);
    expect(write.tool === "write" && write.content).toBe(truncate(long, 100));
  });

  it("keeps a diff's first lines up to the limit and says how many it left out", () => {
    const oldText = Array.from({ length: 40 }, (_, i) => `old ${i}`).join("\n");
    const newText = Array.from({ length: 40 }, (_, i) => `new ${i}`).join("\n");
    const view = toolViewOf({ id: "c", name: "edit", arguments: { path: "a.ts", oldText, newText } }, result("Successfully replaced text in a.ts."));
    const full = view.tool === "edit" ? view.diff! : [];
    const cut = boundedToolView(view, 60);
    const lines = cut.tool === "edit" ? cut.diff! : [];
    const kept = lines.slice(0, -1);
    expect(kept).toEqual(full.slice(0, kept.length));
    expect(kept.reduce((n, line) => n + line.text.length + 1, 0)).toBeLessThanOrEqual(60);
    expect(lines.at(-1)).toEqual({ sign: " ", line: null, text: `… (${full.length - kept.length} more lines of the diff not shown)`, gap: true });
  });

  it("keeps a listing's first items and says how many more there were", () => {
    const items = Array.from({ length: 30 }, (_, i) => `file-${i}.ts`);
    const view = toolViewOf({ id: "c", name: "ls", arguments: { path: "." } }, result(items.join("\n")));
    const cut = boundedToolView(view, 50);
    const shown = cut.tool === "ls" ? cut.items : [];
    expect(shown.slice(0, -1)).toEqual(items.slice(0, shown.length - 1));
    expect(shown.at(-1)).toBe(`… (${items.length - shown.length + 1} more not shown)`);
  });
});
