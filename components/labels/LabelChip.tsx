/** A label as the inspector, the compare pane and the labels list show it: "# name" in a small pill. */

/** The label's text; a label of only whitespace (pi keeps it) is shown quoted, so it is not mistaken for none. */
export function labelText(label: string): string {
  return label.trim() ? label : `(blank: ${JSON.stringify(label)})`;
}

export function LabelChip({ label, className = "" }: { label: string; className?: string }) {
  return (
    <span
      title={`label: ${JSON.stringify(label)}`}
      className={`max-w-28 shrink-0 truncate rounded-full border border-pink-300 px-1.5 text-[10.5px] leading-[15px] text-pink-800 dark:border-pink-800 dark:text-pink-300 ${className}`}
    >
      # {labelText(label)}
    </span>
  );
}
