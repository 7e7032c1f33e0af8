import type { TreeObserver } from "../../tree/tree-observer";
import type { SessionEntry } from "../../types";

export interface LabelState {
  label: string;
  /** timestamp of the label entry that set it (pi copies it into forks) */
  timestamp: unknown;
  /** id and line of the label entry that set it */
  entryId: string;
  line: number;
}

/**
 * What pi-coding-agent's SessionManager keeps as it reads a file, beside the tree: its leaf (the last entry
 * line), its labels and the session's name. Every coding-agent rule set reads it (spec §6).
 */
export class CodingAgentTreeState implements TreeObserver {
  /** the leaf after loading; null before any entry, and when the last entry line has no id */
  leaf: string | null = null;
  /** the last entry line has no id: pi's leaf is `undefined` (its context is that line alone) */
  leafIsIdless = false;
  /** by target id; insertion order matters (a fork writes them in this order) */
  readonly labels = new Map<string, LabelState>();
  /** the `name` of the last session_info entry, as written */
  private lastName: unknown = undefined;

  added(entry: SessionEntry, _slot: number, line: number, id: string | undefined): void {
    if (id === undefined) {
      this.leafIsIdless = true;
      this.leaf = null;
      return;
    }
    this.leaf = id;
    this.leafIsIdless = false;
    const type = entry.type;
    if (type === "label") {
      const targetId = entry.targetId as string;
      if (entry.label) this.labels.set(targetId, { label: entry.label as string, timestamp: entry.timestamp, entryId: id, line });
      else this.labels.delete(targetId);
    } else if (type === "session_info") this.lastName = entry.name;
  }

  /** The name of the last session_info entry in file order, trimmed; null if none or empty. */
  get name(): string | null {
    const name = this.lastName;
    return typeof name === "string" ? name.trim() || null : null;
  }
}
