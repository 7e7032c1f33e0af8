import { isObject } from "../json";
import type { SessionEntry } from "../types";
import { grown } from "./columns";
import { Interned } from "./interned";

/** In a string column: the entry has no such string (not written, or not a string). */
const NONE = -1;

/** The model an entry names: a model_change's provider and modelId, an assistant message's provider and model. */
export interface NamedModel {
  /** as written; "" when not a string */
  provider: string;
  /** as written; "" when not a string */
  model: string;
}

/**
 * What the passes over a whole session ask of every entry, in columns by slot: its type, its message's role,
 * the model it names, where a `leaf` entry moves the cursor. The graph's fold walk, its model marks, the
 * segments' summaries and the cursor's history read these for every entry while a session opens; from
 * columns, they need no entry object (a tree reading from a source would make each one again).
 */
export class EntryShapes {
  private type = new Int32Array(0);
  private role = new Int32Array(0);
  /** NONE for an entry that names no model */
  private provider = new Int32Array(0);
  private model = new Int32Array(0);
  private readonly strings = new Interned<string>();
  /** per `leaf` entry's slot: its targetId, null when not a string */
  private readonly leafTargets = new Map<number, string | null>();

  set(slot: number, entry: SessionEntry): void {
    const size = slot + 1;
    this.type = grown(this.type, size, NONE);
    this.role = grown(this.role, size, NONE);
    this.provider = grown(this.provider, size, NONE);
    this.model = grown(this.model, size, NONE);
    const type = entry.type;
    this.type[slot] = this.numberOf(type);
    this.leafTargets.delete(slot);
    const message = type === "message" && isObject(entry.message) ? entry.message : null;
    this.role[slot] = message ? this.numberOf(message.role) : NONE;
    let provider: unknown = undefined;
    let model: unknown = undefined;
    let names = false;
    if (type === "model_change") {
      names = true;
      provider = entry.provider;
      model = entry.modelId;
    } else if (message?.role === "assistant") {
      names = true;
      provider = message.provider;
      model = message.model;
    } else if (type === "leaf") this.leafTargets.set(slot, typeof entry.targetId === "string" ? entry.targetId : null);
    this.provider[slot] = names ? this.strings.number(typeof provider === "string" ? provider : "") : NONE;
    this.model[slot] = names ? this.strings.number(typeof model === "string" ? model : "") : NONE;
  }

  /** The entry's `type`, if a string. */
  typeAt(slot: number): string | undefined {
    return this.stringAt(this.type, slot);
  }

  /** A message entry's `message.role`, if a string (undefined for every other entry). */
  roleAt(slot: number): string | undefined {
    return this.stringAt(this.role, slot);
  }

  /** The model a model_change or an assistant message names; null for every other entry. */
  modelAt(slot: number): NamedModel | null {
    const provider = this.provider[slot] ?? NONE;
    if (provider === NONE) return null;
    return { provider: this.strings.value(provider), model: this.strings.value(this.model[slot]!) };
  }

  /** Where a `leaf` entry moves the cursor (null: its targetId is not a string); undefined when the entry is not one. */
  leafTargetAt(slot: number): string | null | undefined {
    return this.leafTargets.get(slot);
  }

  private numberOf(value: unknown): number {
    return typeof value === "string" ? this.strings.number(value) : NONE;
  }

  private stringAt(column: Int32Array, slot: number): string | undefined {
    const n = column[slot] ?? NONE;
    return n === NONE ? undefined : this.strings.value(n);
  }
}
