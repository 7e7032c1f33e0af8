import { describe, expect, it } from "vitest";
import { linkPieces, safeLinkTarget } from "./links";

describe("safeLinkTarget", () => {
  it("takes http(s) URLs only", () => {
    expect(safeLinkTarget("https://example.com/a?b=1#c")).toBe("https://example.com/a?b=1#c");
    expect(safeLinkTarget(" HTTP://Example.com ")).toBe("http://example.com/");
    for (const bad of [
      "javascript:alert(1)",
      "JaVaScRiPt:alert(1)",
      "data:text/html,x",
      "file:///etc/passwd",
      "//example.com",
      "https://exa mple.com",
      "https://a.example/\x00",
      "mailto:a@b.c",
      "",
    ])
      expect(safeLinkTarget(bad), bad).toBeNull();
  });
});

describe("linkPieces", () => {
  it("cuts plain text around its URLs, leaving a sentence's punctuation out of them", () => {
    expect(linkPieces("see https://a.example/x. and (https://b.example/y) or https://c.example/f(1)")).toEqual([
      { text: "see ", href: null },
      { text: "https://a.example/x", href: "https://a.example/x" },
      { text: ". and (", href: null },
      { text: "https://b.example/y", href: "https://b.example/y" },
      { text: ") or ", href: null },
      { text: "https://c.example/f(1)", href: "https://c.example/f(1)" },
    ]);
    expect(linkPieces("no links here")).toEqual([{ text: "no links here", href: null }]);
    expect(linkPieces("javascript:alert(1) http://")).toEqual([{ text: "javascript:alert(1) http://", href: null }]);
  });
});
