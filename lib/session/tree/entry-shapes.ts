import { isObject } from "../json";
import { calculateContextTokens } from "../context-tokens";
import type { SessionEntry } from "../types";
import { grown } from "./columns";
import { Interned } from "./interned";

/** In a string column: the entry has no such string (not written, or not a string). */
const NONE = 0;
/** In a string column: the string is one of the rare ones past the column's range, kept in `overflow`. */
const OVERFLOW = 0xffff;

/** The model an entry names: a model_change's provider and modelId, an assistant message's provider and model. */
export interface NamedModel {
  /** as written; "" when not a string */
  readonly provider: string;
  /** as written; "" when not a string */
  readonly model: string;
}

/**
 * The size of the context an entry reports, as a path's context-size chart reads it: an assistant reply's
 * context tokens (calculateContextTokens) when pi trusts its usage (not aborted, no error, more than zero),
 * a compaction's `tokensBefore`; NaN for every other entry, and for a compaction that records no number.
 */
export function reportedContextSize(entry: SessionEntry): number {
  if (entry.type === "compaction") return typeof entry.tokensBefore === "number" ? entry.tokensBefore : NaN;
  if (entry.type !== "message") return NaN;
  const message = entry.message as { role?: unknown; stopReason?: unknown; usage?: unknown } | undefined;
  if (
    message?.role !== "assistant" ||
    message.stopReason === "aborted" ||
    message.stopReason === "error" ||
    typeof message.usage !== "object" ||
    !message.usage
  )
    return NaN;
  const tokens: unknown = calculateContextTokens(message.usage);
  return typeof tokens === "number" && tokens > 0 ? tokens : NaN;
}

/**
 * What the passes over a whole session ask of every entry, in columns by slot: its type, its message's role,
 * the model it names, where a `leaf` entry moves the cursor, the context size it reports. The graph's fold
 * walk, its model marks, the segments' summaries, the cursor's history and a path's context sizes read these
 * for every entry while a session opens; from columns, they need no entry object (a tree reading from a
 * source would make each one again).
 */
export class EntryShapes {
  /** per slot: 1 + the type's number among `strings`, NONE, or OVERFLOW */
  private type = new Uint16Array(0);
  private role = new Uint16Array(0);
  /** per slot: -1 for an entry that names no model, else the number of its (provider, model) pair */
  private model = new Int32Array(0);
  /** per slot: reportedContextSize */
  private contextSize = new Float64Array(0);
  private readonly strings = new Interned<string>();
  private readonly models = new Interned<NamedModel>();
  /** model pairs by provider, then model: each pair is made once */
  private readonly modelNumbers = new Map<string, Map<string, number>>();
  /** types and roles past the columns' range, by slot (a file with tens of thousands of distinct types) */
  private readonly typeOverflow = new Map<number, string>();
  private readonly roleOverflow = new Map<number, string>();
  /** per `leaf` entry's slot: its targetId, null when not a string */
  private readonly leafTargets = new Map<number, string | null>();

  /** Makes room in the columns for slots below `size`. */
  reserve(size: number): void {
    if (size <= this.model.length) return;
    this.type = grown(this.type, size);
    this.role = grown(this.role, size);
    this.model = grown(this.model, size, -1);
    this.contextSize = grown(this.contextSize, size, NaN);
  }

  set(slot: number, entry: SessionEntry): void {
    this.reserve(slot + 1);
    const type = entry.type;
    this.setString(this.type, this.typeOverflow, slot, type);
    this.leafTargets.delete(slot);
    const message = type === "message" && isObject(entry.message) ? entry.message : null;
    this.setString(this.role, this.roleOverflow, slot, message?.role);
    let model = -1;
    if (type === "model_change") model = this.modelNumber(entry.provider, entry.modelId);
    else if (message?.role === "assistant") model = this.modelNumber(message.provider, message.model);
    else if (type === "leaf") this.leafTargets.set(slot, typeof entry.targetId === "string" ? entry.targetId : null);
    this.model[slot] = model;
    this.contextSize[slot] = reportedContextSize(entry);
  }

  /** reportedContextSize of the entry in `slot`. */
  contextSizeAt(slot: number): number {
    return this.contextSize[slot] ?? NaN;
  }

  /** The entry's `type`, if a string. */
  typeAt(slot: number): string | undefined {
    return this.stringAt(this.type, this.typeOverflow, slot);
  }

  /** A message entry's `message.role`, if a string (undefined for every other entry). */
  roleAt(slot: number): string | undefined {
    return this.stringAt(this.role, this.roleOverflow, slot);
  }

  /** The model a model_change or an assistant message names; null for every other entry. */
  modelAt(slot: number): NamedModel | null {
    const model = this.model[slot] ?? -1;
    return model === -1 ? null : this.models.value(model);
  }

  /** Where a `leaf` entry moves the cursor (null: its targetId is not a string); undefined when the entry is not one. */
  leafTargetAt(slot: number): string | null | undefined {
    return this.leafTargets.get(slot);
  }

  private modelNumber(providerValue: unknown, modelValue: unknown): number {
    const provider = typeof providerValue === "string" ? providerValue : "";
    const model = typeof modelValue === "string" ? modelValue : "";
    let byModel = this.modelNumbers.get(provider);
    if (!byModel) this.modelNumbers.set(provider, (byModel = new Map()));
    let n = byModel.get(model);
    if (n === undefined) byModel.set(model, (n = this.models.number({ provider, model })));
    return n;
  }

  private setString(column: Uint16Array, overflow: Map<number, string>, slot: number, value: unknown): void {
    overflow.delete(slot);
    if (typeof value !== "string") {
      column[slot] = NONE;
      return;
    }
    const n = this.strings.number(value) + 1;
    if (n < OVERFLOW) {
      column[slot] = n;
      return;
    }
    column[slot] = OVERFLOW;
    overflow.set(slot, value);
  }

  private stringAt(column: Uint16Array, overflow: Map<number, string>, slot: number): string | undefined {
    const n = column[slot] ?? NONE;
    if (n === NONE) return undefined;
    return n === OVERFLOW ? overflow.get(slot) : this.strings.value(n - 1);
  }
}
