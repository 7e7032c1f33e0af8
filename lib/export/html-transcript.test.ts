import { describe, expect, it } from "vitest";
import { escapeHtml, TRANSCRIPT_CSP, transcriptDocument } from "./html-transcript";

describe("transcriptDocument", () => {
  it("puts the CSP and the referrer policy before anything else in the head, and escapes the title", () => {
    const html = transcriptDocument('</title><script>alert(1)</script>"', "<main>body</main>", "main{color:red}");
    const head = html.slice(html.indexOf("<head>"), html.indexOf("</head>"));
    expect(head.indexOf(`content="${TRANSCRIPT_CSP}"`)).toBeGreaterThan(0);
    expect(head.indexOf("Content-Security-Policy")).toBeLessThan(head.indexOf("<title>"));
    expect(head).toContain('<meta name="referrer" content="no-referrer">');
    expect(head).toContain(`<title>${escapeHtml('</title><script>alert(1)</script>"')}</title>`);
    expect(html).not.toContain("<script>");
    expect(html).toContain("<body>\n<main>body</main>\n</body>");
  });

  it("refuses a stylesheet that would close its <style> element", () => {
    expect(() => transcriptDocument("t", "", "a{}</STYLE><script>x</script>")).toThrow(/close its <style>/);
  });

  it("escapes the five characters HTML gives meaning to", () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe("&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;");
  });
});
