/**
 * The classes every card shares for the view's marks, so entries, segments
 * and cursor markers show the leaf, the active path, the selection, context
 * cuts and scrubbed-away lines the same way.
 */

interface CardMarks {
  leaf: boolean;
  activePath: boolean;
  selected: boolean;
  cut: boolean;
  ghost: boolean;
}

export function cardState(marks: CardMarks): string {
  const classes = ["transition-[opacity,box-shadow] duration-150"];
  if (marks.activePath) classes.push("border-accent/70 bg-[color-mix(in_oklab,var(--accent)_7%,var(--background))]");
  else classes.push("border-border bg-background hover:border-[color-mix(in_oklab,var(--accent)_50%,var(--border))]");
  if (marks.leaf) classes.push("border-accent shadow-[0_0_0_1px_var(--accent)]");
  if (marks.selected) classes.push("ring-2 ring-accent ring-offset-2 ring-offset-background shadow-md");
  if (marks.ghost) classes.push("opacity-30 border-dashed");
  else if (marks.cut) classes.push("opacity-45 saturate-0");
  return classes.join(" ");
}

/** Edges need handles to attach to; nobody connects anything here, so they stay invisible. */
export const HIDDEN_HANDLE = "!h-px !w-px !min-h-0 !min-w-0 !border-0 !bg-transparent !opacity-0 pointer-events-none";
