import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { MessageContent, imageDataUrl } from "./ContentBlocks";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

describe("imageDataUrl", () => {
  it("builds a data URL only for image mime types with base64 data", () => {
    expect(imageDataUrl({ type: "image", mimeType: "image/png", data: PNG })).toBe(`data:image/png;base64,${PNG}`);
    expect(imageDataUrl({ type: "image", mimeType: "text/html", data: PNG })).toBeNull();
    expect(imageDataUrl({ type: "image", mimeType: "image/svg+xml;charset=utf-8", data: PNG })).toBeNull();
    expect(imageDataUrl({ type: "image", mimeType: "image/png", data: 'x" onerror="alert(1)' })).toBeNull();
    expect(imageDataUrl({ type: "image", data: PNG })).toBeNull();
  });
});

describe("MessageContent", () => {
  it("shows thinking folded, tool calls by their tool, and images from their data", () => {
    const html = renderToStaticMarkup(
      createElement(MessageContent, {
        content: [
          { type: "thinking", thinking: "secret plan" },
          { type: "text", text: "**done**" },
          { type: "toolCall", id: "t1", name: "read", arguments: { path: "a.ts" } },
          { type: "toolCall", id: "t2", name: "mcp_lookup", arguments: { query: "pool size" } },
          { type: "image", mimeType: "image/png", data: PNG },
        ],
      }),
    );
    expect(html).toMatch(/<details[^>]*>.*Thinking.*secret plan.*<\/details>/s);
    expect(html).not.toMatch(/<details[^>]* open[^>]*><summary[^>]*>Thinking/);
    expect(html).toContain("<strong>done</strong>");
    // a built-in tool by its renderer (its path in the header), another as a tree of its arguments
    expect(html).toMatch(/data-tool="read" data-tool-call-id="t1"/);
    expect(html).toContain('data-tool-path="a.ts"');
    expect(html).toMatch(/data-tool="mcp_lookup"[^]*role="tree"[^]*&quot;query&quot;: [^]*&quot;pool size&quot;/);
    expect(html).toContain(`src="data:image/png;base64,${PNG}"`);
  });
});
