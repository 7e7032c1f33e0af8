import { chooseRules, type RulesChoice } from "./rules/detect";
import type { ForkOptions, ForkResult } from "./rules/coding-agent-0.84/fork";
import type { BranchSummaryPreview } from "./rules/coding-agent-0.84/branch-summary";
import type { CompactionPreview } from "./rules/coding-agent-0.84/compaction";
import { RULE_SETS } from "./rules/registry";
import type { RuleInput, RuleSet } from "./rules/rule-set";
import { pathSummary } from "./rules/coding-agent-0.84/context";
import type { V4Lane, V4Log } from "./read/v4-log";
import { RevisionCache } from "./tree/revision-cache";
import { PathCut, PathIndex } from "./tree/path-index";
import type { TreePath } from "./tree/tree-path";
import { headerSchema, schemaIssues } from "./read/schema";
import type { SchemaChecked } from "./read/schema-lines";
import { CURRENT_VERSION, SessionParser } from "./read/parse";
import { treeShape, type TreeShape } from "./tree/tree-shape";
import type { LabelState } from "./rules/coding-agent-0.84/tree-state";
import type { SessionTree } from "./rules/session-tree";
import { SessionQueryError, type Diagnostic, type LineAccount, type RuleSetId, type SessionContext, type SessionHeader, type TreeEntry } from "./types";

export interface OpenOptions {
  /** "auto" (default): the harness rules for files holding `leaf` entries it can read, else the coding agent's. */
  reader?: "auto" | RuleSetId;
  /** schemaIssues of the file's lines, checked elsewhere (the viewer's read worker) on the same text */
  schemaChecked?: SchemaChecked;
  /** the check is running elsewhere and arrives later (acceptSchema): until then, no schema diagnostics */
  schemaPending?: boolean;
}

/**
 * One session file, read and indexed: the façade the CLI, the server and the
 * UI use. Every answer is the one pi gives for the chosen reader; where pi
 * throws or never returns, a SessionQueryError says so instead.
 */
export class Session implements RuleInput {
  readonly tree: SessionTree;
  private choiceCache: { rev: number; value: RulesChoice } | null = null;
  private shapeCache: { rev: number; value: TreeShape } | null = null;
  private schemaCache: { rev: number; value: Diagnostic[] } | null = null;
  private schemaChecked: SchemaChecked | undefined;
  private schemaLater: boolean;
  private readonly walks = new RevisionCache<TreePath>(8);
  private readonly indexes = new RevisionCache<PathIndex>(8);
  private readonly cuts = new RevisionCache<PathCut>(4);

  constructor(
    readonly parser: SessionParser,
    private readonly options: OpenOptions = {},
  ) {
    this.tree = parser.tree;
    this.schemaChecked = options.schemaChecked;
    this.schemaLater = options.schemaPending === true;
  }

  /** True while the schema check runs elsewhere: schemaDiagnostics() is empty until acceptSchema. */
  get schemaPending(): boolean {
    return this.schemaLater;
  }

  /** The schema check done elsewhere has finished. */
  acceptSchema(checked: SchemaChecked): void {
    this.schemaChecked = checked;
    this.schemaLater = false;
    this.schemaCache = null;
  }

  static fromText(text: string, options?: OpenOptions): Session {
    const parser = new SessionParser();
    parser.push(text);
    return new Session(parser.end(), options);
  }

  get header(): SessionHeader | null {
    return this.parser.header;
  }

  /** A v4 log's own records (lanes, facts); null for a v3 file. */
  get v4(): V4Log | null {
    return this.parser.v4;
  }

  get name(): string | null {
    return this.rules.sessionName(this);
  }

  /** The rules the file is read by: every answer below comes from them. */
  get rules(): RuleSet {
    return this.rulesChoice.rules;
  }

  /** A v4 log's lanes (main first, then in creation order); [] for other files. */
  get lanes(): V4Lane[] {
    return this.parser.v4 ? [...this.parser.v4.lanes.values()] : [];
  }

  /** Which rules read the file, and why. */
  get rulesChoice(): RulesChoice {
    // keyed on lines read, not tree revisions: a header or an unreadable line changes the harness's verdict too
    const rev = this.parser.revision;
    if (this.choiceCache?.rev === rev) return this.choiceCache.value;
    const value = chooseRules(this.parser, this.options.reader);
    this.choiceCache = { rev, value };
    return value;
  }

  /** The id of the rules the file is read by. */
  get reader(): RuleSetId {
    return this.rulesChoice.id;
  }

  /** The leaf after loading, by the chosen rules. */
  get leafId(): string | null {
    return this.rules.leaf(this);
  }

