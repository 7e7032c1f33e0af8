import { describe, expect, it } from "vitest";
import { jsonlOf, textOf } from "./json";

describe("textOf", () => {
  it("reads a string as it is and joins the text blocks with spaces, as pi's session list does", () => {
    expect(textOf("  two\nlines ")).toBe("  two\nlines ");
    const blocks = [
      { type: "text", text: "fix" },
      { type: "image", data: "AAAA" },
      { type: "thinking", thinking: "hm" },
      { type: "text", text: "the test" },
    ];
    expect(textOf(blocks)).toBe("fix the test");
  });

  it("has no text for anything else", () => {
    for (const content of [null, undefined, 3, { type: "text", text: "x" }, [null, 1, "loose", { type: "text" }]]) expect(textOf(content)).toBe("");
  });
});

describe("jsonlOf", () => {
  it("writes one JSON line per value, each ended by a newline, nothing for none", () => {
    expect(
      jsonlOf([
        { type: "session", id: "a" },
        { id: "b", parentId: null, text: "two\nlines" },
      ]),
    ).toBe('{"type":"session","id":"a"}\n{"id":"b","parentId":null,"text":"two\\nlines"}\n');
    expect(jsonlOf([])).toBe("");
  });
});
