// Token and cost usage across sessions. What one entry costs is counted as pi 1.6's `/session` stats count it
// (AgentSession.getSessionStats, over every entry of the file, compacted history and dead branches included): an
// assistant message's usage, a tool result's usage, a `usage` entry's (cache warming, titles…), a compaction's or
// branch summary's own call. pi counts each file on its own, so a fork counts again what it copied from its
// source; across a library an entry a fork copied (same id, same content) counts once, in the oldest file that
// holds it. Pure.
import { isObject } from "@/lib/session/json";
import { modelLabel } from "@/lib/session/model-label";
import { addUsageInto, type UsageCounts } from "@/lib/session/usage";

export type UsageTotals = UsageCounts;

export const zeroUsage = (): UsageTotals => ({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0 });

/** One entry's usage, with what the library groups it by. */
export interface UsageRecord extends UsageTotals {
  /** "provider/model"; "(unknown)" when the entry does not say */
  model: string;
  /** the entry's time (ms), NaN when it has none */
  time: number;
  /** what recorded it: "assistant", "toolResult", "usage:<kind>", "compaction", "branch_summary" */
  source: string;
}

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : 0);

function totalsOf(raw: Record<string, unknown>): UsageTotals {
  return {
    input: num(raw.input),
    output: num(raw.output),
    cacheRead: num(raw.cacheRead),
    cacheWrite: num(raw.cacheWrite),
    cost: isObject(raw.cost) ? num(raw.cost.total) : 0,
  };
}

/** What usage is grouped under: the model's modelLabel; "(unknown)" when the entry names no model (a provider alone is not one). */
const modelName = (provider: unknown, model: unknown): string => (typeof model === "string" && model ? modelLabel(provider, model)! : "(unknown)");

/** The usage pi's `/session` stats count for one parsed entry line, or null. */
export function usageRecordOf(entry: unknown): UsageRecord | null {
  if (!isObject(entry)) return null;
  const time = typeof entry.timestamp === "string" ? Date.parse(entry.timestamp) : typeof entry.timestamp === "number" ? entry.timestamp : NaN;
  if (entry.type === "usage" && isObject(entry.usage)) {
    // String() of an object a line holds may throw ({"toString": 1})
    const kind = typeof entry.kind === "object" && entry.kind !== null ? "" : String(entry.kind ?? "");
    return { ...totalsOf(entry.usage), model: modelName(entry.provider, entry.model), time, source: `usage:${kind}` };
  }
  if ((entry.type === "compaction" || entry.type === "branch_summary") && isObject(entry.usage)) {
    return { ...totalsOf(entry.usage), model: modelName(entry.provider, entry.model), time, source: entry.type };
  }
  const message = entry.message;
  if (entry.type !== "message" || !isObject(message) || !isObject(message.usage)) return null;
  if (message.role === "assistant") {
    // the message's own time when the entry line has none (v4 entries carry numbers)
    const at = Number.isNaN(time) && typeof message.timestamp === "number" ? message.timestamp : time;
    return { ...totalsOf(message.usage), model: modelName(message.provider, message.responseModel ?? message.model), time: at, source: "assistant" };
  }
  if (message.role === "toolResult") return { ...totalsOf(message.usage), model: "(unknown)", time, source: "toolResult" };
  return null;
}

export type UsageGrouping = "day" | "week" | "model" | "project" | "machine" | "session";
export const USAGE_GROUPINGS: readonly UsageGrouping[] = ["day", "week", "model", "project", "machine", "session"];

/** One counted entry: its usage and where it is counted. */
export interface CountedUsage {
  record: UsageRecord;
  /** library path of the file it is counted in */
  file: string;
  /** that file's project (its cwd, else its folder) */
  project: string;
  /** the machine the file is on, when the library knows (an archive's) */
  machine?: string;
}

export interface UsageRow extends UsageTotals {
  /** the day (YYYY-MM-DD, UTC), the week's Monday (YYYY-MM-DD), the model, the project, the machine or the session file */
  key: string;
  /** entries that recorded usage */
  calls: number;
}

const DAY = 86_400_000;

/** The UTC day of a time, "YYYY-MM-DD"; "(no date)" for none, or one no calendar has (a v4 line's 1e300). */
export function dayOf(time: number): string {
  const date = new Date(time);
  return Number.isNaN(date.getTime()) ? "(no date)" : date.toISOString().slice(0, 10);
}

/** The Monday (UTC) of a time's ISO week, "YYYY-MM-DD". */
export function weekOf(time: number): string {
  const day = Math.floor(time / DAY) * DAY;
  const weekday = (new Date(day).getUTCDay() + 6) % 7; // Monday 0
  // the first days a Date holds have their Monday before it: no week either
  return dayOf(day - weekday * DAY);
}

