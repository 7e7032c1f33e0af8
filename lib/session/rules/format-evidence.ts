import { isObject } from "../json";
import type { TreeObserver } from "../tree/tree-observer";
import type { SessionEntry } from "../types";

/**
 * Which pi version's rules read a file. The v3 file format never names the pi
 * version that wrote it, but newer writers leave traces: entry types and fields
 * that older versions never write. Each trace is a lower bound on the writer's
 * version; the highest one seen picks the rules (the user can override).
 */

/** One trace of a newer writer: the first line that shows it. */
export interface FormatTrace {
  line: number;
  /** the lowest rules that read it as its writer did */
  rules: "ca-0.86" | "ca-0.87";
  /** "context_edit" — what is on that line, short */
  what: string;
  /** "line 14 has a context_edit entry" */
  reason: string;
}

const RANK: Record<FormatTrace["rules"], number> = { "ca-0.86": 1, "ca-0.87": 2 };

/**
 * Collects traces of newer writers as entries arrive (one check per entry, so
 * a live tail never rescans the file). Only the first trace of each kind is kept.
 */
export class FormatEvidence implements TreeObserver {
  private readonly traces = new Map<string, FormatTrace>();

  /** An entry line came (see TreeObserver): one without an id is no trace (pi places it nowhere). */
  added(entry: SessionEntry, _slot: number, line: number, id: string | undefined): void {
    if (id !== undefined) this.observe(entry, line);
  }

  observe(entry: SessionEntry, line: number): void {
    const type = entry.type;
    if (type === "context_edit")
      this.note("context_edit", line, "ca-0.87", "context_edit", `line ${line} has a context_edit entry (written by pi-coding-agent ≥ 0.87)`);
    else if (type === "usage") this.note("usage", line, "ca-0.86", "usage", `line ${line} has a usage entry (written by pi-coding-agent ≥ 0.86)`);
    else if (type === "compaction") {
      if (typeof entry.id === "string" && entry.firstKeptEntryId === entry.id) {
        this.note(
          "self-kept",
          line,
          "ca-0.87",
          "firstKeptEntryId = own id",
          `line ${line} is a compaction whose firstKeptEntryId is its own id (pi-coding-agent ≥ 0.87's default)`,
        );
      }
      if (entry.systemMessage)
        this.note(
          "systemMessage",
          line,
          "ca-0.86",
          "compaction systemMessage",
          `line ${line} is a compaction with a systemMessage (written by pi-coding-agent ≥ 0.86)`,
        );
    } else if (type === "message" && isObject(entry.message) && entry.message.role === "system") {
      this.note("system", line, "ca-0.86", "system message", `line ${line} is a system message (written by pi-coding-agent ≥ 0.86)`);
    }
  }

  /** The trace that decides: the newest rules, and of those the earliest line. */
  get strongest(): FormatTrace | null {
    let best: FormatTrace | null = null;
    for (const trace of this.traces.values()) {
      if (!best || RANK[trace.rules] > RANK[best.rules] || (RANK[trace.rules] === RANK[best.rules] && trace.line < best.line)) best = trace;
    }
    return best;
  }

  get all(): FormatTrace[] {
    return [...this.traces.values()].sort((a, b) => a.line - b.line);
  }

  private note(key: string, line: number, rules: FormatTrace["rules"], what: string, reason: string): void {
    if (!this.traces.has(key)) this.traces.set(key, { line, rules, what, reason });
  }
}
