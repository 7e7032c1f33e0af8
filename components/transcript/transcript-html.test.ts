// The HTML transcript: the app's renderers drawn once into an inert file. Nothing in it can run or fetch, it
// tells what the Markdown transcript tells in the same order, and its tool calls are the app's ToolCallView:
// the same data-tool / data-diff / data-language contract, highlighted, with outputs folded into <details>.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseHTML } from "linkedom";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown } from "@/components/inspector/Markdown";
import { boundedToolView } from "@/lib/export/bounded-tool-view";
import { TRANSCRIPT_CSP, escapeHtml } from "@/lib/export/html-transcript";
import { transcriptMarkdown, transcriptTitle } from "@/lib/export/markdown-transcript";
import { Session, type JsonObject, type TreeEntry } from "@/lib/session";
import { transcriptOf } from "@/lib/session/features/transcript-model";
import { FIXTURES_DIR, listFixtures } from "@/lib/session/testing/golden";
import { LINEAR_HEADER, linearSession } from "@/lib/session/testing/linear-session";
import { piExportRenderer } from "@/lib/session/testing/pi-export-template";
import { systemChange, toolsAddedBy } from "@/lib/session/features/system-prompt";
import { languageOfPath } from "@/lib/render/languages";
import { FOLD_LINES } from "./FoldedLines";
import { transcriptHtml } from "./transcript-html";

const fixture = (name: string) => Session.fromText(readFileSync(path.join(FIXTURES_DIR, `${name}.jsonl`), "utf8"));
const NEWEST = path.join(__dirname, "../../e2e/fixtures/sessions/--home-dev-projects-newest--");
const TOOLS_FILE = path.join(
  __dirname,
  "../../e2e/fixtures/sessions/--home-dev-projects-tools--/2026-02-12T10-00-00-001Z_019c514b-1101-7077-9a7c-f772f06fbfdc.jsonl",
);

// a cwd with markup in it: the page must show it as text
const HEADER = { ...LINEAR_HEADER, cwd: "/home/<dev>/demo" };
const linear = (messages: JsonObject[]) => linearSession(messages, [], HEADER);

const documentOf = (html: string) => parseHTML(html).document;
const bodyText = (html: string) => documentOf(html).body.textContent ?? "";
/** what the app's Markdown shows of a text, as text */
const markdownText = (text: string) =>
  parseHTML(`<!doctype html><html><body>${renderToStaticMarkup(createElement(Markdown, { text }))}</body></html>`).document.body.textContent ?? "";

const FORBIDDEN = "script, iframe, frame, object, embed, form, button, textarea, select, link, base, svg, math, video, audio, source, picture";

