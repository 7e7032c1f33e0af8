/**
 * Which link targets from a session become links: http(s) only. A session's text is written by a model and by
 * programs, so `javascript:`, `data:`, `file:` and the rest stay text.
 */

/** The target as a link's href when it is an http(s) URL, else null. */
export function safeLinkTarget(target: string): string | null {
  const trimmed = target.trim();
  if (!/^https?:\/\//i.test(trimmed) || /[\s\x00-\x1f\x7f]/.test(trimmed)) return null;
  try {
    const url = new URL(trimmed);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

export interface TextPiece {
  text: string;
  href: string | null;
}

const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"'`\x00-\x1f]+/gi;
const TRAILING = /[.,;:!?'"]+$/;

/** Plain text cut into pieces, with the http(s) URLs in it as links (a sentence's closing punctuation is not part of one). */
export function linkPieces(text: string): TextPiece[] {
  const pieces: TextPiece[] = [];
  let at = 0;
  for (const match of text.matchAll(URL_IN_TEXT)) {
    let url = match[0].replace(TRAILING, "");
    // "(see https://x.y/z)": the closing parenthesis is the sentence's unless the URL opened one
    while (url.endsWith(")") && (url.match(/\(/g)?.length ?? 0) < (url.match(/\)/g)?.length ?? 0)) url = url.slice(0, -1).replace(TRAILING, "");
    const href = safeLinkTarget(url);
    if (!href) continue;
    if (match.index > at) pieces.push({ text: text.slice(at, match.index), href: null });
    pieces.push({ text: url, href });
    at = match.index + url.length;
  }
  if (at < text.length || pieces.length === 0) pieces.push({ text: text.slice(at), href: null });
  return pieces;
}
