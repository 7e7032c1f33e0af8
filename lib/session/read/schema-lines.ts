import { LineReader } from "./lines";
import { schemaIssues } from "./schema";

/**
 * schemaIssues(JSON.parse(text)) of each of the first `lines` lines, every
 * one ended by a newline (a final line without one may still change), keyed
 * by line; a line absent from `issues` conforms or is no object.
 */
export interface SchemaChecked {
  lines: number;
  issues: ReadonlyMap<number, string[]>;
}

/**
 * Checks a file's lines against pi's schemas from its text alone, in chunks
 * of any size, so another thread (the viewer's read worker) can do it while
 * the page builds the index; Session takes the result as `schemaChecked`.
 * Lines are split and counted as SessionParser splits them; a final line
 * without newline is left out (a live tail may still complete it).
 */
export class SchemaLineChecker {
  private readonly reader = new LineReader();
  private lines = 0;
  private readonly issues = new Map<number, string[]>();

  push(chunk: string): void {
    this.reader.scan(chunk, this.onLine);
  }

  private readonly onLine = (text: string): void => {
    const line = ++this.lines;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return; // blank or unreadable: no entry to judge
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) return;
    const issues = schemaIssues(value);
    if (issues.length) this.issues.set(line, issues);
  };

  result(): SchemaChecked {
    return { lines: this.lines, issues: this.issues };
  }
}
