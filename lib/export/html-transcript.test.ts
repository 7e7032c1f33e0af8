import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Session, type JsonObject, type TreeEntry } from "@/lib/session";
import { FIXTURES_DIR } from "@/lib/session/testing/golden";
import { LINEAR_HEADER, linearSession } from "@/lib/session/testing/linear-session";
import { transcriptMarkdown, transcriptTitle } from "@/lib/export/markdown-transcript";
import { escapeHtml, TRANSCRIPT_CSP, transcriptHtml } from "./html-transcript";

const fixture = (name: string) => Session.fromText(readFileSync(path.join(FIXTURES_DIR, `${name}.jsonl`), "utf8"));

// a cwd with markup in it: the page must show it as text
const HEADER = { ...LINEAR_HEADER, cwd: "/home/<dev>/demo" };
const linear = (messages: JsonObject[]) => linearSession(messages, [], HEADER);

const ALLOWED_TAGS = new Set([
  "html",
  "head",
  "meta",
  "title",
  "style",
  "body",
  "main",
  "h1",
  "h2",
  "ul",
  "li",
  "code",
  "section",
  "span",
  "div",
  "pre",
  "p",
  "strong",
  "details",
  "summary",
  "blockquote",
  "img",
  "footer",
]);

/** Every tag is one the exporter writes; no event handlers, no script, nothing that loads from elsewhere. */
function expectInert(html: string) {
  const tags = Array.from(html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9-]*)/g), (m) => m[1]!.toLowerCase());
  expect(tags.filter((t) => !ALLOWED_TAGS.has(t))).toEqual([]);
  expect(html).not.toMatch(/<script/i);
  for (const tag of html.matchAll(/<[a-zA-Z][^>]*>/g)) {
    expect(tag[0], "no event handler attributes").not.toMatch(/\son[a-z]+\s*=/i);
    expect(tag[0], "no href/action/formaction").not.toMatch(/\s(href|action|formaction|srcset|background|poster)\s*=/i);
    for (const src of tag[0].matchAll(/\ssrc="([^"]*)"/g)) expect(src[1]).toMatch(/^data:image\/(png|jpeg|gif|webp|avif|bmp);base64,[A-Za-z0-9+/]+={0,2}$/);
  }
  const style = html.slice(html.indexOf("<style>"), html.indexOf("</style>"));
  expect(style).not.toMatch(/url\(|@import/i);
}

