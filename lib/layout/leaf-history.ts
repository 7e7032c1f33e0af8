/**
 * The leaf-history timeline as data: which steps are rewinds (the cursor moved
 * somewhere other than the entry just written below it), and how to step
 * between them. Pure; the steps come from `session.tree.leafHistory`.
 */
import type { LeafStep, LeafSteps, Session } from "../session";
import { lastAnswer } from "./last-answer";

/** A step where the cursor moved back instead of following the append: a branch or an HX leaf entry. */
export function isRewind(step: LeafStep): boolean {
  return step.kind !== "append";
}

/** Indices of the rewind steps, in file order. */
export function rewindIndices(history: Pick<LeafSteps, "length" | "kindAt">): number[] {
  const out: number[] = [];
  for (let i = 0; i < history.length; i++) if (history.kindAt(i) !== "append") out.push(i);
  return out;
}

/** The rewind steps of a session's leaf history. */
export const sessionRewinds = lastAnswer<null, number[]>((session: Session) => rewindIndices(session.tree.leafHistory));

/** The nearest rewind strictly before (-1) or after (+1) step `from`, or null. */
export function nearestRewind(rewinds: readonly number[], from: number, direction: -1 | 1): number | null {
  if (direction === 1) return rewinds.find((i) => i > from) ?? null;
  for (let k = rewinds.length - 1; k >= 0; k--) if (rewinds[k]! < from) return rewinds[k]!;
  return null;
}

/** One line about a step, for the timeline's readout. */
export function describeStep(step: LeafStep): string {
  const at = (id: string | null) => id ?? "(none)";
  switch (step.kind) {
    case "append":
      return `appended ${at(step.entryId)}`;
    case "branch":
      return `branched: ${at(step.entryId)} written away from the leaf ${at(step.previousLeafId)}`;
    case "leaf-entry":
      return `leaf moved ${at(step.previousLeafId)} → ${at(step.leafId)}`;
  }
}
