import type { SessionTree } from "./session-tree";
import type { LabelState } from "./coding-agent-0.84/tree-state";
import type { ContextMessage, JsonObject, RuleSetId, SessionContext, SessionHeader, TreeEntry } from "../types";
import type { BranchSummaryPreview } from "./coding-agent-0.84/branch-summary";
import type { CompactionPreview } from "./coding-agent-0.84/compaction";
import type { LlmMessage } from "./coding-agent-0.84/llm";
import type { TokenEstimate } from "./coding-agent-0.84/tokens";
import type { V4Log } from "../read/v4-log";
import type { TreePath } from "../tree/tree-path";
import type { ForkOptions, ForkResult } from "./coding-agent-0.84/fork";

/** What rules read: the indexed file, its header, and a v4 log's own records when the file is one. */
export interface RuleInput {
  readonly tree: SessionTree;
  readonly header: SessionHeader | null;
  readonly v4: V4Log | null;
}

/**
 * One pi version's way of reading a session file: every question the viewer
 * asks of a file is answered through one of these, and nothing outside this
 * folder tests which one it is. A new pi version whose answers differ is a new
 * folder here implementing this interface, plus its differential test.
 */
export interface RuleSet {
  /** the id the CLI's `--reader` and the viewer's `rules=` take */
  readonly id: RuleSetId;
  /** "pi-coding-agent ≥ 0.87" */
  readonly label: string;
  /** the package and versions whose code these rules reproduce */
  readonly oracle: string;
  /** what sets these rules apart, one sentence */
  readonly summary: string;
  /** pi 0.84's two v3 readers go by a plain name ("coding agent", "harness"); newer rules by their label */
  readonly plainName: string | null;
  /** the root path stops at a compaction (the harness's getPathToRootOrCompaction), so it can be shorter than the tree's */
  readonly pathStopsAtCompaction: boolean;
  /** the context names the active tools (the 0.83 harness's active_tools_change) */
  readonly tracksActiveTools: boolean;

  /** the session's name, null when it has none */
  sessionName(input: RuleInput): string | null;
  /** where the next entry goes after loading */
  leaf(input: RuleInput): string | null;
  /** labels in force, by target id */
  labels(input: RuleInput): ReadonlyMap<string, LabelState>;
  /** getBranch: root → id. A fresh array. */
  branch(input: RuleInput, id: string): TreeEntry[];
  /** `branch` as the tree's slots where these rules' path entries are the tree's own (entries are made when read) */
  branchPath(input: RuleInput, id: string): TreePath;
  /** buildContextEntries: the entries whose messages make up the context at `id`; null: before any entry */
  contextEntries(input: RuleInput, id: string | null): TreeEntry[];
  /** buildSessionContext with `id` as the leaf; null: before any entry */
  context(input: RuleInput, id: string | null): SessionContext;
  /** sessionEntryToContextMessages: what one entry yields on its own (no edits by later entries) */
  messages(entry: TreeEntry): ContextMessage[];
  /**
   * Why context entries these rules keep yield no message where pi 0.84's
   * would (an edit removed it, only the newest compaction speaks, a deferred
   * reply), by entry id. `entries` is `contextEntries` at one leaf, in order.
   */
  whyNotSent(entries: readonly TreeEntry[]): Map<string, string>;
  /** convertToLlm: what the model's API gets for a context's messages, each with the entry it came from */
  llm(messages: readonly ContextMessage[]): LlmMessage[];
  /**
   * How full the context is by pi's estimate (estimateContextTokens, or
   * ≥ 0.87's estimateProjectedContextTokens): `messages` are a context's at a
   * leaf, `path()` that leaf's branch (asked for only by rules that need it: a
   * deep branch is a long walk). Throws where pi throws (a message it cannot
   * measure).
   */
  contextTokens(messages: readonly ContextMessage[], path: () => readonly TreeEntry[]): TokenEstimate;
  /** estimateTokens of one context message */
  messageTokens(message: JsonObject): number;
  /**
   * What /tree navigation from `oldLeafId` to `targetId` would summarize
   * (collectEntriesForBranchSummary, prepareBranchEntries within `budget`
   * tokens; 0: no limit). Throws where pi throws.
   */
  branchSummary(input: RuleInput, oldLeafId: string | null, targetId: string, budget: number): BranchSummaryPreview;
  /**
   * What compaction would prepare with `id` as the leaf (prepareCompaction,
   * keeping about `keepRecentTokens`); null where pi prepares nothing (the
   * leaf is a compaction, or nothing is left to summarize). `path` gives
   * `branch(id)` by these rules (the caller's, usually remembered), for the
   * rules that read more than the part since the last compaction. Throws
   * where pi throws.
   */
  compaction(input: RuleInput, id: string, keepRecentTokens: number, path: () => readonly TreeEntry[]): CompactionPreview | null;
  /** the file pi's fork of `id` writes (createBranchedSession, or a v4 log's repo.fork) */
  fork(input: RuleInput, id: string, options?: ForkOptions): ForkResult;
}
