import { isObject } from "../json";
import { migrateEntries } from "./migrate";
import type { LineTexts } from "./line-texts";
import { LineReader, type ReadLine } from "./lines";
import { SessionTree } from "../rules/session-tree";
import { V4Log } from "./v4-log";
import { schemaIssues } from "./schema";
import type { SchemaChecked } from "./schema-lines";
import type { Diagnostic, LineAccount, SessionEntry, SessionHeader } from "../types";
import { LineKinds } from "./line-kinds";

export const CURRENT_VERSION = 3;

/**
 * Reads a session file line by line, from text chunks of any size, and feeds
 * the tree index as it goes. Every physical line ends up with one LineKind;
 * whatever pi skips or refuses is reported as a Diagnostic and never thrown.
 */
export class SessionParser {
  readonly tree = new SessionTree();
  header: SessionHeader | null = null;
  headerLine = 0;
  /** LineKind of each physical line, index = line - 1 */
  readonly lineKinds = new LineKinds();
  /** Version of the header as read (before migration); 1 when absent. */
  sourceVersion = CURRENT_VERSION;
  /** True when pi's coding agent refuses to open the file (no valid header first). */
  caRefused = false;
  /** True when the file is a v4 mutation log (spec §15). */
  isV4Log = false;
  /** The v4 log's lanes, facts and records, when the file is one (its entries are in the tree). */
  v4: V4Log | null = null;
  /** The header's `version` as written, before any migration. */
  rawHeaderVersion: unknown = undefined;
  /** Later `type: "session"` lines, which pi drops. */
  readonly extraHeaders: { line: number; value: Record<string, unknown> }[] = [];
  /** Why each unreadable line could not be read (the harness words its refusal by this). */
  readonly unreadable = new Map<number, "json" | "falsy" | "primitive" | "array">();
  private readonly fileDiagnostics: Diagnostic[] = [];
  private readonly reader = new LineReader();
  private lineNo = 0;
  private sawParsedLine = false;
  private legacy: { entries: SessionEntry[]; lines: number[]; parsed: unknown[] } | null = null;
  private ended = false;
  private endedWithNewline = true;
  /** What end() found, so reopen() can take back what end() added (a live tail goes on from there). */
  private endMark: { lineNo: number; diagnostics: number; extraHeaders: number; treeRevision: number; sawParsedLine: boolean; legacy: boolean } | null = null;
  private reopens = 0;
  private cutLines: LineTexts | null = null;
  /** per entry line, by line: what schemaIssues found as it was read (checkSchemaAsRead); null when not asked to */
  private issuesAsRead: Map<number, string[]> | null = null;

  /**
   * From now on, each entry line is checked against pi's schemas as it is read. A reader that keeps no entry
   * objects (the command line's index of a file larger than memory) checks each one once here, instead of
   * reading every entry again for the session's schema diagnostics.
   */
  checkSchemaAsRead(): void {
    this.issuesAsRead ??= new Map();
  }

  /** What checkSchemaAsRead found, as Session's `schemaChecked`; null when it was not asked for. */
  get schemaCheckedAsRead(): SchemaChecked | null {
    return this.issuesAsRead && { lines: this.lineNo, issues: this.issuesAsRead };
  }

  /**
   * The text pushed from now on is light lines (LightReader): the lines `lines`
   * holds differ from their text (cut or escaped), which is read from there when needed.
   */
  readCutLinesFrom(lines: LineTexts): void {
    this.cutLines = lines;
    this.tree.readCutLinesFrom(lines);
  }

  /**
   * True when the index built from light lines is the session's index: a v3 file is read as written, line by line
   * (a v1/v2 file is migrated as a whole and a v4 log keeps its own records). Final once formatKnown.
   */
  get readsAsLight(): boolean {
    return this.sourceVersion === CURRENT_VERSION && !this.isV4Log;
  }

  /** True once the first parsed line has settled how the file is read: sourceVersion and isV4Log are final. */
  get formatKnown(): boolean {
    return this.sawParsedLine;
  }

  push(chunk: string): void {
    if (this.ended) throw new Error("SessionParser: push after end");
    this.reader.scan(chunk, (text) => this.readText(text));
  }

