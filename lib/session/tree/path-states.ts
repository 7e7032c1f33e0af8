import { CYCLE, type PathState } from "./path-state";
import type { ModelRef } from "../types";
import { grown } from "./columns";
import { Interned } from "./interned";

/** Usage numbers per slot, in this order (see Usage). */
const USAGE_FIELDS = 6;
const UNKNOWN = -1;
const CYCLIC = -2;

/**
 * pi's path-walk state at every entry of a session, in columns: one slot per entry line. A deep session has
 * hundreds of thousands of entries and every one has a state; as objects (a state, its usage, its numbers)
 * they were a tenth of a page's index and a good part of what the collector walks. A state is made again
 * when asked for.
 */
export class PathStates {
  private depth = new Int32Array(0);
  private model = new Int32Array(0);
  private thinking = new Int32Array(0);
  private compaction = new Int32Array(0);
  /**
   * each slot's row of usage numbers: an entry that adds no usage (most entries but assistant messages) shares its
   * parent's row. Six doubles per slot were two fifths of a big session's snapshot.
   */
  private usageRow = new Int32Array(0);
  /** USAGE_FIELDS numbers per row; row 0 is all zeros */
  private usage = new Float64Array(USAGE_FIELDS);
  private rows = 1;
  /** the usage object get() handed out last, and its row: a child's state that adds nothing carries it on */
  private lastUsage: PathState["usage"] | null = null;
  private lastRow = 0;
  private readonly errors = new Map<number, string>();
  private readonly models = new Interned<ModelRef>();
  /** model refs by provider, then model id: step() makes a new ref only when the model changes, so most slots share one */
  private readonly modelNumbers = new Map<unknown, Map<unknown, number>>();
  private readonly thinkingLevels = new Interned<unknown>();
  private readonly compactionIds = new Interned<string>();

  /** Makes room for slots below `size`; new slots are unknown. */
  reserve(size: number): void {
    this.depth = grown(this.depth, size, UNKNOWN);
    this.model = grown(this.model, size);
    this.thinking = grown(this.thinking, size);
    this.compaction = grown(this.compaction, size);
    this.usageRow = grown(this.usageRow, size);
  }

  set(slot: number, state: PathState | null): void {
    this.reserve(slot + 1);
    this.errors.delete(slot);
    if (state === null) {
      this.depth[slot] = UNKNOWN;
      return;
    }
    if (state.cycle) {
      this.depth[slot] = CYCLIC;
      return;
    }
    this.depth[slot] = state.depth;
    this.model[slot] = state.model ? this.modelNumber(state.model) : -1;
    this.thinking[slot] = this.thinkingLevels.number(state.thinkingLevel);
    this.compaction[slot] = state.compactionId === null ? -1 : this.compactionIds.number(state.compactionId);
    this.usageRow[slot] = this.rowOf(state.usage);
    if (state.error !== null) this.errors.set(slot, state.error);
  }

  /** The row holding `u`: the parent's when the state carries its usage on, the last one or zeros when equal, else a new one. */
  private rowOf(u: PathState["usage"]): number {
    if (u === this.lastUsage) return this.lastRow;
    const last = this.rows - 1;
    if (this.holds(last, u)) return last;
    if (this.holds(0, u)) return 0;
    const row = this.rows++;
    const at = row * USAGE_FIELDS;
    const usage = (this.usage = grown(this.usage, at + USAGE_FIELDS));
    usage[at] = u.input;
    usage[at + 1] = u.output;
    usage[at + 2] = u.cacheRead;
    usage[at + 3] = u.cacheWrite;
    usage[at + 4] = u.totalTokens;
    usage[at + 5] = u.cost;
    return row;
  }

  /** Whether row `row` holds the numbers of `u` (-0 and 0 apart, as they would be written). */
  private holds(row: number, u: PathState["usage"]): boolean {
    const at = row * USAGE_FIELDS;
    const usage = this.usage;
    return (
      Object.is(usage[at], u.input) &&
      Object.is(usage[at + 1], u.output) &&
      Object.is(usage[at + 2], u.cacheRead) &&
      Object.is(usage[at + 3], u.cacheWrite) &&
      Object.is(usage[at + 4], u.totalTokens) &&
      Object.is(usage[at + 5], u.cost)
    );
  }

  /** The state at `slot`, or null when it is not known. */
  get(slot: number): PathState | null {
    const depth = slot < this.depth.length ? this.depth[slot]! : UNKNOWN;
    if (depth === UNKNOWN) return null;
    if (depth === CYCLIC) return CYCLE;
    const model = this.model[slot]!;
    const compaction = this.compaction[slot]!;
    const row = this.usageRow[slot]!;
    const at = row * USAGE_FIELDS;
    const usage = this.usage;
    const numbers = {
      input: usage[at]!,
      output: usage[at + 1]!,
      cacheRead: usage[at + 2]!,
      cacheWrite: usage[at + 3]!,
      totalTokens: usage[at + 4]!,
      cost: usage[at + 5]!,
    };
    this.lastUsage = numbers;
    this.lastRow = row;
    return {
      model: model === -1 ? null : this.models.value(model),
      thinkingLevel: this.thinkingLevels.value(this.thinking[slot]!),
      compactionId: compaction === -1 ? null : this.compactionIds.value(compaction),
      depth,
      usage: numbers,
      error: this.errors.get(slot) ?? null,
      cycle: false,
    };
  }

  /** The number of entries on the root → slot path, or -1 when the state is not known (or the path is a cycle). */
  depthAt(slot: number): number {
    const depth = slot >= 0 && slot < this.depth.length ? this.depth[slot]! : UNKNOWN;
    return depth < 0 ? -1 : depth;
  }

  private modelNumber(ref: ModelRef): number {
    let byModel = this.modelNumbers.get(ref.provider);
    if (!byModel) this.modelNumbers.set(ref.provider, (byModel = new Map()));
    let n = byModel.get(ref.modelId);
    if (n === undefined) byModel.set(ref.modelId, (n = this.models.number(ref)));
    return n;
  }
}
