import { isObject } from "../json";
import type { JsonObject } from "../types";

/**
 * pi-agent-core 0.84's v4 mutation log (spec §15), as its JSONL storage reads
 * it (pi-agent-core 0.84.1, dist/harness/session/jsonl/codec.js, storage.js and
 * ../state.js). Fed one parsed line at a time; entry lines also go to the tree
 * index (the parser does that), everything else — lanes, facts, records — is
 * kept here. Where pi refuses the file, the first reason is kept, worded as pi
 * words it, and reading goes on leniently so that every line is still shown.
 */

export const V4_ENTRY_TYPES: ReadonlySet<string> = new Set([
  "message",
  "model_change",
  "thinking_level_change",
  "active_tools_change",
  "compaction",
  "branch_summary",
  "custom",
]);
export const V4_RECORD_TYPES: ReadonlySet<string> = new Set([
  "operation_started",
  "abort_requested",
  "operation_finished",
  "step_attempt",
  "tool_started",
  "queue_enqueued",
  "queue_cancelled",
  "write_deferred",
  "usage",
]);
const OPERATION_KINDS = new Set(["run", "compaction", "navigation"]);

export type V4LineKind = "entry" | "lane" | "fact" | "record";

export interface V4Header extends JsonObject {
  kind: "header";
  version: 4;
  id: string;
  createdAt: number;
  cwd: string;
}

export interface V4Lane {
  lane: string;
  leafId: string | null;
  /** line of the mutation that last set it; null for `main` before any */
  line: number | null;
}

export interface V4Label {
  label: string;
  /** line and seq of the fact that set it */
  line: number;
  seq: number;
}

export interface V4Record extends JsonObject {
  id: string;
  lane: string;
  type: string;
  seq: number;
  timestamp: number;
}

/** getStats() of pi's SessionState: messages counted by entry, tokens and cost from `usage` records. */
export interface V4Stats {
  messageCount: number;
  cachedTokens: number;
  uncachedTokens: number;
  totalTokens: number;
  costTotal: number;
}

export interface V4Problem {
  line: number;
  /** pi's words after "line N" */
  message: string;
  /** a JSON parse failure: on the last line pi repairs the file by dropping it instead of refusing */
  parseError: boolean;
}

const isSafeCount = (value: unknown, min: number): value is number => Number.isSafeInteger(value) && (value as number) >= min;

export class V4Log {
  readonly header: V4Header;
  readonly headerLine: number;
  readonly lanes = new Map<string, V4Lane>([["main", { lane: "main", leafId: null, line: null }]]);
  readonly labels = new Map<string, V4Label>();
  readonly records: { record: V4Record; line: number }[] = [];
  readonly stats: V4Stats = { messageCount: 0, cachedTokens: 0, uncachedTokens: 0, totalTokens: 0, costTotal: 0 };
  /** kind of each mutation line, by line */
  readonly lineKinds = new Map<number, V4LineKind>();
  name: string | undefined = undefined;
  nameLine: number | null = null;
  private readonly problems: V4Problem[] = [];
  private readonly entryIds = new Set<string>();
  private readonly usedIds = new Set<string>();
  private sequence = 0;
  private lastLine: number;

  constructor(header: JsonObject, line: number) {
    this.header = header as V4Header;
    this.headerLine = line;
    this.lastLine = line;
    if (line !== 1) this.problem(1, "is missing a header");
    else this.checkHeader(header);
  }

  /** True for a v4 header line (`{"kind":"header","version":4,…}`). */
  static isHeader(value: JsonObject): boolean {
    return value.kind === "header" && value.version === 4;
  }

  /** The main lane's leaf: what the harness continues from. */
  get leafId(): string | null {
    return this.lanes.get("main")!.leafId;
  }

  /** Why pi-agent-core 0.84.1 refuses the file ("line 4 does not chain to the lane leaf"), or null when it loads it. */
  get refusal(): V4Problem | null {
    const first = this.problems[0];
    if (!first) return null;
    return this.isTornTail(first) ? null : first;
  }

