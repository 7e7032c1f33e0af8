// A share file is the standalone viewer page (public/viewer/share-template.html, scripts/build-viewer.mjs)
// with its data block filled. The payload text is ASCII without markup characters (lib/share/seal.ts), so it
// sits inside a non-executed <script> element unescaped, and the page's script hashes do not change with it.
import { oneLineTitle, SHARE_TITLE_CHARS } from "@/lib/session/features/title";

const SLOT_OPEN = '<script type="application/octet-stream" id="pi-share">';
const SLOT = `${SLOT_OPEN}</script>`;
const TITLE = "<title>pi session viewer</title>";

export class ShareTemplateError extends Error {}

function escapeText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** The template with `payload` in its data block and `title` (null: kept generic, e.g. for a sealed file) in <title>. */
export function embedShare(template: string, payload: string, title: string | null): string {
  const at = template.indexOf(SLOT);
  if (at < 0 || template.indexOf(SLOT, at + 1) >= 0)
    throw new ShareTemplateError("The viewer template has no single empty data block; rebuild it (npm run build:viewer).");
  if (!/^[A-Za-z0-9+/=._-]*$/.test(payload)) throw new ShareTemplateError("The payload holds characters that cannot sit in the page unescaped.");
  // a replacer function: a replacement string would read $` $' $& $1 in the title as patterns (the template
  // around the title, the data block with it, copied in)
  const line = title && oneLineTitle(title, SHARE_TITLE_CHARS);
  const titled = line ? template.replace(TITLE, () => `<title>${escapeText(line)} · pi session viewer</title>`) : template;
  const slot = titled.indexOf(SLOT);
  return `${titled.slice(0, slot)}${SLOT_OPEN}${payload}</script>${titled.slice(slot + SLOT.length)}`;
}

/** The payload text of a share file, or null when `html` is not one (or carries no data). */
export function extractShare(html: string): string | null {
  const at = html.indexOf(SLOT_OPEN);
  if (at < 0) return null;
  const start = at + SLOT_OPEN.length;
  const end = html.indexOf("</script>", start);
  if (end < 0) return null;
  const payload = html.slice(start, end).trim();
  return payload.length > 0 ? payload : null;
}

/** Whether fetched bytes start like an HTML page rather than a JSONL session (whose first byte is "{"). */
export function looksLikeHtml(head: Uint8Array): boolean {
  let i = 0;
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) i = 3;
  while (i < head.length && (head[i] === 0x20 || head[i] === 0x0a || head[i] === 0x0d || head[i] === 0x09)) i++;
  return head[i] === 0x3c; // "<"
}
