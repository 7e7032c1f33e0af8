import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { TruncatedText, formatSize } from "./TruncatedText";

describe("TruncatedText", () => {
  it("shows the first part of a long text and offers the rest", () => {
    const text = `${"a".repeat(4000)}${"b".repeat(6000)}`;
    const html = renderToStaticMarkup(createElement(TruncatedText, { text }));
    expect(html).toContain("a".repeat(4000));
    expect(html).not.toContain("bbbb");
    expect(html).toContain(`Show all (${formatSize(10_000)})`);
  });

  it("shows a short text whole, with no button", () => {
    const html = renderToStaticMarkup(createElement(TruncatedText, { text: "short" }));
    expect(html).toContain("short");
    expect(html).not.toContain("<button");
  });
});