  /** A cut-off last line pi drops (it rewrites the file without it), if any. */
  get tornTail(): V4Problem | null {
    const first = this.problems[0];
    return first && this.isTornTail(first) ? first : null;
  }

  /** A line that is blank, not JSON or not an object. */
  badLine(line: number, message: "is not valid JSON" | "is not a JSON object"): void {
    this.lastLine = line;
    this.problem(line, message, message === "is not valid JSON");
  }

  /** One parsed mutation line. Returns true when it is an entry (the caller indexes it in the tree). */
  accept(value: JsonObject, line: number): boolean {
    this.lastLine = line;
    const seq = value.seq;
    const validSeq = isSafeCount(seq, 1);
    if (!validSeq) this.problem(line, "has invalid seq");
    switch (value.kind) {
      case "entry":
        this.lineKinds.set(line, "entry");
        this.acceptEntry(value, line, seq);
        return true;
      case "record":
        this.lineKinds.set(line, "record");
        this.acceptRecord(value, line, seq);
        return false;
      case "lane":
        this.lineKinds.set(line, "lane");
        this.acceptLane(value, line, seq);
        return false;
      case "fact":
        this.lineKinds.set(line, "fact");
        this.acceptFact(value, line, seq);
        return false;
      default:
        this.lineKinds.set(line, "record");
        if (validSeq) this.problem(line, "has unknown mutation kind");
        return false;
    }
  }

  private acceptEntry(value: JsonObject, line: number, seq: unknown): void {
    const lane = value.lane;
    const fieldError =
      lane !== undefined && typeof lane !== "string"
        ? "has invalid lane"
        : typeof value.id !== "string"
          ? "has invalid id"
          : typeof value.type !== "string"
            ? "has invalid entry type"
            : !V4_ENTRY_TYPES.has(value.type)
              ? `has unknown entry type ${value.type}`
              : value.parentId !== null && typeof value.parentId !== "string"
                ? "has invalid parentId"
                : !isSafeCount(value.timestamp, 0)
                  ? "has invalid timestamp"
                  : value.type === "custom" && typeof value.customType !== "string"
                    ? "has invalid customType"
                    : null;
    if (fieldError) this.problem(line, fieldError);
    this.checkSeq(line, seq);
    const id = typeof value.id === "string" ? value.id : null;
    if (id !== null && this.usedIds.has(id)) this.problem(line, `contains duplicate id ${id}`);
    const parentId = typeof value.parentId === "string" ? value.parentId : null;
    if (typeof lane === "string") {
      const pointer = this.lanes.get(lane);
      if (!pointer) this.problem(line, `references missing lane ${lane}`);
      else if (value.parentId !== pointer.leafId) this.problem(line, "does not chain to the lane leaf");
    }
    if (parentId !== null && !this.entryIds.has(parentId)) this.problem(line, `references missing parent ${parentId}`);
    if (id === null) return;
    this.usedIds.add(id);
    this.entryIds.add(id);
    if (typeof lane === "string") this.lanes.set(lane, { lane, leafId: id, line });
    if (value.type === "message") this.stats.messageCount++;
  }

  private acceptRecord(value: JsonObject, line: number, seq: unknown): void {
    const intent = value.intent;
    const fieldError =
      typeof value.id !== "string"
        ? "has invalid id"
        : typeof value.lane !== "string"
          ? "has invalid lane"
          : typeof value.type !== "string"
            ? "has invalid record type"
            : !V4_RECORD_TYPES.has(value.type)
              ? `has unknown record type ${value.type}`
              : !isSafeCount(value.timestamp, 0)
                ? "has invalid timestamp"
                : value.type === "operation_started" && !isObject(intent)
                  ? "has invalid intent"
                  : value.type === "operation_started" && typeof (intent as JsonObject).kind !== "string"
                    ? "has invalid operation kind"
                    : value.type === "operation_started" && !OPERATION_KINDS.has((intent as JsonObject).kind as string)
                      ? `has unknown operation kind ${String((intent as JsonObject).kind)}`
                      : value.type === "operation_finished" && typeof value.runId !== "string"
                        ? "has invalid runId"
                        : null;
    if (fieldError) this.problem(line, fieldError);
    this.checkSeq(line, seq);
    if (typeof value.lane === "string" && !this.lanes.has(value.lane)) this.problem(line, `references missing lane ${value.lane}`);
    if (typeof value.id === "string") {
      if (this.usedIds.has(value.id)) this.problem(line, `contains duplicate id ${value.id}`);
      this.usedIds.add(value.id);
    }
    const { kind: _kind, ...record } = value;
    void _kind;
    this.records.push({ record: record as V4Record, line });
    const usage = value.usage;
    if (value.type === "usage" && isObject(usage)) {
      const n = (v: unknown) => (typeof v === "number" ? v : 0);
      this.stats.cachedTokens += n(usage.cacheRead);
      this.stats.uncachedTokens += n(usage.input) + n(usage.cacheWrite);
      this.stats.totalTokens += n(usage.totalTokens);
      this.stats.costTotal += isObject(usage.cost) ? n(usage.cost.total) : 0;
    }
  }

