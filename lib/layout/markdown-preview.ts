/**
 * The start of a Markdown text with its syntax taken out, for one-line previews: a card shows "Goal Fix the
 * build" for "## Goal\nFix the build", not the heading marks. Only the start is read (a preview shows at most
 * a line), and only syntax that cannot be part of the words goes: heading marks, quote marks, list bullets and
 * task boxes, bold and strike marks, code ticks, link targets. Single `*` and `_` stay (snake_case, globs).
 */
export function markdownPreview(text: string, window = 720): string {
  const head = text.length > window ? text.slice(0, window) : text;
  return head
    .split("\n")
    .map((line) =>
      line
        .replace(/^\s{0,3}(?:#{1,6}(?=\s|$)|>+|[-*+](?=\s)|\d{1,9}[.)](?=\s))\s*(?:\[[ xX]\]\s+)?/, "")
        .replace(/!?\[([^\]\n]*)\]\([^)\n]*\)/g, "$1")
        .replace(/\*\*|~~|`+/g, ""),
    )
    .join("\n");
}
