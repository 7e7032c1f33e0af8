// The cache holds what sessions say (light indexes, snapshots, the search index): its folder is the user's alone.
// A folder another user owns is not used at all: whoever owns it could read the cache, or put in its place bytes
// of their own making that the checksums, which guard against accidents, would not catch.
import { chmodSync, mkdirSync, statSync } from "node:fs";

const checked = new Map<string, boolean>();

/**
 * Makes `dir` (0700) or checks the one there: a folder of this user's, closed to others (a looser one of ours is
 * closed). False when it cannot be made or belongs to someone else than `uid`; remembered per process.
 */
export function privateDir(dir: string, uid: number | undefined = process.getuid?.()): boolean {
  const key = `${uid}:${dir}`;
  const known = checked.get(key);
  if (known !== undefined) return known;
  let ours = false;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = statSync(dir);
    ours = stat.isDirectory() && (uid === undefined || stat.uid === uid);
    if (ours && (stat.mode & 0o077) !== 0) chmodSync(dir, 0o700);
  } catch {
    ours = false;
  }
  checked.set(key, ours);
  return ours;
}
