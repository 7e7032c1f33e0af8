import { describe, expect, it } from "vitest";
import { mapJsonStrings } from "./map-json-strings";

/** Every string the walk hands out, as "value text" or "key text", with the walk's copy. */
function walk(value: unknown) {
  const seen: string[] = [];
  const copy = mapJsonStrings(value, (text, _container, _key, isKey) => {
    seen.push(`${isKey ? "key" : "value"} ${text}`);
    return `<${text}>`;
  });
  return { seen, copy };
}

describe("mapJsonStrings", () => {
  it("keeps an entry's envelope and the fields pointing at other entries, and nothing else of the same names", () => {
    const { copy } = walk({ type: "label", id: "l1", parentId: "e1", timestamp: "t", targetId: "e2", label: "x", fromId: "e3" });
    // fromId points at an entry only in a branch summary
    expect(copy).toEqual({ type: "label", id: "l1", parentId: "e1", timestamp: "t", targetId: "e2", label: "<x>", fromId: "<e3>" });
    expect(walk({ type: "branch_summary", fromId: "e3", targetId: "e2" }).copy).toEqual({ type: "branch_summary", fromId: "e3", targetId: "<e2>" });
    expect(walk({ type: "compaction", firstKeptEntryId: "e4" }).copy).toEqual({ type: "compaction", firstKeptEntryId: "e4" });
  });

  it("keeps a message's role and links, a block's type and a tool call's id, and walks into its arguments", () => {
    const line = {
      type: "message",
      message: {
        role: "assistant",
        content: [
          { type: "text", text: "t", id: "not a call" },
          { type: "toolCall", id: "c1", name: "bash", arguments: { id: "a", type: "b", content: [{ type: "c" }] } },
        ],
        stopReason: "toolUse",
      },
    };
    expect(walk(line).copy).toEqual({
      type: "message",
      message: {
        role: "assistant",
        content: [
          { type: "text", text: "<t>", id: "<not a call>" },
          { type: "toolCall", id: "c1", name: "<bash>", arguments: { "<id>": "<a>", "<type>": "<b>", "<content>": [{ "<type>": "<c>" }] } },
        ],
        stopReason: "<toolUse>",
      },
    });
    const result = { type: "message", message: { role: "toolResult", toolCallId: "c1", details: { toolCallId: "x", role: "y" } } };
    expect(walk(result).copy).toEqual({
      type: "message",
      message: { role: "toolResult", toolCallId: "c1", details: { "<toolCallId>": "<x>", "<role>": "<y>" } },
    });
  });

  it("knows the messages a compaction keeps and a context edit's replacement", () => {
    const compaction = {
      type: "compaction",
      retainedTail: [{ role: "user", content: [{ type: "text", text: "r" }] }],
      systemMessage: { role: "system", content: "s" },
      details: { readFiles: ["f"] },
    };
    expect(walk(compaction).copy).toEqual({
      type: "compaction",
      retainedTail: [{ role: "user", content: [{ type: "text", text: "<r>" }] }],
      systemMessage: { role: "system", content: "<s>" },
      details: { "<readFiles>": ["<f>"] },
    });
    const edit = { type: "context_edit", targetId: "e1", replacement: { content: [{ type: "text", text: "e" }] } };
    expect(walk(edit).copy).toEqual({ type: "context_edit", targetId: "e1", replacement: { content: [{ type: "text", text: "<e>" }] } });
  });

  it("reads pi's parts only in the entries and messages pi writes them in", () => {
    const custom = { type: "custom", message: { role: "r", content: [{ type: "t" }] }, replacement: { content: [{ type: "u" }] } };
    expect(walk(custom).copy).toEqual({
      type: "custom",
      message: { "<role>": "<r>", "<content>": [{ "<type>": "<t>" }] },
      replacement: { "<content>": [{ "<type>": "<u>" }] },
    });
    // a tool call's id pairs it with a result only in an assistant's message; a user's message has none
    const user = { type: "message", message: { role: "user", toolCallId: "x", content: [{ type: "toolCall", id: "c" }] } };
    expect(walk(user).copy).toEqual({ type: "message", message: { role: "user", toolCallId: "<x>", content: [{ type: "toolCall", id: "<c>" }] } });
    expect(walk({ type: "session", id: "s", parentId: "p" }).copy).toEqual({ type: "session", id: "s", parentId: "<p>" });
  });

  it("keeps a v4 log's kinds, lanes and links, and only in a v4 line", () => {
    expect(walk({ kind: "lane", seq: 4, lane: "side", leafId: "e1" }).copy).toEqual({ kind: "lane", seq: 4, lane: "side", leafId: "e1" });
    expect(walk({ kind: "fact", seq: 7, fact: "label", targetId: "e1", label: "l" }).copy).toEqual({
      kind: "fact",
      seq: 7,
      fact: "label",
      targetId: "e1",
      label: "<l>",
    });
    expect(walk({ kind: "header", version: 4, id: "s", cwd: "c", parentSessionId: "p" }).copy).toEqual({
      kind: "header",
      version: 4,
      id: "s",
      cwd: "<c>",
      parentSessionId: "p",
    });
    expect(walk({ kind: "entry", seq: 2, lane: "main", type: "branch_summary", id: "b", parentId: "a", fromId: "a" }).copy).toEqual({
      kind: "entry",
      seq: 2,
      lane: "main",
      type: "branch_summary",
      id: "b",
      parentId: "a",
      fromId: "a",
    });
    expect(walk({ kind: "lane", seq: 3, lane: "l", targetId: "t" }).copy).toEqual({ kind: "lane", seq: 3, lane: "l", targetId: "<t>" });
    expect(walk({ kind: "record", seq: 4, id: "r", lane: "l", type: "operation_started", intent: { kind: "run", note: "n" } }).copy).toEqual({
      kind: "record",
      seq: 4,
      id: "r",
      lane: "l",
      type: "operation_started",
      intent: { kind: "run", "<note>": "<n>" },
    });
    expect(walk({ type: "custom", id: "c", kind: "k", lane: "l" }).copy).toEqual({ type: "custom", id: "c", kind: "<k>", lane: "<l>" });
  });

  it("hands out every key but pi's field names where pi puts them, with the object holding it", () => {
    const keys: [string, string | null, string | null][] = [];
    mapJsonStrings({ type: "custom", data: { a: { b: 1 } }, extra: 2 }, (text, container, key, isKey) => {
      if (isKey) keys.push([text, key, container!.key]);
      return text;
    });
    expect(keys).toEqual([
      ["extra", "extra", null],
      ["a", "a", "data"],
      ["b", "b", "a"],
    ]);
  });

  it("walks arrays and bare values at the root as free text", () => {
    expect(walk(["id", { id: "x" }]).copy).toEqual(["<id>", { "<id>": "<x>" }]);
    expect(walk("s").copy).toBe("<s>");
    expect(walk(3).copy).toBe(3);
  });

  it("keeps a `__proto__` key an own member of the copy", () => {
    const copy = walk(JSON.parse('{"type":"custom","data":{"__proto__":{"x":"y"}}}')).copy as { data: object };
    expect(Object.keys(copy.data)).toEqual(["<__proto__>"]);
    const kept = mapJsonStrings(JSON.parse('{"data":{"__proto__":{"x":"y"}}}'), (text) => text) as { data: object };
    expect(Object.getPrototypeOf(kept.data)).toBe(Object.prototype);
    expect(JSON.stringify(kept)).toBe('{"data":{"__proto__":{"x":"y"}}}');
  });
});
