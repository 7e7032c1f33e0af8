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
  it("shows thinking folded, tool calls with pretty arguments, and images from their data", () => {
    const html = renderToStaticMarkup(
      createElement(MessageContent, {
        content: [
          { type: "thinking", thinking: "secret plan" },
          { type: "text", text: "**done**" },
          { type: "toolCall", id: "t1", name: "read", arguments: { path: "a.ts" } },
          { type: "image", mimeType: "image/png", data: PNG },
        ],
      }),
    );
    expect(html).toMatch(/<details[^>]*>.*Thinking.*secret plan.*<\/details>/s);
    expect(html).not.toMatch(/<details[^>]* open/);
    expect(html).toContain("<strong>done</strong>");
    expect(html).toContain("read");
    expect(html).toContain(JSON.stringify({ path: "a.ts" }, null, 2).replace(/"/g, "&quot;"));
    expect(html).toContain(`src="data:image/png;base64,${PNG}"`);
  });
});