function keyOf(item: CountedUsage, by: UsageGrouping): string {
  switch (by) {
    case "day":
      return dayOf(item.record.time);
    case "week":
      return weekOf(item.record.time);
    case "model":
      return item.record.model;
    case "project":
      return item.project;
    case "machine":
      return item.machine ?? NO_MACHINE;
    case "session":
      return item.file;
  }
}

/**
 * Rows of usage by `by`, from `since` (ms; entries without a date are left out then): days and weeks in time order,
 * the others by cost, largest first.
 */
export function usageRows(items: Iterable<CountedUsage>, by: UsageGrouping, since: number | null = null): UsageRow[] {
  const rows = new Map<string, UsageRow>();
  for (const item of items) {
    if (since !== null && !(item.record.time >= since)) continue;
    const key = keyOf(item, by);
    let row = rows.get(key);
    if (!row) rows.set(key, (row = { key, ...zeroUsage(), calls: 0 }));
    addUsageInto(row, item.record);
    row.calls++;
  }
  return sortRows([...rows.values()], by);
}

/**
 * Usage summed by file, UTC day and model: what an index keeps so a library's rows come from a few thousand sums
 * rather than every entry. Rows by day, week, model, project, machine or session follow from them (`bucketRows`).
 */
export interface UsageBucket extends UsageTotals {
  file: string;
  project: string;
  /** the machine the file is on (an archive's file: the machine that pushed it); rows by machine need it */
  machine?: string;
  /** YYYY-MM-DD (UTC), or "(no date)" */
  day: string;
  model: string;
  calls: number;
}

/** The entries' usage as buckets. */
export function usageBuckets(items: Iterable<CountedUsage>): UsageBucket[] {
  const buckets = new Map<string, UsageBucket>();
  for (const { record, file, project, machine } of items) {
    const day = dayOf(record.time);
    const key = `${file}\n${day}\n${record.model}`;
    let bucket = buckets.get(key);
    if (!bucket) {
      bucket = { file, project, day, model: record.model, ...zeroUsage(), calls: 0 };
      if (machine !== undefined) bucket.machine = machine;
      buckets.set(key, bucket);
    }
    addUsageInto(bucket, record);
    bucket.calls++;
  }
  return [...buckets.values()];
}

const NO_DATE = dayOf(NaN);

/** What rows by machine name a bucket no machine was given for. */
export const NO_MACHINE = "(this machine)";

/**
 * `usageRows` from buckets: the same rows for a `since` at a UTC midnight (what a date gives), the sums added in
 * another order (costs may differ in their last bits).
 */
export function bucketRows(buckets: Iterable<UsageBucket>, by: UsageGrouping, since: number | null = null): UsageRow[] {
  const from = since === null ? null : dayOf(since);
  const rows = new Map<string, UsageRow>();
  for (const bucket of buckets) {
    if (from !== null && (bucket.day === NO_DATE || bucket.day < from)) continue;
    const key =
      by === "day"
        ? bucket.day
        : by === "week"
          ? bucket.day === NO_DATE
            ? NO_DATE
            : weekOf(Date.parse(bucket.day))
          : by === "model"
            ? bucket.model
            : by === "project"
              ? bucket.project
              : by === "machine"
                ? (bucket.machine ?? NO_MACHINE)
                : bucket.file;
    let row = rows.get(key);
    if (!row) rows.set(key, (row = { key, ...zeroUsage(), calls: 0 }));
    addUsageInto(row, bucket);
    row.calls += bucket.calls;
  }
  return sortRows([...rows.values()], by);
}

function sortRows(rows: UsageRow[], by: UsageGrouping): UsageRow[] {
  if (by === "day" || by === "week") return rows.sort((a, b) => a.key.localeCompare(b.key));
  return rows.sort((a, b) => b.cost - a.cost || a.key.localeCompare(b.key));
}

/** The rows added up: a table's total line. */
export function totalRow(rows: readonly UsageRow[]): UsageRow {
  const total: UsageRow = { key: "total", ...zeroUsage(), calls: 0 };
  for (const row of rows) {
    addUsageInto(total, row);
    total.calls += row.calls;
  }
  return total;
}

/** A row of `--by session`: the session's name, what its copies would have added, and its branches. */
export interface SessionUsageRow extends UsageRow {
  name: string | null;
  project: string;
  /** usage of entries this file copied from an older one: counted there, not here */
  copied: UsageTotals & { calls: number };
  branches: BranchUsage[];
}

/** An entry as the branch split sees it. */
export interface TreeUsageEntry {
  id: string;
  parentId: string | null;
  usage: UsageTotals | null;
}

/** The usage of one branch of a session: the entries from where it leaves its parent branch down to its end. */
export interface BranchUsage extends UsageTotals {
  /** the branch's last entry (a leaf of the tree) */
  leafId: string;
  /** the entry it branches off from (null: the trunk, from the root) */
  fromId: string | null;
  entries: number;
  /** on the path to the session's leaf (the trunk and the branch in use); the others were left */
  onActivePath: boolean;
}

