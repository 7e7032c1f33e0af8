// Usage across a sessions directory, read from the library's index (usage-store.ts): every entry's usage as pi
// 1.6's /session counts it, summed by file, UTC day and model when the file is indexed, an entry a fork copied
// counted once, in the oldest file holding it. Rows by day, week, model or project are added up from those sums;
// rows by session add each session's name, what it copied and its split by branch, read from its own entries.
import { dayTime } from "@/lib/library/library-params";
import { bucketRows, zeroUsage, type SessionUsageRow, type UsageGrouping, type UsageRow } from "@/lib/library/usage";
import { displayTitle } from "@/lib/session/features/title";
import { withLibraryIndex, type IndexOptions } from "./library-search";
import { cachedSummary } from "./read-summary";
import type { ResolvedSessionFile } from "./safe-path";

/** Usage's `since`: a day, YYYY-MM-DD, the calendar has (UTC midnight); the index sums by day. */
export function parseUsageSince(text: string): number | null {
  const time = dayTime(text);
  return Number.isNaN(time) ? null : time;
}

/** The library's usage by `by`, from `since` (a UTC midnight, see parseUsageSince) on. */
export function libraryUsage(
  dir: string,
  files: readonly ResolvedSessionFile[],
  by: UsageGrouping,
  since: number | null,
  options: IndexOptions = {},
): Promise<UsageRow[] | SessionUsageRow[]> {
  return withLibraryIndex(dir, files, options, async (index) => {
    const { buckets, copied } = await index.usageSums();
    const rows = bucketRows(buckets, by, since);
    if (by !== "session") return rows;
    const byRel = new Map(files.map((f) => [f.rel, f]));
    const projects = new Map(buckets.map((b) => [b.file, b.project]));
    const out: SessionUsageRow[] = [];
    for (const row of rows) {
      // a session's row asks the index for its branches: the other requests of the process run between two
      await new Promise<void>((resolve) => setImmediate(resolve));
      const resolved = byRel.get(row.key);
      const summary = resolved ? await cachedSummary(resolved).catch(() => null) : null;
      out.push({
        ...row,
        name: summary ? displayTitle(summary) : null,
        project: projects.get(row.key)!,
        copied: copied.get(row.key) ?? { ...zeroUsage(), calls: 0 },
        branches: await index.usageBranches(row.key, since),
      });
    }
    return out;
  });
}
