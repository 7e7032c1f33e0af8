import { StatsTally } from "../tree/stats-tally";
import { TreeIndex } from "../tree/tree";
import type { SessionEntry, TreeEntry } from "../types";
import { ContextEditTargets } from "./coding-agent-0.87/context-edit-targets";
import { CodingAgentTreeState, type LabelState } from "./coding-agent-0.84/tree-state";
import { FormatEvidence } from "./format-evidence";
import { HarnessTreeState } from "./harness-0.83/tree-state";

/**
 * A session's tree as the app reads it: the index (TreeIndex: structure and entries), and what the rule sets
 * keep as entries come, each an observer of it (TreeObserver) that this class tells of every entry. Which rules
 * read a file is known only once it is read (detect.ts reads the evidence), so every tree keeps what each needs.
 */
export class SessionTree extends TreeIndex {
  /** totals over every entry added, in file order (what the whole file's stats read) */
  readonly tally = new StatsTally();
  /** traces of newer pi writers (usage, context_edit, …): which rules read the file */
  readonly evidence = new FormatEvidence();
  private readonly codingAgent = new CodingAgentTreeState();
  private readonly harness = new HarnessTreeState();
  private readonly contextEdits = new ContextEditTargets();

  /**
   * Tells its own observers, one call each, then any registered with observe: a call site per observer stays
   * monomorphic, where one loop over them all made adding entries measurably slower.
   */
  protected override tell(entry: SessionEntry, slot: number, line: number, id: string | undefined): void {
    this.tally.added(entry);
    this.evidence.added(entry, slot, line, id);
    this.codingAgent.added(entry, slot, line, id);
    this.harness.added(entry, slot, line, id);
    this.contextEdits.added(entry, slot);
    super.tell(entry, slot, line, id);
  }

  /** The leaf after loading, per reader (spec §6). `null`: before any entry. */
  leaf(reader: "ca" | "hx"): string | null {
    return reader === "hx" ? this.harness.leaf : this.codingAgent.leaf;
  }

  /** True when pi's CA leaf is an entry without id (its context is then that line alone). */
  get leafIsIdless(): boolean {
    return this.codingAgent.leafIsIdless;
  }

  /** Whether the file holds `leaf` entries (the harness wrote it). */
  get hasLeafEntries(): boolean {
    return this.harness.hasLeafEntries;
  }

  /** The labels per reader: the coding agent's in the order set (a fork writes them so), the harness's trimmed. */
  labels(reader: "ca" | "hx"): ReadonlyMap<string, LabelState> {
    return reader === "hx" ? this.harness.labels : this.codingAgent.labels;
  }

  /** The name of the last session_info entry in file order, trimmed; null if none or empty. */
  get name(): string | null {
    return this.codingAgent.name;
  }

  /** The context_edit entries (pi ≥ 0.87) that name `id`, anywhere in the file, in file order: each applies on its own branch. */
  editsOf(id: string): readonly TreeEntry[] {
    return this.contextEdits.editsOf(this, id);
  }
}
