import { describe, expect, it } from "vitest";
import { Session } from "../session";
import { clipTitle, displayTitle, messageTitle, oneLineTitle, sessionTitle } from "./title";

const header = '{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}';

describe("sessionTitle", () => {
  it("prefers the session_info name, else the first user message", () => {
    const named = Session.fromText(
      [
        header,
        '{"type":"message","id":"a","parentId":null,"timestamp":"t","message":{"role":"user","content":"hi   there"}}',
        '{"type":"session_info","id":"b","parentId":"a","timestamp":"t","name":"Named"}',
        "",
      ].join("\n"),
    );
    expect(sessionTitle(named)).toBe("Named");
    const unnamed = Session.fromText(
      [
        header,
        '{"type":"message","id":"a","parentId":null,"timestamp":"t","message":{"role":"user","content":[{"type":"text","text":"hi"},{"type":"text","text":"there"}]}}',
        "",
      ].join("\n"),
    );
    expect(sessionTitle(unnamed)).toBe("hi there");
    expect(sessionTitle(Session.fromText(header + "\n"))).toBeNull();
  });
});

describe("messageTitle", () => {
  it("folds whitespace onto one line and cuts a long text with an ellipsis", () => {
    expect(messageTitle("  fix\n\tthe   build ")).toBe("fix the build");
    expect(messageTitle([{ type: "image", data: "x" }])).toBeNull();
    expect(messageTitle("abcd efgh ijkl", 7)).toBe("abcd e…");
    expect(messageTitle("abcd efgh", 6)).toBe("abcd…"); // no space before the ellipsis
    expect(messageTitle("abcdefgh", 8)).toBe("abcdefgh");
  });
});

describe("clipTitle and oneLineTitle", () => {
  it("cut only what is longer than the length, to exactly that length with its ellipsis", () => {
    expect(clipTitle("a\nb", 3)).toBe("a\nb");
    expect(clipTitle("abcdef", 4)).toBe("abc…");
    expect(clipTitle("ab cdef", 4)).toBe("ab…");
    expect(oneLineTitle(" a\n\n b ", 3)).toBe("a b");
    expect(oneLineTitle("abc  def", 5)).toBe("abc…");
    expect(oneLineTitle(" \t", 5)).toBe("");
  });
});

describe("displayTitle", () => {
  it("is the name when there is one, even one the first message would cut, else the first message", () => {
    expect(displayTitle({ sessionName: "x".repeat(500), firstMessage: "hello" })).toBe("x".repeat(500));
    expect(displayTitle({ sessionName: null, firstMessage: "hello" })).toBe("hello");
    expect(displayTitle({ sessionName: "", firstMessage: "hello" })).toBe("");
    expect(displayTitle({ sessionName: null, firstMessage: null })).toBeNull();
  });
});
