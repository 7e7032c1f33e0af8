import { caContext, caContextEntries, hxContext, hxContextEntries, pathSummary } from "./context";
import { newerCaContext, newerCaContextEntries } from "./context-newer";
import { v4Branch, v4Context, v4ContextEntries } from "./context-v4";
import { forkSession, type ForkOptions, type ForkResult } from "./fork";
import { forkNewer } from "./fork-newer";
import { forkV4Log } from "./fork-v4";
import { RULE_SETS, type FormatTrace } from "./rules";
import type { V4Lane } from "./v4-log";
import { harnessRefusal } from "./harness";
import { RecentAnswers } from "./recent-answers";
import { headerSchema, schemaIssues } from "./schema";
import { CURRENT_VERSION, SessionParser } from "./parse";
import { caBranch, hxBranch } from "./path";
import { treeShape, type TreeShape } from "./structure";
import type { LabelState, SessionTree } from "./tree";
import { SessionQueryError, type Diagnostic, type LineAccount, type Reader, type SessionContext, type SessionHeader, type TreeEntry } from "./types";

export interface OpenOptions {
  /** "auto" (default): the harness rules for files holding `leaf` entries it can read, else the coding agent's. */
  reader?: "auto" | Reader;
  /** schemaIssues of the file's lines, checked elsewhere (the viewer's read worker) on the same text */
  schemaChecked?: SchemaChecked;
  /** the check is running elsewhere and arrives later (acceptSchema): until then, no schema diagnostics */
  schemaPending?: boolean;
}

/**
 * schemaIssues(JSON.parse(text)) of each of the first `lines` lines, every
 * one ended by a newline (a final line without one may still change), keyed
 * by line; a line absent from `issues` conforms or is no object.
 */
export interface SchemaChecked {
  lines: number;
  issues: ReadonlyMap<number, string[]>;
}

interface ReaderChoice {
  reader: Reader;
  /** the same as `reader`: the id of the rules (see RULE_SETS) */
  id: Reader;
  /** why this reader, shown to the user */
  reason: string;
  /** the harness's refusal, when it has one */
  harnessError: string | null;
  /** the rules by name: "pi-coding-agent ≥ 0.87" */
  label: string;
  /** the line that decided, when one did */
  line: number | null;
  /** short form of the reason for a badge: "line 14: context_edit"; null for the default rules */
  detail: string | null;
  forced: boolean;
  /** first line of each kind of trace a newer pi writer left */
  traces: FormatTrace[];
}

/**
 * One session file, read and indexed: the façade the CLI, the server and the
 * UI use. Every answer is the one pi gives for the chosen reader; where pi
 * throws or never returns, a SessionQueryError says so instead.
 */
export class Session {
  readonly tree: SessionTree;
  private choiceCache: { rev: number; value: ReaderChoice } | null = null;
  private shapeCache: { rev: number; value: TreeShape } | null = null;
  private schemaCache: { rev: number; value: Diagnostic[] } | null = null;
  private schemaChecked: SchemaChecked | undefined;
  private schemaLater: boolean;
  private readonly walks = new RecentAnswers<readonly TreeEntry[]>(8);
  private readonly cuts = new RecentAnswers<readonly TreeEntry[]>(4);

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

  get name(): string | null {
    // a v4 log's name is its last name fact, as given (pi neither trims it nor treats "" as none)
    const v4 = this.parser.v4;
    if (v4 && this.reader === "v4") return v4.name ?? null;
    return this.tree.name;
  }

  /** The rules applied to the file and why (same as readerChoice). */
  get rules(): ReaderChoice {
    return this.readerChoice;
  }

  /** A v4 log's lanes (main first, then in creation order); [] for other files. */
  get lanes(): V4Lane[] {
    return this.parser.v4 ? [...this.parser.v4.lanes.values()] : [];
  }

  get readerChoice(): ReaderChoice {
    // keyed on lines read, not tree revisions: a header or an unreadable line changes the harness's verdict too
    const rev = this.parser.revision;
    if (this.choiceCache?.rev === rev) return this.choiceCache.value;
    const value = this.chooseReader();
    this.choiceCache = { rev, value };
    return value;
  }

  get reader(): Reader {
    return this.readerChoice.reader;
  }

  /** The leaf after loading, by the chosen reader. */
  get leafId(): string | null {
    const reader = this.reader;
    if (reader === "v4") return this.parser.v4?.leafId ?? null;
    return this.tree.leaf(reader === "hx" ? "hx" : "ca");
  }