  private acceptLane(value: JsonObject, line: number, seq: unknown): void {
    const leafId = value.leafId;
    if (typeof value.lane !== "string") this.problem(line, "has invalid lane");
    else if (leafId !== null && typeof leafId !== "string") this.problem(line, "has invalid leafId");
    this.checkSeq(line, seq);
    if (typeof leafId === "string" && !this.entryIds.has(leafId)) this.problem(line, `references missing lane target ${leafId}`);
    if (typeof value.lane === "string") this.lanes.set(value.lane, { lane: value.lane, leafId: typeof leafId === "string" ? leafId : null, line });
  }

  private acceptFact(value: JsonObject, line: number, seq: unknown): void {
    if (value.fact === "name") {
      if (typeof value.name !== "string") this.problem(line, "has invalid name");
      this.checkSeq(line, seq);
      if (typeof value.name === "string") {
        this.name = value.name;
        this.nameLine = line;
      }
      return;
    }
    if (value.fact === "label") {
      const targetId = value.targetId;
      if (value.label !== undefined && typeof value.label !== "string") this.problem(line, "has invalid label");
      else if (typeof targetId !== "string") this.problem(line, "has invalid targetId");
      this.checkSeq(line, seq);
      if (typeof targetId !== "string") return;
      if (!this.entryIds.has(targetId)) this.problem(line, `references missing label target ${targetId}`);
      // pi keeps the label as given: no trimming, and "" is a label; only a missing one clears
      if (typeof value.label === "string") this.labels.set(targetId, { label: value.label, line, seq: typeof seq === "number" ? seq : 0 });
      else this.labels.delete(targetId);
      return;
    }
    this.problem(line, "has unknown fact type");
  }

  /** One global sequence over every mutation: 1, 2, 3, … */
  private checkSeq(line: number, seq: unknown): void {
    if (!isSafeCount(seq, 1)) return;
    if (seq !== this.sequence + 1) this.problem(line, `has non-consecutive seq ${seq}`);
    this.sequence = seq;
  }

  private checkHeader(header: JsonObject): void {
    const error =
      header.parentSessionId !== undefined && typeof header.parentSessionId !== "string"
        ? "has invalid parentSessionId"
        : header.legacyParentSessionPath !== undefined && typeof header.legacyParentSessionPath !== "string"
          ? "has invalid legacyParentSessionPath"
          : header.parentSessionId !== undefined && header.legacyParentSessionPath !== undefined
            ? "has both parentSessionId and legacyParentSessionPath"
            : header.metadata !== undefined && !isObject(header.metadata)
              ? "has invalid metadata"
              : typeof header.id !== "string"
                ? "has invalid id"
                : !isSafeCount(header.createdAt, 0)
                  ? "has invalid timestamp"
                  : typeof header.cwd !== "string"
                    ? "has invalid cwd"
                    : null;
    if (error) this.problem(1, error);
  }

  private isTornTail(problem: V4Problem): boolean {
    return problem.parseError && problem.line === this.lastLine && this.problems.every((p) => p.line === problem.line);
  }

  private problem(line: number, message: string, parseError = false): void {
    this.problems.push({ line, message, parseError });
  }
}
