/**
 * A tool view cut to the size a transcript file keeps (`Transcript.maxOutput`): each text it shows is cut with
 * a note saying how much was left out, and a diff or a listing keeps its first lines up to that many characters.
 */
import { truncate } from "@/lib/session/features/transcript-model";
import type { DiffLine, ToolView } from "@/lib/session/features/tool-view";

export function boundedToolView(view: ToolView, max: number): ToolView {
  const cut = (text: string) => truncate(text, max);
  const output = cut(view.output);
  switch (view.tool) {
    case "edit":
      return { ...view, output, diff: view.diff && firstDiffLines(view.diff, max) };
    case "read":
      return { ...view, output, content: cut(view.content) };
    case "write":
      return { ...view, output, content: view.content === null ? null : cut(view.content) };
    case "bash":
      return { ...view, output, shown: cut(view.shown) };
    case "grep":
    case "find":
    case "ls": {
      const kept = firstLines(view.items, max, (item) => item.length);
      const left = view.items.length - kept.length;
      return { ...view, output, items: left ? [...kept, `… (${left} more not shown)`] : kept };
    }
    default:
      return { ...view, output };
  }
}

function firstDiffLines(lines: DiffLine[], max: number): DiffLine[] {
  const kept = firstLines(lines, max, (line) => line.text.length);
  const left = lines.length - kept.length;
  return left ? [...kept, { sign: " ", line: null, text: `… (${left} more lines of the diff not shown)`, gap: true }] : kept;
}

/** The first items whose lengths (plus one per line break) add up to at most `max`; at least one. */
function firstLines<T>(items: T[], max: number, length: (item: T) => number): T[] {
  let used = 0;
  for (const [i, item] of items.entries()) {
    used += length(item) + 1;
    if (used > max && i > 0) return items.slice(0, i);
  }
  return items;
}