  labels(reader: RuleSetId = this.reader): ReadonlyMap<string, LabelState> {
    return RULE_SETS[reader].labels(this);
  }

  account(): LineAccount {
    return this.parser.account();
  }

  /** The tree as drawn: pi's roots plus one stand-in per parent cycle. */
  shape(): TreeShape {
    const rev = this.tree.revision;
    if (this.shapeCache?.rev === rev) return this.shapeCache.value;
    const value = treeShape(this.tree);
    this.shapeCache = { rev, value };
    return value;
  }

  /** Everything worth telling about the file, by line. */
  diagnostics(): Diagnostic[] {
    const choice = this.rulesChoice;
    // v4 entries carry numeric timestamps (ms), as pi-agent-core writes them
    const parsed = this.parser.v4
      ? this.parser.diagnostics.filter(
          (d) => !(d.kind === "missing-timestamp" && d.entryId !== undefined && typeof this.tree.get(d.entryId)?.timestamp === "number"),
        )
      : this.parser.diagnostics;
    // read by the v4 rules, a log pi-agent-core opens is no error: only the coding agent refuses it
    const v4Readable = choice.id === "v4" && this.parser.v4?.refusal === null;
    if (v4Readable) for (const [i, d] of parsed.entries()) if (d.kind === "v4-log") parsed[i] = { ...d, severity: "info" };
    const out = [...parsed, ...this.shape().diagnostics, ...this.schemaDiagnostics()];
    if (this.tree.hasLeafEntries && choice.id === "ca") {
      out.push({
        line: 0,
        kind: "hx-refused",
        severity: "warning",
        message: `the file holds leaf entries, but pi's harness would refuse it (${choice.harnessError}); read by the coding agent's rules instead`,
      });
    }
    for (const [targetId, state] of this.tree.labels("ca")) {
      // (by the index: reading every target's entry would read a big session's labelled entries from its text)
      if (this.tree.slotOf(targetId) === -1)
        out.push({
          line: state.line,
          kind: "label-missing-target",
          severity: "warning",
          message: `label "${state.label}" names ${targetId}, which is not in the file (pi keeps it)`,
          entryId: state.entryId,
        });
    }
    const v4 = this.parser.v4;
    if (v4) {
      const refusal = v4.refusal;
      const torn = v4.tornTail;
      if (refusal)
        out.push({
          line: refusal.line,
          kind: "v4-refused",
          severity: "error",
          message: `pi-agent-core 0.84.1 refuses this log: line ${refusal.line} ${refusal.message}`,
        });
      if (torn)
        out.push({
          line: torn.line,
          kind: "v4-torn-tail",
          severity: "warning",
          message: "last line is cut off: pi-agent-core 0.84.1 drops it (it rewrites the file without it)",
        });
    }
    if (this.tree.leafIsIdless)
      out.push({
        line: this.tree.entryLines[this.tree.entryLines.length - 1] ?? 0,
        kind: "leaf-is-idless",
        severity: "warning",
        message: "the last entry has no id: pi's leaf is undefined and its context is that line alone",
      });
    return out.sort((a, b) => a.line - b.line);
  }

  /**
   * Entries (and the header) whose shape differs from what pi writes. Checked
   * lazily, once per revision: the reader itself never needs them.
   */
  schemaDiagnostics(): Diagnostic[] {
    if (this.schemaLater) return [];
    const rev = this.tree.revision;
    if (this.schemaCache?.rev === rev) return this.schemaCache.value;
    const out: Diagnostic[] = [];
    // a v4 log's lines have their own shape (kind, seq, numeric timestamps); V4Log checks them as pi does
    if (this.parser.v4) {
      this.schemaCache = { rev, value: out };
      return out;
    }
    const header = this.parser.header;
    if (header && !this.parser.caRefused) {
      const result = headerSchema.safeParse(header);
      if (!result.success)
        out.push({
          line: this.parser.headerLine,
          kind: "schema",
          severity: "info",
          message: `header differs from what pi writes: ${result.error.issues.map((i) => `${i.path.join(".") || "header"}: ${i.message}`).join("; ")}`,
        });
    }
    // a migrated file's entries are no longer the text's objects (ids, parents and versions were filled in)
    const checked = this.parser.sourceVersion === CURRENT_VERSION ? this.schemaChecked : undefined;
    for (const slot of this.tree.nodeSlots()) {
      const line = this.tree.lineAt(slot);
      const known = checked && line <= checked.lines;
      // a line checked elsewhere is read again only when it has issues (a tree may keep no entry objects)
      if (known && !checked.issues.has(line)) continue;
      // the entry's type and id come from the tree's columns: an entry object is made only where they cannot tell
      const type = this.tree.typeAt(slot);
      const entry = known && type !== undefined && (type !== "message" || this.tree.roleAt(slot) !== undefined) ? null : this.tree.entryAt(slot);
      if (entry?.type === "message" && entry.message == null) continue; // reported already
      const issues = known ? checked.issues.get(line)! : schemaIssues(entry!);
      if (issues.length)
        out.push({
          line,
          kind: "schema",
          severity: "info",
          message: `${entry ? String(entry.type) : type} entry differs from what pi writes: ${issues.join("; ")}`,
          entryId: this.tree.idAt(slot)!,
        });
    }
    this.schemaCache = { rev, value: out };
    return out;
  }