/** The HTML's text content: tags dropped, entities decoded (enough for the exporter's own output). */
function textOf(html: string): string {
  const body = html.slice(html.indexOf("<body>"));
  return body
    .replace(/<[^>]*>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
}

const textsOf = (content: unknown): string[] =>
  typeof content === "string"
    ? [content]
    : Array.isArray(content)
      ? (content as JsonObject[]).filter((b) => b?.type === "text" && typeof b.text === "string").map((b) => b.text as string)
      : [];

describe("transcriptHtml", () => {
  it("escapes hostile strings everywhere: no markup, handlers or javascript: URLs get through", () => {
    const hostile = [
      "<script>alert(1)</script>",
      '<img src=x onerror="alert(2)">',
      '[click](javascript:alert(3)) <a href="javascript:alert(4)">x</a>',
      "</style><script>alert(5)</script>",
      "'\"><svg onload=alert(6)>",
      "<iframe src=https://evil.test/></iframe> ![x](https://evil.test/p.png)",
    ];
    const session = Session.fromText(
      [
        { ...HEADER, cwd: "</title><script>alert(7)</script>" },
        { type: "session_info", id: "n", parentId: null, timestamp: "2026-01-01T00:00:00.000Z", name: "<b onmouseover=alert(8)>name</b>" },
        ...hostile.map((text, i) => ({
          type: "message",
          id: `h${i}"><x`,
          parentId: i ? `h${i - 1}"><x` : "n",
          timestamp: `2026-01-01T00:00:0${i}.000Z`,
          message:
            i % 2
              ? {
                  role: "assistant",
                  provider: "<p>",
                  model: "m\"'",
                  content: [
                    { type: "text", text },
                    { type: "thinking", thinking: text },
                    { type: "toolCall", id: "t", name: text, arguments: { x: text } },
                  ],
                }
              : { role: "user", content: text },
        })),
        { type: "label", id: "l", parentId: `h5"><x`, timestamp: "2026-01-01T00:00:09.000Z", targetId: `h5"><x`, label: "<script>alert(9)</script>" },
      ]
        .map((e) => `${JSON.stringify(e)}\n`)
        .join(""),
    );
    const html = transcriptHtml(session, `h5"><x`);
    expectInert(html);
    const text = textOf(html);
    for (const h of hostile) expect(text).toContain(h);
    expect(text).toContain("</title><script>alert(7)</script>");
    expect(text).toContain("#<script>alert(9)</script>");
    expect(html).toContain(`<title>${escapeHtml("<b onmouseover=alert(8)>name</b>")}</title>`);
  });

  it("declares a CSP that forbids every request but data: images, and holds no external URL", () => {
    const session = fixture("ca-roles-a");
    const html = transcriptHtml(session, session.leafId!);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${TRANSCRIPT_CSP}">`);
    expect(TRANSCRIPT_CSP).toMatch(/^default-src 'none'; style-src 'unsafe-inline'; img-src data:/);
    expect(html.indexOf("Content-Security-Policy")).toBeLessThan(html.indexOf("<style>"));
    expectInert(html);
  });

  it("embeds raster image blocks as data: URLs and never SVG or malformed data", () => {
    const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
    const session = linear([
      {
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "image", mimeType: "image/png", data: png },
          { type: "image", mimeType: "image/svg+xml", data: "PHN2Zz48L3N2Zz4=" },
        ],
      },
      {
        role: "toolResult",
        toolCallId: "t",
        toolName: "read",
        content: [
          { type: "image", mimeType: 'image/png" onerror="alert(1)', data: png },
          { type: "image", mimeType: "image/png", data: 'x" onerror="alert(1)' },
        ],
        isError: false,
      },
    ]);
    const html = transcriptHtml(session, "m2");
    expectInert(html);
    expect(html.match(/<img /g)).toHaveLength(1);
    expect(html).toContain(`src="data:image/png;base64,${png}"`);
    expect(textOf(html)).toContain("[image not embedded: image/svg+xml]");
  });

  it.each(["ca-roles-a", "ca-branching-a", "ca-compaction-a", "hx-retained-a", "legacy-v1-a"])("says what the Markdown transcript says on %s", (name) => {
    const session = fixture(name);
    const leaf = session.leafId!;
    const html = transcriptHtml(session, leaf);
    const markdown = transcriptMarkdown(session, leaf);
    const text = textOf(html);
    expectInert(html);
    const title = transcriptTitle(session, session.branch(leaf));
    expect(markdown).toContain(title.replace(/([\\`*_[\]<>#])/g, "\\$1").replace(/\s+/g, " "));
    expect(html).toContain(`<h1>${escapeHtml(title)}</h1>`);

    let cursor = 0;
    let checked = 0;
    for (const entry of session.branch(leaf) as TreeEntry[]) {
      const message = entry.type === "message" ? (entry.message as JsonObject) : null;
      if (message?.role !== "user" && message?.role !== "assistant") continue;
      for (const chunk of textsOf(message.content)) {
        expect(markdown).toContain(chunk);
        const at = text.indexOf(chunk, cursor);
        expect(at, `text of ${entry.id} in path order`).toBeGreaterThanOrEqual(cursor);
        cursor = at;
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
    const sections = Array.from(html.matchAll(/<section class="[^"]*" data-entry-id="([^"]*)"/g), (m) => m[1]);
    const pathIds = new Set(session.branch(leaf).map((e) => escapeHtml(e.id)));
    expect(sections.every((id) => pathIds.has(id!))).toBe(true);
    expect(sections.length).toBe(markdown.match(/^(## |### |> \*\*|_Model changed|_Thinking level set|_\(message entry)/gm)!.length);
  });
});
