import type { LabelState } from "../coding-agent-0.84/tree-state";
import type { TreeObserver } from "../../tree/tree-observer";
import type { SessionEntry } from "../../types";

/**
 * What pi-agent-core 0.83's harness keeps as it reads a file, beside the tree: its cursor, which `leaf` entries
 * move (spec §6), and its labels (trimmed; one of whitespace alone clears).
 */
export class HarnessTreeState implements TreeObserver {
  /** the cursor after loading: the last entry line with an id, or the target a `leaf` entry there names */
  leaf: string | null = null;
  /** whether the file holds a `leaf` entry (with an id): the harness wrote it */
  hasLeafEntries = false;
  readonly labels = new Map<string, LabelState>();

  added(entry: SessionEntry, _slot: number, line: number, id: string | undefined): void {
    if (id === undefined) return;
    const type = entry.type;
    if (type === "leaf") {
      this.hasLeafEntries = true;
      const target = entry.targetId;
      this.leaf = typeof target === "string" ? target : null;
      return;
    }
    this.leaf = id;
    if (type !== "label") return;
    const raw = entry.label;
    const trimmed = typeof raw === "string" ? raw.trim() : "";
    if (trimmed) this.labels.set(entry.targetId as string, { label: trimmed, timestamp: entry.timestamp, entryId: id, line });
    else this.labels.delete(entry.targetId as string);
  }
}