  /** getBranch: root → id, by the chosen rules (the harness's path stops at compactions). A fresh array: callers may change it. */
  branch(id: string, reader: RuleSetId = this.reader): TreeEntry[] {
    return this.sharedBranch(id, reader).entries();
  }

  /** What `branch` answers, remembered, as the tree's slots where it can (a deep path holds hundreds of thousands of entries). */
  sharedBranch(id: string, reader: RuleSetId = this.reader): TreePath {
    return this.walks.get(this.tree.revision, `${reader}\0${id}`, () => RULE_SETS[reader].branchPath(this, id));
  }

  /** `sharedBranch` as a set of ids that knows each one's position on the path, without a table of them where it can. */
  pathIndex(id: string, reader: RuleSetId = this.reader): PathIndex {
    return this.indexes.get(this.tree.revision, `${reader}\0${id}`, () => new PathIndex(this.tree, this.sharedBranch(id, reader)));
  }

  /**
   * Entries on the coding agent's full root → id path that id's context (by the chosen reader) leaves out:
   * cut by a compaction, or behind the harness's shorter path. Throws what `branch` and `contextEntries` throw.
   * A set over the path (tens of thousands of entries on a deep session), its entries listed when asked for.
   */
  cutFromContext(id: string): PathCut {
    return this.cuts.get(this.tree.revision, `${this.reader}\0${id}`, () => {
      const kept = this.contextEntries(id).map((entry) => entry.id);
      return new PathCut(this.pathIndex(id, "ca"), kept);
    });
  }

  contextEntries(id: string | null, reader: RuleSetId = this.reader): TreeEntry[] {
    return RULE_SETS[reader].contextEntries(this, id);
  }

  /** buildSessionContext with `id` as the leaf; null: the context before any entry. */
  context(id: string | null, reader: RuleSetId = this.reader): SessionContext {
    return RULE_SETS[reader].context(this, id);
  }

  /** Depth and summed provider usage of the root→id path (coding-agent path). */
  pathSummary(id: string) {
    return pathSummary(this.tree, id);
  }

  /**
   * What /tree navigation from `from` (the old leaf) to `to` would summarize:
   * the entries, their common ancestor, and the messages pi hands the
   * summarizer within `budget` tokens (0: no limit; pi's own is the model's
   * window − 16,384).
   */
  branchSummary(from: string | null, to: string, budget = 0, reader: RuleSetId = this.reader): BranchSummaryPreview {
    if (!this.tree.get(to)) throw new SessionQueryError("not-found", `Entry ${to} not found`);
    return RULE_SETS[reader].branchSummary(this, from, to, budget);
  }

  /**
   * What pi's compaction would prepare with `id` as the leaf, keeping about
   * `keepRecentTokens` (pi's default 20,000); null where it prepares nothing.
   */
  compaction(id: string, keepRecentTokens = 20000, reader: RuleSetId = this.reader): CompactionPreview | null {
    if (!this.tree.get(id)) throw new SessionQueryError("not-found", `Entry ${id} not found`);
    return RULE_SETS[reader].compaction(this, id, keepRecentTokens, () => this.branch(id, reader));
  }

  /**
   * What `read` answers with full content, for a session whose content is read from its file on demand
   * (SessionTree.readsOnDemand): the content `read` asks for is read first, in as many rounds as it asks
   * (a search asks a batch at a time). For a session in memory it is just `read()`.
   */
  async withContent<T>(read: () => T): Promise<T> {
    if (!this.tree.readsOnDemand) return read();
    for (;;) {
      const { value, lines } = this.tree.readLightly(read);
      if (!lines.length) return value;
      await this.tree.readContent(lines);
    }
  }

  /** The file pi's fork of `id` would write (`createBranchedSession`, or a v4 log's `repo.fork`). */
  fork(id: string, options?: ForkOptions, reader: RuleSetId = this.reader): ForkResult {
    return RULE_SETS[reader].fork(this, id, options);
  }
}

export function formatDiagnostic(fileName: string, d: Diagnostic): string {
  return `${fileName}:${d.line}: ${d.severity}: ${d.message}`;
}
