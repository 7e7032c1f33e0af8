// The SQLite index of a sessions directory: one file under the cache directory, kept open between questions.
import path from "node:path";
import { libraryIndexTuning, type LibraryIndexTuning } from "../library-index-tuning";
import { openKept } from "./kept-indexes";
import { SqliteLibraryIndex } from "./sqlite-library-index";

/** The index's file for the sessions directory `dir` under `cacheRoot`. */
export function indexFileFor(cacheRoot: string, dir: string): string {
  let h = 2166136261;
  for (let i = 0; i < dir.length; i++) h = Math.imul(h ^ dir.charCodeAt(i), 16777619);
  return path.join(cacheRoot, "search", `${(h >>> 0).toString(16)}.sqlite`);
}

/** The index kept open for `dir` with this tuning, else one opened now (and kept). */
export async function openSqliteLibraryIndex(dir: string, cacheRoot: string, tuning: Partial<LibraryIndexTuning> = {}): Promise<SqliteLibraryIndex> {
  const file = indexFileFor(cacheRoot, dir);
  const settings = libraryIndexTuning(tuning);
  return openKept(file, JSON.stringify(settings), () => new SqliteLibraryIndex(file, settings));
}