/** No script, handler, form or frame; links only to http(s)/mailto without referrer; images only from their own data. */
function expectInert(html: string) {
  const doc = documentOf(html);
  expect([...doc.querySelectorAll(FORBIDDEN)].map((e) => e.tagName)).toEqual([]);
  // a Markdown task list's boxes are the only inputs: disabled checkboxes
  for (const input of doc.querySelectorAll("input")) expect([input.getAttribute("type"), input.hasAttribute("disabled")]).toEqual(["checkbox", true]);
  expect([...doc.querySelectorAll("meta")].map((m) => m.getAttribute("charset") ?? m.getAttribute("http-equiv") ?? m.getAttribute("name"))).toEqual([
    "utf-8",
    "Content-Security-Policy",
    "referrer",
    "viewport",
  ]);
  for (const element of doc.querySelectorAll("*")) {
    for (const attribute of element.getAttributeNames()) {
      expect(attribute, `no event handler on <${element.tagName}>`).not.toMatch(/^on/i);
      expect(attribute, `nothing loads from <${element.tagName}>`).not.toMatch(/^(action|formaction|srcset|background|poster|xlink:href|ping)$/i);
    }
  }
  for (const link of doc.querySelectorAll("[href]")) {
    expect(link.tagName).toBe("A");
    expect(link.getAttribute("href")).toMatch(/^(https?:\/\/|mailto:)/i);
    expect(link.getAttribute("rel")).toMatch(/noopener noreferrer/);
  }
  for (const image of doc.querySelectorAll("[src]")) {
    expect(image.tagName).toBe("IMG");
    expect(image.getAttribute("src")).toMatch(/^data:image\/[a-z0-9.+-]+;base64,[A-Za-z0-9+/]+={0,2}$/);
  }
  const style = [...doc.querySelectorAll("style")].map((s) => s.textContent).join("");
  expect(style).not.toMatch(/url\(|@import|expression\(/i);
}

function pathBuilds(session: Session, id: string): boolean {
  try {
    session.branch(id);
    return true;
  } catch {
    return false;
  }
}

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
    const text = bodyText(html);
    // raw HTML in Markdown stays literal text; a javascript: link keeps its words and loses its target
    for (const h of hostile) expect(text).toContain(markdownText(h).trim());
    expect(text).toContain("<script>alert(1)</script>");
    expect(text).toContain("</style><script>alert(5)</script>");
    expect(text).toContain("</title><script>alert(7)</script>");
    expect(text).toContain("#<script>alert(9)</script>");
    expect(html).not.toMatch(/href="javascript/i);
    // the tool named with markup is drawn by name, its arguments as a tree
    const tools = [...documentOf(html).querySelectorAll("[data-tool]")].map((e) => e.getAttribute("data-tool"));
    expect(tools).toEqual(hostile.filter((_, i) => i % 2));
    expect(html).toContain(`<title>${escapeHtml("<b onmouseover=alert(8)>name</b>")}</title>`);
  });

  it("declares a CSP that forbids every request but data: images, before its stylesheet", () => {
    const session = fixture("ca-roles-a");
    const html = transcriptHtml(session, session.leafId!);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${TRANSCRIPT_CSP}">`);
    expect(TRANSCRIPT_CSP).toMatch(/^default-src 'none'; style-src 'unsafe-inline'; img-src data:/);
    expect(html.indexOf("Content-Security-Policy")).toBeLessThan(html.indexOf("<style>"));
    expectInert(html);
  });

  it("embeds image blocks from their own data only, as the app shows them", () => {
    const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
    const session = linear([
      {
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "image", mimeType: "image/png", data: png },
        ],
      },
      {
        role: "assistant",
        content: [{ type: "toolCall", id: "t", name: "read", arguments: { path: "a.png" } }],
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
    const html = transcriptHtml(session, "m3");
    expectInert(html);
    const images = [...documentOf(html).querySelectorAll("img")];
    expect(images.map((image) => image.getAttribute("src"))).toEqual([`data:image/png;base64,${png}`]);
    expect(bodyText(html).match(/\[image not shown/g)).toHaveLength(2);
  });

  it.each(["ca-roles-a", "ca-branching-a", "ca-compaction-a", "hx-retained-a", "legacy-v1-a"])(
    "says what the Markdown transcript says on %s, in order",
    (name) => {
      const session = fixture(name);
      const leaf = session.leafId!;
      const html = transcriptHtml(session, leaf);
      const markdown = transcriptMarkdown(session, leaf);
      expectInert(html);
      const doc = documentOf(html);
      const title = transcriptTitle(session, session.branch(leaf));
      expect(doc.querySelector("h1")?.textContent).toBe(title);
      expect(doc.querySelector("title")?.textContent).toBe(title);

      // one section per entry the Markdown writes a heading or a line for, in path order
      const sections = [...doc.querySelectorAll("section[data-entry-id]")].map((s) => s.getAttribute("data-entry-id"));
      const pathIds = session.branch(leaf).map((e) => e.id);
      expect(sections).toEqual(pathIds.filter((id) => sections.includes(id)));
      expect(sections.length).toBe(markdown.match(/^(## |### |> \*\*|_Model changed|_Thinking level set|_\(message entry)/gm)!.length);

      const text = doc.body.textContent ?? "";
      let cursor = 0;
      let checked = 0;
      for (const entry of session.branch(leaf) as TreeEntry[]) {
        const message = entry.type === "message" ? (entry.message as JsonObject) : null;
        if (message?.role !== "user" && message?.role !== "assistant") continue;
        const chunks =
          typeof message.content === "string"
            ? [message.content]
            : (message.content as JsonObject[]).filter((b) => b?.type === "text").map((b) => String(b.text));
        for (const chunk of chunks) {
          expect(markdown).toContain(chunk);
          const shown = markdownText(chunk).trim();
          const at = text.indexOf(shown, cursor);
          expect(at, `text of ${entry.id} in path order`).toBeGreaterThanOrEqual(cursor);
          cursor = at;
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(0);
    },
  );

  it("draws every tool call on the path with the app's renderers: diff lines, exit codes, highlighted code, folds", () => {
    const files = [...listFixtures().map((f) => f.file), TOOLS_FILE];
    const seen = new Set<string>();
    let highlightedDiffs = 0;
    for (const file of files) {
      const session = Session.fromText(readFileSync(file, "utf8"));
      if (!session.leafId || !pathBuilds(session, session.leafId)) continue; // (an edge fixture whose leaf path is a cycle)
      const transcript = transcriptOf(session, session.leafId);
      const doc = documentOf(transcriptHtml(session, session.leafId));
      const sections = new Map([...doc.querySelectorAll("section[data-entry-id]")].map((e) => [e.getAttribute("data-entry-id"), e]));
      for (const section of transcript.sections) {
        const element = sections.get(section.entry.id);
        expect(element, `${file} ${section.entry.id}`).not.toBeNull();
        for (const block of section.blocks) {
          if (block.type !== "toolCall" && block.type !== "toolResult") continue;
          const view = block.view;
          seen.add(view.tool);
          const drawn = [...element!.querySelectorAll("[data-tool-call-id]")].find((e) => e.getAttribute("data-tool-call-id") === view.id);
          expect(drawn, `${file}: ${view.name} ${view.id}`).toBeDefined();
          expect(drawn!.getAttribute("data-tool")).toBe(view.name);
          if (view.tool === "edit" && view.diff && block.type === "toolCall") {
            const signs = [...drawn!.querySelectorAll("[data-diff]")].map((line) => line.getAttribute("data-diff"));
            // the diff as the file keeps it: its first lines up to the transcript's limit, then a line saying what is left
            const kept = boundedToolView(view, transcript.maxOutput);
            expect(signs.join("")).toBe(kept.tool === "edit" ? kept.diff!.map((line) => line.sign).join("") : "");
            expect(signs.length).toBeGreaterThan(0);
            // its lines highlighted in the file's language, their text unchanged
            const language = languageOfPath(view.path);
            expect(drawn!.querySelector("[data-language]")?.getAttribute("data-language") ?? null).toBe(language);
            if (language === "typescript") {
              expect(drawn!.querySelector("[data-diff] [class^='hljs-']"), `${view.id} diff highlighted`).not.toBeNull();
              highlightedDiffs++;
            }
          }
          if (view.tool === "bash" && view.status === "exited") expect(drawn!.getAttribute("data-exit-code")).toBe(String(view.exitCode));
          if ((view.tool === "write" && block.type === "toolCall") || (view.tool === "read" && block.type === "toolResult" && view.content)) {
            const code = drawn!.querySelector("[data-language]");
            if (code) expect(code.querySelector("[class^='hljs-']"), `${view.tool} ${view.id} highlighted`).not.toBeNull();
          }
        }
      }
    }
    expect([...seen].sort()).toEqual(expect.arrayContaining(["bash", "edit", "grep", "ls", "read", "write"]));
    expect(highlightedDiffs).toBeGreaterThan(0);
  });

  it("folds a long output into <details> whose summary counts the lines it hides, and cuts it at the transcript's limit", () => {
    const lines = Array.from({ length: 60 }, (_, i) => `line ${i + 1}`);
    const long = "x".repeat(9000);
    const session = linear([
      { role: "user", content: "run it" },
      {
        role: "assistant",
        content: [
          { type: "toolCall", id: "b1", name: "bash", arguments: { command: "seq 60" } },
          { type: "toolCall", id: "b2", name: "bash", arguments: { command: "yes x" } },
        ],
      },
      { role: "toolResult", toolCallId: "b1", toolName: "bash", content: [{ type: "text", text: lines.join("\n") }], isError: false },
      { role: "toolResult", toolCallId: "b2", toolName: "bash", content: [{ type: "text", text: long }], isError: false },
    ]);
    const doc = documentOf(transcriptHtml(session, "m4"));
    const first = doc.querySelector('section[data-entry-id="m3"] [data-folded="true"]');
    expect(first).not.toBeNull();
    expect(first!.querySelector("details summary")?.textContent).toContain(`Show ${lines.length - FOLD_LINES} more lines`);
    expect(first!.textContent).toContain("line 60");
    const second = doc.querySelector('section[data-entry-id="m4"]')!.textContent ?? "";
    expect(second).toContain("(truncated: 4000 of 9000 characters shown)");
    expect(second).not.toContain("x".repeat(4001));
  });

  it("shows each system message as pi 1.6.0's export does: the first on the path as the prompt with its tools, later ones as updates", () => {
    let checked = 0;
    for (const name of readdirSync(NEWEST).filter((f) => f.endsWith(".jsonl"))) {
      const text = readFileSync(path.join(NEWEST, name), "utf8");
      const session = Session.fromText(text);
      const entries = text
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as JsonObject)
        .filter((e) => e.type !== "session");
      const pi = piExportRenderer(entries);
      const doc = documentOf(transcriptHtml(session, session.leafId!));
      const markdown = transcriptMarkdown(session, session.leafId!);
      for (const entry of session.branch(session.leafId!)) {
        const message = entry.type === "message" ? (entry.message as JsonObject) : null;
        if (message?.role !== "system") continue;
        const section = [...doc.querySelectorAll('section[data-kind="system"]')].find((e) => e.getAttribute("data-entry-id") === entry.id);
        expect(section, `${name} ${entry.id}`).toBeDefined();
        const heading = section!.querySelector("h2")!.textContent ?? "";
        const raw = entries.find((e) => e.id === entry.id)!;
        if (pi.isLeadingSystemEntry(raw)) {
          expect(heading).toMatch(/^System prompt(?! update)/);
          expect(section!.querySelector('[role="group"]')?.textContent?.replace(/\u200b/g, "")).toBe(pi.getSystemMessageText(message).replace(/\n/g, ""));
        } else {
          expect(heading).toContain(`System prompt update: ${pi.describeSystemUpdate(message)}`);
          expect(systemChange(message)).toBe(pi.describeSystemUpdate(message));
        }
        for (const tool of toolsAddedBy(message)) {
          expect(section!.querySelector(`[data-tool-name="${tool.name}"]`)?.textContent).toContain(tool.description);
          expect(markdown).toContain(`- \`${tool.name}\` — ${tool.description}`);
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(1);
  });
});