  labels(reader: Reader = this.reader): ReadonlyMap<string, LabelState> {
    if (reader === "v4") return this.v4Labels();
    return this.tree.labels(reader === "hx" ? "hx" : "ca");
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
    const choice = this.readerChoice;
    // v4 entries carry numeric timestamps (ms), as pi-agent-core writes them
    const parsed = this.parser.v4 ? this.parser.diagnostics.filter((d) => !(d.kind === "missing-timestamp" && d.entryId !== undefined && typeof this.tree.get(d.entryId)?.timestamp === "number")) : this.parser.diagnostics;
    // read by the v4 rules, a log pi-agent-core opens is no error: only the coding agent refuses it
    const v4Readable = choice.reader === "v4" && this.parser.v4?.refusal === null;
    if (v4Readable) for (const [i, d] of parsed.entries()) if (d.kind === "v4-log") parsed[i] = { ...d, severity: "info" };
    const out = [...parsed, ...this.shape().diagnostics, ...this.schemaDiagnostics()];
    if (this.tree.hasLeafEntries && choice.reader === "ca") {
      out.push({ line: 0, kind: "hx-refused", severity: "warning", message: `the file holds leaf entries, but pi's harness would refuse it (${choice.harnessError}); read by the coding agent's rules instead` });
    }
    for (const [targetId, state] of this.tree.caLabels) {
      if (!this.tree.get(targetId)) out.push({ line: state.line, kind: "label-missing-target", severity: "warning", message: `label "${state.label}" names ${targetId}, which is not in the file (pi keeps it)`, entryId: state.entryId });
    }
    const v4 = this.parser.v4;
    if (v4) {
      const refusal = v4.refusal;
      const torn = v4.tornTail;
      if (refusal) out.push({ line: refusal.line, kind: "v4-refused", severity: "error", message: `pi-agent-core 0.84.1 refuses this log: line ${refusal.line} ${refusal.message}` });
      if (torn) out.push({ line: torn.line, kind: "v4-torn-tail", severity: "warning", message: "last line is cut off: pi-agent-core 0.84.1 drops it (it rewrites the file without it)" });
    }
    if (this.tree.leafIsIdless) out.push({ line: this.tree.entryLines[this.tree.entryLines.length - 1] ?? 0, kind: "leaf-is-idless", severity: "warning", message: "the last entry has no id: pi's leaf is undefined and its context is that line alone" });
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
      if (!result.success) out.push({ line: this.parser.headerLine, kind: "schema", severity: "info", message: `header differs from what pi writes: ${result.error.issues.map((i) => `${i.path.join(".") || "header"}: ${i.message}`).join("; ")}` });
    }
    // a migrated file's entries are no longer the text's objects (ids, parents and versions were filled in)
    const checked = this.parser.sourceVersion === CURRENT_VERSION ? this.schemaChecked : undefined;
    for (const node of this.tree.byId.values()) {
      if (node.entry.type === "message" && node.entry.message == null) continue; // reported already
      const issues = checked && node.line <= checked.lines ? (checked.issues.get(node.line) ?? []) : schemaIssues(node.entry);
      if (issues.length) out.push({ line: node.line, kind: "schema", severity: "info", message: `${String(node.entry.type)} entry differs from what pi writes: ${issues.join("; ")}`, entryId: node.entry.id });
    }
    this.schemaCache = { rev, value: out };
    return out;
  }

  /** getBranch: root → id, by the chosen reader (the harness's path stops at compactions). A fresh array: callers may change it. */
  branch(id: string, reader: Reader = this.reader): TreeEntry[] {
    const walk = reader === "hx" || reader === "v4" ? reader : "ca";
    const path = this.walks.get(this.tree.revision, `${walk}\0${id}`, () => (walk === "hx" ? hxBranch(this.tree, id) : walk === "v4" ? v4Branch(this.tree, id) : caBranch(this.tree, id)));
    return path.slice();
  }

  /**
   * Entries on the coding agent's full root → id path that id's context (by the chosen reader) leaves out:
   * cut by a compaction, or behind the harness's shorter path. Throws what `branch` and `contextEntries` throw.
   * Shared, not copied (tens of thousands of entries on a deep session): read it, do not change it.
   */
  cutFromContext(id: string): readonly TreeEntry[] {
    return this.cuts.get(this.tree.revision, `${this.reader}\0${id}`, () => {
      const kept = new Set(this.contextEntries(id).map((entry) => entry.id));
      return this.branch(id, "ca").filter((entry) => !kept.has(entry.id));
    });
  }

  contextEntries(id: string | null, reader: Reader = this.reader): TreeEntry[] {
    if (reader === "hx") return hxContextEntries(hxBranch(this.tree, id));
    if (id === null) return [];
    if (reader === "v4") return v4ContextEntries(v4Branch(this.tree, id));
    if (reader === "ca-0.86" || reader === "ca-0.87") return newerCaContextEntries(this.tree, id);
    return caContextEntries(this.tree, id);
  }

  /** buildSessionContext with `id` as the leaf; null: the context before any entry. */
  context(id: string | null, reader: Reader = this.reader): SessionContext {
    if (reader === "hx") return hxContext(this.tree, id);
    if (reader === "v4") return v4Context(this.tree, id);
    if (reader === "ca-0.86" || reader === "ca-0.87") return newerCaContext(this.tree, id, reader);
    return caContext(this.tree, id);
  }

  /** Depth and summed provider usage of the root→id path (coding-agent path). */
  pathSummary(id: string) {
    return pathSummary(this.tree, id);
  }

  /** The file pi's `createBranchedSession(id)` would write. */
  fork(id: string, options?: ForkOptions, reader: Reader = this.reader): ForkResult {
    // pi ≥ 0.85 re-targets a compaction's firstKeptEntryId that named a dropped label entry
    if (reader === "ca-0.86" || reader === "ca-0.87") return forkNewer(this.tree, this.header, id, options);
    // a v4 log forks into another v4 log (pi-agent-core's repo.fork at the entry)
    if (reader === "v4") {
      if (!this.parser.v4) throw new SessionQueryError("invalid", "only a v4 log can be forked by the v4 rules");
      return forkV4Log(this.tree, this.parser.v4, id, options);
    }
    return forkSession(this.tree, this.header, id, options);
  }

  private chooseReader(): ReaderChoice {
    const forced = this.options.reader ?? "auto";
    const harnessError = this.tree.hasLeafEntries || forced === "hx" ? this.harnessError() : null;
    const traces = this.tree.evidence.all;
    const choice = (reader: Reader, reason: string, line: number | null = null, detail: string | null = null): ReaderChoice => ({ reader, id: reader, reason, harnessError, label: RULE_SETS[reader].label, line, detail, forced: forced !== "auto", traces });
    if (forced !== "auto") return choice(forced, `reader chosen explicitly (${forced})`, null, "chosen explicitly");
    const v4 = this.parser.v4;
    if (v4) return choice("v4", `line ${v4.headerLine} is a v4 log header ({"kind":"header","version":4}): read as pi-agent-core 0.84.1's JSONL storage reads it`, v4.headerLine, `line ${v4.headerLine}: v4 header`);
    if (!this.tree.hasLeafEntries) {
      const trace = this.tree.evidence.strongest;
      if (trace) return choice(trace.rules, `${trace.reason}: read by ${RULE_SETS[trace.rules].label}'s rules`, trace.line, `line ${trace.line}: ${trace.what}`);
      return choice("ca", "no leaf entries: read as pi's coding agent reads it");
    }
    if (harnessError === null) return choice("hx", "leaf entries: read as pi-agent-core's harness (0.78–0.83) reads it");
    return choice("ca", `leaf entries, but the harness refuses the file (${harnessError}): read by the coding agent's rules`);
  }

  /** A v4 log's label facts in pi's terms (set by facts, not entries: `entryId` names the fact's line). */
  private v4Labels(): ReadonlyMap<string, LabelState> {
    const out = new Map<string, LabelState>();
    for (const [targetId, fact] of this.parser.v4?.labels ?? []) out.set(targetId, { label: fact.label, timestamp: undefined, entryId: `seq ${fact.seq}`, line: fact.line });
    return out;
  }

  private harnessError(): string | null {
    const refusal = harnessRefusal(this.parser);
    if (refusal) return refusal;
    const leaf = this.tree.leaf("hx");
    if (leaf !== null && !this.tree.get(leaf)) return `Entry ${leaf} not found`;
    return null;
  }
}

export function formatDiagnostic(fileName: string, d: Diagnostic): string {
  return `${fileName}:${d.line}: ${d.severity}: ${d.message}`;
}