/**
 * A session's usage split by branch: every entry belongs to one branch (the trunk down to the first fork in the
 * tree, then each way on from there), so the branches add up to the session. A branch whose work was abandoned
 * cost what it cost.
 */
export function branchUsage(entries: readonly TreeUsageEntry[], leafId: string | null): BranchUsage[] {
  const byId = new Map<string, TreeUsageEntry>();
  for (const entry of entries) {
    // an id used again: pi keeps its last line in the tree and counts every line's usage, so the branches add up
    const earlier = byId.get(entry.id)?.usage;
    if (!earlier) byId.set(entry.id, entry);
    else {
      const usage = { ...earlier };
      if (entry.usage) addUsageInto(usage, entry.usage);
      byId.set(entry.id, { ...entry, usage });
    }
  }
  const children = new Map<string, string[]>();
  const roots: string[] = [];
  for (const entry of byId.values()) {
    const parent = entry.parentId !== null && entry.parentId !== entry.id && byId.has(entry.parentId) ? entry.parentId : null;
    if (parent === null) roots.push(entry.id);
    else {
      const list = children.get(parent);
      if (list) list.push(entry.id);
      else children.set(parent, [entry.id]);
    }
  }
  const active = new Set<string>();
  for (let at = leafId === null ? undefined : byId.get(leafId); at && !active.has(at.id); at = at.parentId === null ? undefined : byId.get(at.parentId))
    active.add(at.id);
  const out: BranchUsage[] = [];
  const seen = new Set<string>();
  // a branch starts at a root or at a child of an entry with several children, and runs while there is one child
  const starts: [string, string | null][] = roots.map((id) => [id, null]);
  while (starts.length) {
    const [start, fromId] = starts.pop()!;
    const branch: BranchUsage = { leafId: start, fromId, entries: 0, onActivePath: false, ...zeroUsage() };
    for (let at: string | undefined = start; at !== undefined && !seen.has(at);) {
      seen.add(at);
      const entry = byId.get(at)!;
      branch.entries++;
      branch.leafId = at;
      if (entry.usage) addUsageInto(branch, entry.usage);
      const next: string[] = children.get(at) ?? [];
      if (next.length === 1) at = next[0];
      else {
        for (const child of next) starts.push([child, at]);
        at = undefined;
      }
    }
    branch.onActivePath = active.has(branch.leafId);
    if (branch.entries > 0) out.push(branch);
  }
  // entries in a loop of parents reach no root: one more branch, so the split still adds up
  const looped = [...byId.values()].filter((entry) => !seen.has(entry.id));
  if (looped.length) {
    const branch: BranchUsage = { leafId: looped.at(-1)!.id, fromId: null, entries: looped.length, onActivePath: false, ...zeroUsage() };
    for (const entry of looped) if (entry.usage) addUsageInto(branch, entry.usage);
    out.push(branch);
  }
  return out.sort((a, b) => Number(b.onActivePath) - Number(a.onActivePath) || b.cost - a.cost || a.leafId.localeCompare(b.leafId));
}

/** One file as the library's usage reads it. */
export interface FileUsage {
  file: string;
  project: string;
  /** header time (else file time), ISO: the oldest of several files holding an entry counts it */
  time: string;
  /** every entry line with usage, in file order: its fingerprint key ("id hash") and usage */
  entries: readonly { key: string; usage: UsageRecord }[];
}

export interface CountedLibrary {
  counted: CountedUsage[];
  /** per file: the usage of its entries counted in an older file (a fork's copies), left out of the totals */
  copied: Map<string, UsageTotals & { calls: number }>;
}

/**
 * Every entry's usage counted once across files: an entry line whose fingerprint an older file holds is a copy,
 * counted there. Lines repeated inside one file count each time, as pi counts its own file.
 */
export function countOnce(files: readonly FileUsage[]): CountedLibrary {
  const order = [...files].sort((a, b) => a.time.localeCompare(b.time) || a.file.localeCompare(b.file));
  const owner = new Map<string, string>();
  const counted: CountedUsage[] = [];
  const copied = new Map<string, UsageTotals & { calls: number }>();
  for (const file of order) {
    for (const { key, usage } of file.entries) {
      const first = owner.get(key);
      if (first === undefined) owner.set(key, file.file);
      if (first === undefined || first === file.file) counted.push({ record: usage, file: file.file, project: file.project });
      else {
        let sum = copied.get(file.file);
        if (!sum) copied.set(file.file, (sum = { ...zeroUsage(), calls: 0 }));
        addUsageInto(sum, usage);
        sum.calls++;
      }
    }
  }
  return { counted, copied };
}

/** A `since` date: YYYY-MM-DD (UTC midnight) or a full ISO time; null when it is neither. */
export function parseSince(text: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}(T.*)?$/.test(text)) return null;
  const t = Date.parse(/T/.test(text) ? text : `${text}T00:00:00.000Z`);
  return Number.isNaN(t) ? null : t;
}
