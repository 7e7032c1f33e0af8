import { isObject, timeOf } from "../json";
import type { SessionEntry } from "../types";
import { addUsageInto, entryUsage, type Usage } from "../usage";
import { modelLabel } from "../model-label";
import type { TreeObserver } from "./tree-observer";

/** A tally's totals as they stand (copies: the tally goes on counting). */
export interface StatsTotals {
  entries: number;
  /** entries by type; `message` entries are further split in `roles` */
  types: Record<string, number>;
  roles: Record<string, number>;
  toolCalls: Record<string, number>;
  toolErrors: number;
  usage: Usage;
  /** "provider/model" → assistant messages answered by it */
  models: Record<string, number>;
  /** "provider/model" → summed usage of the assistant messages it answered */
  modelUsage: Record<string, Usage>;
  /** usage of the LLM calls compactions and branch summaries made */
  summaryUsage: Usage;
  firstTimestamp: string | null;
  lastTimestamp: string | null;
  durationMs: number | null;
}

const bump = (map: Record<string, number>, key: string) => {
  map[key] = (map[key] ?? 0) + 1;
};

/** What the totals count an assistant message's model under: its modelLabel, "(unknown)" when it names none. */
const modelKey = (message: { provider?: unknown; model?: unknown }): string => modelLabel(message.provider, message.model) ?? "(unknown)";
const zero = (): Usage => ({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: 0 });

/**
 * Totals over entries counted one at a time, in the order they come. The tree keeps one for its whole file as
 * entries are added (a file whose entries are read again from their source should not read them all when its
 * totals are asked for); a path's totals are one more tally over the path. Sums are added in the order the
 * entries come, so the same entries in the same order give the same floating-point totals.
 */
export class StatsTally implements TreeObserver {
  private entries = 0;
  private readonly types: Record<string, number> = {};
  private readonly roles: Record<string, number> = {};
  private readonly toolCalls: Record<string, number> = {};
  private toolErrors = 0;
  private readonly usage = zero();
  private readonly models: Record<string, number> = {};
  private readonly modelUsage: Record<string, Usage> = {};
  private readonly summaryUsage = zero();
  private first = Infinity;
  private last = -Infinity;
  private firstTimestamp: string | null = null;
  private lastTimestamp: string | null = null;
  private emptyIds = 0;

  /**
   * Entries counted whose id is "": the tree places no entry by that id, but a count of leaves over the whole file
   * asks for its children like any other id's.
   */
  get emptyIdEntries(): number {
    return this.emptyIds;
  }

  /** As a tree's observer: every entry line is counted, id-less ones too. */
  added(entry: SessionEntry): void {
    this.add(entry);
  }

  add(entry: SessionEntry): void {
    this.entries++;
    if (entry.id === "") this.emptyIds++;
    bump(this.types, typeof entry.type === "string" ? entry.type : "(none)");
    const usage = entryUsage(entry);
    if (usage) addUsageInto(this.usage, usage);
    const t = timeOf(entry.timestamp);
    if (!Number.isNaN(t)) {
      if (t < this.first) {
        this.first = t;
        this.firstTimestamp = entry.timestamp as string;
      }
      if (t > this.last) {
        this.last = t;
        this.lastTimestamp = entry.timestamp as string;
      }
    }
    const message = entry.message;
    const isMessage = entry.type === "message" && isObject(message);
    if (usage) {
      if (isMessage) {
        addUsageInto((this.modelUsage[modelKey(message)] ??= zero()), usage);
      } else addUsageInto(this.summaryUsage, usage);
    }
    if (!isMessage) return;
    bump(this.roles, typeof message.role === "string" ? message.role : "(none)");
    if (message.role === "assistant") {
      bump(this.models, modelKey(message));
      if (Array.isArray(message.content)) {
        for (const block of message.content) if (isObject(block) && block.type === "toolCall") bump(this.toolCalls, String(block.name));
      }
    } else if (message.role === "toolResult" && message.isError === true) this.toolErrors++;
  }

  totals(): StatsTotals {
    return {
      entries: this.entries,
      types: { ...this.types },
      roles: { ...this.roles },
      toolCalls: { ...this.toolCalls },
      toolErrors: this.toolErrors,
      usage: { ...this.usage },
      models: { ...this.models },
      modelUsage: Object.fromEntries(Object.entries(this.modelUsage).map(([key, usage]) => [key, { ...usage }])),
      summaryUsage: { ...this.summaryUsage },
      firstTimestamp: this.firstTimestamp,
      lastTimestamp: this.lastTimestamp,
      durationMs: this.firstTimestamp === null ? null : this.last - this.first,
    };
  }
}
