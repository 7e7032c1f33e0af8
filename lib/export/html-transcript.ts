/**
 * The page around an exported HTML transcript: ONE self-contained, inert file. No scripts and nothing fetched:
 * the CSP allows only inline style and `data:` images, and the only images are the session's own image blocks.
 * Its body is drawn by the app's own renderers (components/transcript/transcript-html.tsx).
 */

export const TRANSCRIPT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text safe in element content and in double- or single-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** The whole file: `body` is markup React escaped; `css` must not hold `</style`. */
export function transcriptDocument(title: string, body: string, css: string): string {
  if (/<\/style/i.test(css)) throw new Error("the transcript's stylesheet would close its <style> element");
  return [
    "<!DOCTYPE html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${TRANSCRIPT_CSP}">`,
    '<meta name="referrer" content="no-referrer">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${css}</style>`,
    "</head>",
    "<body>",
    body,
    "</body>",
    "</html>",
    "",
  ].join("\n");
}
