import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown, safeHref } from "./Markdown";

const render = (text: string) => renderToStaticMarkup(createElement(Markdown, { text }));

describe("Markdown from a session is inert", () => {
  it("keeps raw HTML as text", () => {
    const html = render('<script>alert(1)</script>\n\n<img src=x onerror="alert(2)"> and <b>bold</b>');
    expect(html).not.toMatch(/<script|<img|<b>/i);
    expect(html).toContain("&lt;script&gt;");
  });

  it("keeps only http(s) and mailto link targets, with no referrer and no follow", () => {
    const html = render("[a](javascript:alert(1)) [b](data:text/html,x) [c](/relative) [d](https://example.com/x) [e](mailto:me@example.com)");
    expect(html).not.toMatch(/javascript:|data:text|href="\/relative"/);
    expect(html).toContain('href="https://example.com/x"');
    expect(html).toContain('href="mailto:me@example.com"');
    for (const link of html.match(/<a [^>]*>/g) ?? []) expect(link).toContain('rel="noopener noreferrer nofollow"');
  });

  it("never loads images: it shows their address", () => {
    const html = render("![chart](https://example.com/track.png)");
    expect(html).not.toMatch(/<img/i);
    expect(html).toContain("https://example.com/track.png");
  });

  it("renders GitHub-flavoured tables and task lists", () => {
    const html = render("| a | b |\n| - | - |\n| 1 | 2 |\n\n- [x] done");
    expect(html).toContain("<table");
    expect(html).toContain('type="checkbox"');
  });

  it("safeHref trims and rejects everything but web and mail", () => {
    expect(safeHref("  https://a.b/c ")).toBe("https://a.b/c");
    expect(safeHref("HTTP://A.B")).toBe("HTTP://A.B");
    for (const bad of ["javascript:x", "vbscript:x", "file:///etc/passwd", "//evil.example", "#top", ""]) expect(safeHref(bad)).toBe("");
  });
});
