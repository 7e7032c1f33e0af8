/** Code as lines of tokens: what the highlighter makes and every code view draws (the highlighter itself loads later). */

export interface CodeToken {
  text: string;
  /** highlight.js's classes (`hljs-keyword`…), outermost first; null for plain text */
  className: string | null;
}

export type CodeLine = CodeToken[];

/** The code's lines as plain tokens: what shows until (or instead of) highlighting. */
export function plainLines(code: string): CodeLine[] {
  return code.split("\n").map((line) => (line ? [{ text: line, className: null }] : []));
}
