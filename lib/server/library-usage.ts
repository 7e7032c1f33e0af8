// Usage across a sessions directory: every file's entries with usage (file-digest.ts), each counted once across
// files (lib/library/usage.ts countOnce), grouped by day, week, model, project or session. Files are read once
// and kept by (path, size, mtime), so asking again after pi appended to one session reads that session only.
import {
  branchUsage,
  countOnce,
  usageRows,
  type BranchUsage,
  type CountedLibrary,
  type FileUsage,
  type UsageGrouping,
  type SessionUsageRow,
  type UsageRecord,
  type UsageRow,
} from "@/lib/library/usage";
import { cachedDigest, type DigestEntry } from "./file-digest";
import { cachedSummary } from "./read-summary";
import { openSessionFile, type ResolvedSessionFile } from "./safe-path";

const CONCURRENCY = 4;

export interface LibraryUsage extends CountedLibrary {
  /** per file: its name, project and digest */
  files: Map<string, { name: string | null; project: string; digest: DigestEntry[] }>;
}

/** The library's usage, each entry counted once. A file that cannot be read is left out (the library lists it). */
export async function libraryUsage(files: readonly ResolvedSessionFile[]): Promise<LibraryUsage> {
  const read: (FileUsage & { name: string | null; digest: DigestEntry[] })[] = [];
  for (let i = 0; i < files.length; i += CONCURRENCY) {
    const batch = await Promise.all(files.slice(i, i + CONCURRENCY).map((resolved) => fileUsage(resolved).catch(() => null)));
    for (const item of batch) if (item) read.push(item);
  }
  const counted = countOnce(read);
  return { ...counted, files: new Map(read.map((f) => [f.file, { name: f.name, project: f.project, digest: f.digest }])) };
}

async function fileUsage(resolved: ResolvedSessionFile): Promise<FileUsage & { name: string | null; digest: DigestEntry[] }> {
  const [summary, digest] = await Promise.all([
    cachedSummary(resolved.file, resolved.size, resolved.mtimeMs, () => openSessionFile(resolved)),
    cachedDigest(resolved),
  ]);
  const slash = resolved.rel.indexOf("/");
  const project = summary.cwd ?? (slash === -1 ? "(top level)" : resolved.rel.slice(0, slash));
  const entries: FileUsage["entries"][number][] = [];
  for (const entry of digest) {
    if (!entry.usage) continue;
    // a line without an id is nobody's copy: its own key
    entries.push({ key: entry.id === null ? `${resolved.rel}#${entry.offset}` : `${entry.id} ${entry.hash}`, usage: entry.usage });
  }
  return {
    file: resolved.rel,
    project,
    time: summary.timestamp ?? new Date(resolved.mtimeMs).toISOString(),
    entries,
    name: summary.sessionName ?? summary.firstMessage,
    digest,
  };
}

export function usageByGrouping(library: LibraryUsage, by: UsageGrouping, since: number | null): UsageRow[] | SessionUsageRow[] {
  const rows = usageRows(library.counted, by, since);
  if (by !== "session") return rows;
  const countedIn = new Map<string, Set<UsageRecord>>();
  for (const { file, record } of library.counted) {
    const set = countedIn.get(file);
    if (set) set.add(record);
    else countedIn.set(file, new Set([record]));
  }
  return rows.map((row) => {
    const file = library.files.get(row.key)!;
    return {
      ...row,
      name: file.name,
      project: file.project,
      copied: library.copied.get(row.key) ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0, calls: 0 },
      branches: sessionBranches(library.files.get(row.key)!.digest, countedIn.get(row.key) ?? new Set(), since),
    };
  });
}

/** The session's usage by branch, counting what this file counts (not its copies), from `since`. */
function sessionBranches(digest: readonly DigestEntry[], mine: ReadonlySet<UsageRecord>, since: number | null): BranchUsage[] {
  // a v1 file's entries have no ids: pi's migration chains them in file order, so they are one branch here too
  let previous: string | null = null;
  const entries = digest.map((e) => {
    const id = e.id ?? `line@${e.offset}`;
    const parentId = e.id === null ? previous : e.parentId;
    previous = id;
    return { id, parentId, usage: e.usage && mine.has(e.usage) && (since === null || e.usage.time >= since) ? e.usage : null };
  });
  const last = digest.at(-1);
  // the coding agent's leaf is the last entry; a harness file's last `leaf` entry moves it
  const leaf = last?.leafTarget !== undefined ? last.leafTarget : (entries.at(-1)?.id ?? null);
  return branchUsage(entries, leaf);
}
