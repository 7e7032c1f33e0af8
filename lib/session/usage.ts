import { isObject } from "./json";
import type { SessionEntry } from "./types";

/** The token and cost counts every usage total adds up; the library's totals are these alone (pi's stats keep no total tokens). */
export interface UsageCounts {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  cost: number;
}

export interface Usage extends UsageCounts {
  totalTokens: number;
}

export const ZERO_USAGE: Usage = Object.freeze({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: 0 });

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : 0);

/** The provider usage an entry records: an assistant message's, or a compaction's / branch summary's own LLM call. */
export function entryUsage(entry: SessionEntry): Usage | null {
  let raw: unknown;
  if (entry.type === "message") {
    const message = entry.message;
    if (isObject(message) && message.role === "assistant") raw = message.usage;
  } else if (entry.type === "compaction" || entry.type === "branch_summary") {
    raw = entry.usage;
  }
  if (!isObject(raw)) return null;
  const cost = isObject(raw.cost) ? num(raw.cost.total) : 0;
  const input = num(raw.input);
  const output = num(raw.output);
  const cacheRead = num(raw.cacheRead);
  const cacheWrite = num(raw.cacheWrite);
  const totalTokens = typeof raw.totalTokens === "number" ? raw.totalTokens : input + output + cacheRead + cacheWrite;
  return { input, output, cacheRead, cacheWrite, totalTokens, cost };
}

/**
 * Adds `usage` into `sum` in place, count by count (`totalTokens` too when `sum` keeps it): the one sum of usage, a
 * path's, a file's or a library's. In place, so a tally over many entries makes no object per entry.
 */
export function addUsageInto(sum: UsageCounts & { totalTokens?: number }, usage: UsageCounts & { totalTokens?: number }): void {
  sum.input += usage.input;
  sum.output += usage.output;
  sum.cacheRead += usage.cacheRead;
  sum.cacheWrite += usage.cacheWrite;
  if (sum.totalTokens !== undefined) sum.totalTokens += usage.totalTokens ?? 0;
  sum.cost += usage.cost;
}

/**
 * `a` plus `b` as a new Usage (`a` itself when `b` is null): addUsageInto's sum, made as one object literal
 * because the path walk makes one per entry of a tree, and a copy then added to is slower there.
 */
export function addUsage(a: Usage, b: Usage | null): Usage {
  if (!b) return a;
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    totalTokens: a.totalTokens + b.totalTokens,
    cost: a.cost + b.cost,
  };
}
