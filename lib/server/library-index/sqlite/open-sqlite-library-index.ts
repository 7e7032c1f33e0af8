// The SQLite index of a sessions directory: one file under the cache directory, kept open between questions.
import path from "node:path";
import { openKept } from "./kept-indexes";
import { SqliteLibraryIndex } from "./sqlite-library-index";

/** The index's file for the sessions directory `dir` under `cacheRoot`. */
export function indexFileFor(cacheRoot: string, dir: string): string {
  let h = 2166136261;
  for (let i = 0; i < dir.length; i++) h = Math.imul(h ^ dir.charCodeAt(i), 16777619);
  return path.join(cacheRoot, "search", `${(h >>> 0).toString(16)}.sqlite`);
}

export function openSqliteLibraryIndex(dir: string, cacheRoot: string): Promise<SqliteLibraryIndex> {
  const file = indexFileFor(cacheRoot, dir);
  return openKept(file, () => SqliteLibraryIndex.open(file));
}
