// Keeps the cache directory (PI_VIEWER_CACHE_DIR) within its budget: every file in it counts, the kept light indexes
// and their snapshots (light-index.ts, index-snapshot.ts), the temp files of those being made, what an older version
// left there and the search index (library-index/); only kept indexes and their snapshots are dropped, those of
// files that are gone first, then the least recently used.
import type { Stats } from "node:fs";
import { lstat, readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { readKeptIndex } from "./kept-light-index";
import { ARCHIVED_KEY } from "./safe-path";

/** a temp file this old was left by a server that stopped while making it */
const LEFT_MS = 3_600_000;

/** A kept index's files: its data (.bin) and the snapshot of it (.snap). */
interface Kept {
  data?: { file: string; stats: Stats };
  snap?: { file: string; stats: Stats };
}

/**
 * Drops the kept indexes of files that are gone, those this code cannot read (damaged, an older format), snapshots
 * without their index and temp files left an hour ago, then the least recently used indexes until every file of
 * the cache fits in `budget` bytes. Run after an index is kept: the cache never grows past the budget by more than
 * one index (and the snapshot made of it next).
 */
export async function pruneKept(root: string, budget: number, now: number = Date.now()): Promise<void> {
  // turbopackIgnore: else the build traces every project file whose name holds "light" into the package
  const light = path.join(/*turbopackIgnore: true*/ root, "light");
  let total = await bytesOutside(root, light);
  const byKey = new Map<string, Kept>();
  for (const name of await readdir(light).catch(() => [] as string[])) {
    const file = path.join(/*turbopackIgnore: true*/ light, name);
    const stats = await lstat(file).catch(() => null);
    if (!stats) continue;
    const kept = /^([0-9a-f]{32})\.(bin|snap)$/.exec(name);
    if (kept && stats.isFile()) {
      const files = byKey.get(kept[1]!) ?? {};
      files[kept[2] === "bin" ? "data" : "snap"] = { file, stats };
      byKey.set(kept[1]!, files);
    } else if ((name.endsWith(".tmp") && now - stats.mtimeMs > LEFT_MS) || name.endsWith(".json")) {
      // (a .json is the description an older format kept beside its index: that index is dropped below)
      await rm(file, { force: true });
    } else total += stats.size;
  }
  const kept: { files: string[]; bytes: number; used: number }[] = [];
  for (const { data, snap } of byKey.values()) {
    const files = [data?.file, snap?.file].filter((file) => file !== undefined);
    if (!data || !(await sourceKept(data.file))) {
      await Promise.all(files.map((file) => rm(file, { force: true })));
      continue;
    }
    // (set as it is sent: markUsed)
    kept.push({ files, bytes: data.stats.size + (snap?.stats.size ?? 0), used: data.stats.mtimeMs });
  }
  kept.sort((a, b) => b.used - a.used);
  for (const { files, bytes } of kept) {
    total += bytes;
    if (total > budget) await Promise.all(files.map((file) => rm(file, { force: true })));
  }
}

/** Whether the kept index `data` can be read and the file it was made from is still there. */
async function sourceKept(data: string): Promise<boolean> {
  const kept = await readKeptIndex(data);
  if (!kept) return false;
  await kept.handle.close();
  // an archived file's key names no file here: the archive keeps what it holds, so its index stays while the budget allows
  if (kept.meta.file.startsWith(ARCHIVED_KEY)) return true;
  return (await stat(kept.meta.file).catch(() => null)) !== null;
}

/** The bytes of the cache's files outside `light`: counted, not dropped (the library index keeps its own). */
async function bytesOutside(root: string, light: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true }).catch(() => [])) {
    const file = path.join(/*turbopackIgnore: true*/ entry.parentPath, entry.name);
    if (entry.isDirectory() || file === light || file.startsWith(light + path.sep)) continue;
    total += (await lstat(file).catch(() => null))?.size ?? 0;
  }
  return total;
}
