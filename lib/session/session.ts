import { caContext, caContextEntries, hxContext, hxContextEntries, pathSummary } from "./context";
import { forkSession, type ForkOptions, type ForkResult } from "./fork";
import { harnessRefusal } from "./harness";
import { headerSchema, schemaIssues } from "./schema";
import { SessionParser } from "./parse";
import { caBranch, hxBranch } from "./path";
import { treeShape, type TreeShape } from "./structure";
import type { LabelState, SessionTree } from "./tree";
import type { Diagnostic, LineAccount, Reader, SessionContext, SessionHeader, TreeEntry } from "./types";

export interface OpenOptions {
  /** "auto" (default): the harness rules for files holding `leaf` entries it can read, else the coding agent's. */
  reader?: "auto" | Reader;
}

interface ReaderChoice {
  reader: Reader;
  /** why this reader, shown to the user */
  reason: string;
  /** the harness's refusal, when it has one */
  harnessError: string | null;
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

  constructor(
    readonly parser: SessionParser,
    private readonly options: OpenOptions = {},
  ) {
    this.tree = parser.tree;
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
    return this.tree.name;
  }

  get readerChoice(): ReaderChoice {
    // keyed on lines read, not tree revisions: a header or an unreadable line changes the harness's verdict too
    const rev = this.parser.lineCount;
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
    return this.tree.leaf(this.reader);
  }

  labels(reader: Reader = this.reader): ReadonlyMap<string, LabelState> {
    return this.tree.labels(reader);
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
    const out = [...this.parser.diagnostics, ...this.shape().diagnostics, ...this.schemaDiagnostics()];
    if (this.tree.hasLeafEntries && choice.reader === "ca") {
      out.push({ line: 0, kind: "hx-refused", severity: "warning", message: `the file holds leaf entries, but pi's harness would refuse it (${choice.harnessError}); read by the coding agent's rules instead` });
    }
    for (const [targetId, state] of this.tree.caLabels) {
      if (!this.tree.get(targetId)) out.push({ line: state.line, kind: "label-missing-target", severity: "warning", message: `label "${state.label}" names ${targetId}, which is not in the file (pi keeps it)`, entryId: state.entryId });
    }
    if (this.tree.leafIsIdless) out.push({ line: this.tree.entryLines[this.tree.entryLines.length - 1] ?? 0, kind: "leaf-is-idless", severity: "warning", message: "the last entry has no id: pi's leaf is undefined and its context is that line alone" });
    return out.sort((a, b) => a.line - b.line);
  }

  /**
   * Entries (and the header) whose shape differs from what pi writes. Checked
   * lazily, once per revision: the reader itself never needs them.
   */
  schemaDiagnostics(): Diagnostic[] {
    const rev = this.tree.revision;
    if (this.schemaCache?.rev === rev) return this.schemaCache.value;
    const out: Diagnostic[] = [];
    const header = this.parser.header;
    if (header && !this.parser.caRefused) {
      const result = headerSchema.safeParse(header);
      if (!result.success) out.push({ line: this.parser.headerLine, kind: "schema", severity: "info", message: `header differs from what pi writes: ${result.error.issues.map((i) => `${i.path.join(".") || "header"}: ${i.message}`).join("; ")}` });
    }
    for (const node of this.tree.byId.values()) {
      if (node.entry.type === "message" && node.entry.message == null) continue; // reported already
      const issues = schemaIssues(node.entry);
      if (issues.length) out.push({ line: node.line, kind: "schema", severity: "info", message: `${String(node.entry.type)} entry differs from what pi writes: ${issues.join("; ")}`, entryId: node.entry.id });
    }
    this.schemaCache = { rev, value: out };
    return out;
  }

  /** getBranch: root → id, by the chosen reader (the harness's path stops at compactions). */
  branch(id: string, reader: Reader = this.reader): TreeEntry[] {
    return reader === "hx" ? hxBranch(this.tree, id) : caBranch(this.tree, id);
  }

  contextEntries(id: string | null, reader: Reader = this.reader): TreeEntry[] {
    if (reader === "hx") return hxContextEntries(hxBranch(this.tree, id));
    return id === null ? [] : caContextEntries(this.tree, id);
  }

  /** buildSessionContext with `id` as the leaf; null: the context before any entry. */
  context(id: string | null, reader: Reader = this.reader): SessionContext {
    return reader === "hx" ? hxContext(this.tree, id) : caContext(this.tree, id);
  }

  /** Depth and summed provider usage of the root→id path (coding-agent path). */
  pathSummary(id: string) {
    return pathSummary(this.tree, id);
  }

  /** The file pi's `createBranchedSession(id)` would write. */
  fork(id: string, options?: ForkOptions): ForkResult {
    return forkSession(this.tree, this.header, id, options);
  }

  private chooseReader(): ReaderChoice {
    const forced = this.options.reader ?? "auto";
    const harnessError = this.tree.hasLeafEntries || forced === "hx" ? this.harnessError() : null;
    if (forced !== "auto") return { reader: forced, reason: `reader chosen explicitly (${forced})`, harnessError };
    if (!this.tree.hasLeafEntries) return { reader: "ca", reason: "no leaf entries: read as pi's coding agent reads it", harnessError };
    if (harnessError === null) return { reader: "hx", reason: "leaf entries: read as pi-agent-core's harness (0.78–0.83) reads it", harnessError };
    return { reader: "ca", reason: `leaf entries, but the harness refuses the file (${harnessError}): read by the coding agent's rules`, harnessError };
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