  /** The hot path: classify and accept one line of text without building a ReadLine. */
  private readText(text: string): void {
    if (text.trim() === "") return this.acceptBlank();
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      // a cut light line fails where its full line fails, but the message counts positions: take the full line's
      const line = this.lineNo + 1;
      if (this.cutLines?.has(line)) return this.acceptInvalid(parseError(this.cutLines.text(line)), text.charCodeAt(0) === 0xfeff, false);
      return this.acceptInvalid(error instanceof Error ? error.message : String(error), text.charCodeAt(0) === 0xfeff, false);
    }
    this.acceptValue(value, false);
  }

  /** Feed lines already read elsewhere (a worker splits and JSON-parses; the index is built here). */
  pushLines(lines: readonly ReadLine[]): void {
    if (this.ended) throw new Error("SessionParser: push after end");
    for (const line of lines) this.accept(line, false);
  }

  /** The text held back because its line is not complete yet (a live tail waits for the rest). */
  get heldBack(): string {
    return this.reader.heldBack;
  }

  /**
   * No more input. `last` is the final line when it had no newline: pass it when
   * lines come from elsewhere; with `push` the held-back text is used.
   */
  end(last: ReadLine | null = this.reader.end()): this {
    if (this.ended) return this;
    this.ended = true;
    this.endMark = {
      lineNo: this.lineNo,
      diagnostics: this.fileDiagnostics.length,
      extraHeaders: this.extraHeaders.length,
      treeRevision: this.tree.revision,
      sawParsedLine: this.sawParsedLine,
      legacy: this.legacy !== null,
    };
    if (last) {
      this.endedWithNewline = false;
      this.accept(last, true);
    }
    if (this.lineNo === 0 && !last) {
      this.fileDiagnostics.push({ line: 0, kind: "empty-file", severity: "info", message: "the file is empty: pi would write a fresh header into it on open" });
    }
    if (this.legacy) this.finishLegacy();
    return this;
  }

  /**
   * The file grew (a live tail): take back what end() did, so that pushing the
   * file again from the start of its last line without a newline (the first
   * byte after the last "\n") goes on as if end() had not been called. Then
   * push and end() again. False when that cannot be undone: the line without
   * newline reached the tree or the header (a complete entry whose newline had
   * not been written yet), the file was migrated as a whole (v1/v2), or a v4
   * log took note of the torn line; the caller reads the file again then.
   */
  reopen(): boolean {
    const mark = this.endMark;
    if (!this.ended || !mark) return !this.ended;
    if (mark.legacy || this.tree.revision !== mark.treeRevision || this.sawParsedLine !== mark.sawParsedLine || this.extraHeaders.length !== mark.extraHeaders)
      return false;
    if (this.v4 && this.lineNo !== mark.lineNo) return false; // the v4 log noted the bad line; it has no undo
    // only line bookkeeping is left to undo: an unreadable, falsy or blank last line, and end()'s own notes
    for (let n = this.lineNo; n > mark.lineNo; n--) {
      this.lineKinds.pop();
      this.unreadable.delete(n);
    }
    this.lineNo = mark.lineNo;
    this.fileDiagnostics.length = mark.diagnostics;
    this.ended = false;
    this.endedWithNewline = true;
    this.endMark = null;
    this.reopens++;
    return true;
  }

  /**
   * Changes whenever what was read changes, including a torn last line that
   * reopen() took back and a later push completed (same line count, new content).
   */
  get revision(): number {
    // reopen() removes at most one line, so counting each reopen twice keeps this strictly increasing
    return this.lineNo + 2 * this.reopens;
  }

  get lineCount(): number {
    return this.lineNo;
  }

  get endsWithNewline(): boolean {
    return this.endedWithNewline;
  }

  get diagnostics(): Diagnostic[] {
    return [...this.fileDiagnostics, ...this.tree.diagnostics].sort((a, b) => a.line - b.line);
  }

  /** What each line was read as, counted. */
  account(): LineAccount {
    return this.lineKinds.account();
  }

  private accept(read: ReadLine, isLast: boolean): void {
    if (read.kind === "blank") this.acceptBlank();
    else if (read.kind === "invalid") this.acceptInvalid(read.reason, read.bom, isLast);
    else this.acceptValue(read.value, isLast);
  }

  private acceptBlank(): void {
    this.lineNo++;
    this.lineKinds.push("blank");
    this.v4?.badLine(this.lineNo, "is not valid JSON");
  }

  private acceptInvalid(reason: string, bom: boolean, isLast: boolean): void {
    const n = ++this.lineNo;
    this.lineKinds.push("unreadable");
    this.unreadable.set(n, "json");
    this.v4?.badLine(n, "is not valid JSON");
    this.unparsable(n, { reason, bom }, isLast);
  }

  private acceptValue(value: unknown, isLast: boolean): void {
    const n = ++this.lineNo;
    if (!value) {
      this.lineKinds.push("unreadable");
      this.unreadable.set(n, "falsy");
      this.v4?.badLine(n, "is not a JSON object");
      this.fileDiagnostics.push({ line: n, kind: "not-object", severity: "warning", message: `line is ${JSON.stringify(value)}, not an entry: pi skips it` });
      return;
    }
    if (isLast)
      this.fileDiagnostics.push({
        line: n,
        kind: "no-final-newline",
        severity: "info",
        message: "last line has no final newline (pi ≥ 0.84.4 appends one on open)",
      });
    const first = !this.sawParsedLine;
    this.sawParsedLine = true;
    if (!isObject(value)) {
      if (first) this.refuseHeader(n, {});
      this.lineKinds.push("unreadable");
      this.unreadable.set(n, Array.isArray(value) ? "array" : "primitive");
      this.v4?.badLine(n, "is not a JSON object");
      this.fileDiagnostics.push({
        line: n,
        kind: "not-object",
        severity: "warning",
        message: `line is a JSON ${Array.isArray(value) ? "array" : typeof value}, not an object: pi keeps it as an entry without id, outside the tree`,
      });
      this.legacy?.parsed.push(value);
      return;
    }
    if (this.v4) {
      // a v4 log: entry mutations are the tree's entries; lanes, facts and records stay in the log
      this.lineKinds.push("entry");
      if (this.v4.accept(value, n)) this.tree.add(value, n);
      return;
    }
    if (value.type === "session") {
      if (first && typeof value.id === "string") {
        this.acceptHeader(value as SessionHeader, n);
        return;
      }
      if (!this.header) {
        // pi refuses the file already (first line was not a header); show the header we do find
        this.lineKinds.push("header");
        this.header = value as SessionHeader;
        this.headerLine = n;
        this.rawHeaderVersion = value.version;
        this.caRefused = true;
        const why = first ? "the session header has no id" : "the session header is not the first line";
        this.fileDiagnostics.push({ line: n, kind: "no-header", severity: "error", message: `${why}: pi refuses to open this file` });
        return;
      }
      this.lineKinds.push("extra-header");
      this.extraHeaders.push({ line: n, value });
      this.fileDiagnostics.push({
        line: n,
        kind: "extra-header",
        severity: "warning",
        message: "a second session header: pi drops it, and the entries after it form their own root",
      });
      this.legacy?.parsed.push(value);
      return;
    }
    if (first && this.refuseHeader(n, value)) {
      // the coding agent's account: not a header it accepts, so an entry line (what the library counts too)
      this.lineKinds.push("entry");
      this.headerLine = n;
      this.rawHeaderVersion = value.version;
      return;
    }
    this.lineKinds.push("entry");
    if (this.legacy) {
      this.legacy.entries.push(value);
      this.legacy.lines.push(n);
      this.legacy.parsed.push(value);
      return;
    }
    if (this.issuesAsRead) {
      const issues = schemaIssues(value);
      if (issues.length) this.issuesAsRead.set(n, issues);
    }
    this.tree.add(value, n);
  }

  private acceptHeader(header: SessionHeader, n: number): void {
    this.lineKinds.push("header");
    this.header = header;
    this.headerLine = n;
    this.rawHeaderVersion = header.version;
    const version = header.version === undefined ? 1 : header.version;
    if (typeof version === "number" && version < CURRENT_VERSION) {
      this.sourceVersion = version;
      this.legacy = { entries: [], lines: [], parsed: [header] };
    } else if (version !== CURRENT_VERSION) {
      this.fileDiagnostics.push({
        line: n,
        kind: "future-version",
        severity: "info",
        message: `header version ${JSON.stringify(version)}: pi 0.84 reads it as version 3 without migrating`,
      });
    }
  }

  /** True when the line starts a v4 mutation log (then it is that log's header). */
  private refuseHeader(n: number, value: Record<string, unknown>): boolean {
    this.caRefused = true;
    if (V4Log.isHeader(value)) {
      this.isV4Log = true;
      this.v4 = new V4Log(value, n);
      this.fileDiagnostics.push({
        line: n,
        kind: "v4-log",
        severity: "error",
        message: "a v4 mutation log (pi-agent-core ≥ 0.84): pi's coding agent cannot open it; read here by pi-agent-core 0.84.1's rules",
      });
      return true;
    }
    const why = value.type === "session" ? "the session header has no id" : "the first line is not a session header";
    this.fileDiagnostics.push({ line: n, kind: "no-header", severity: "error", message: `${why}: pi refuses to open this file` });
    return false;
  }

  private unparsable(n: number, read: { reason: string; bom: boolean }, isLast: boolean): void {
    if (read.bom && !this.sawParsedLine) {
      this.fileDiagnostics.push({
        line: n,
        kind: "bom",
        severity: "error",
        message: "line starts with a UTF-8 byte order mark: pi cannot parse it, so the file has no header and pi refuses it",
      });
      return;
    }
    if (isLast) {
      this.fileDiagnostics.push({
        line: n,
        kind: "torn-line",
        severity: "warning",
        message: `last line is cut off (no newline, not valid JSON): pi skips it (${read.reason})`,
      });
      return;
    }
    this.fileDiagnostics.push({ line: n, kind: "invalid-json", severity: "warning", message: `not valid JSON, pi skips the line (${read.reason})` });
  }

  private finishLegacy(): void {
    const legacy = this.legacy!;
    this.legacy = null;
    const result = migrateEntries(this.header!, legacy.parsed, this.sourceVersion);
    this.header = result.header;
    this.fileDiagnostics.push({ line: this.headerLine, kind: "migrated", severity: "info", message: result.note });
    if (result.error) {
      this.caRefused = true;
      this.fileDiagnostics.push({ line: this.headerLine, kind: "no-header", severity: "error", message: result.error });
    }
    for (let i = 0; i < legacy.entries.length; i++) this.tree.add(legacy.entries[i]!, legacy.lines[i]!);
  }
}

function parseError(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  return "not valid JSON";
}

/** Parse a whole text at once. */
export function parseSessionText(text: string): SessionParser {
  const parser = new SessionParser();
  parser.push(text);
  return parser.end();
}
