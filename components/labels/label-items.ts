/**
 * Every label of a session as the labels list shows it: target entry, what it
 * is, its first words, in file order of the targets (labels naming an entry
 * not in the file last). Labels come from `session.labels()`, pi's rules.
 */
import { entryKind, entrySnippet, type EntryLook } from "@/components/inspector/entry-kind";
import type { Session } from "@/lib/session";

export interface LabelItem {
  targetId: string;
  label: string;
  /** the label entry that set it, and its line */
  labelEntryId: string;
  labelLine: number;
  /** null: the target is not in the file (pi keeps such labels) */
  target: { kind: EntryLook; snippet: string; line: number } | null;
}

export function labelItems(session: Session): LabelItem[] {
  const items: LabelItem[] = [];
  for (const [targetId, state] of session.labels()) {
    const entry = session.tree.get(targetId);
    const node = session.tree.node(targetId);
    items.push({
      targetId,
      label: state.label,
      labelEntryId: state.entryId,
      labelLine: state.line,
      target: entry ? { kind: entryKind(entry), snippet: entrySnippet(entry), line: node?.line ?? 0 } : null,
    });
  }
  const order = (item: LabelItem) => item.target?.line ?? Number.POSITIVE_INFINITY;
  return items.sort((x, y) => order(x) - order(y) || x.labelLine - y.labelLine);
}
