// The light index of a library file (lib/session/read/light-frames.ts), made while it is sent the first time and
// kept in a cache directory by the file's path, size, mtime and inode: a session opened again skips cutting and
// escaping its lines, the slowest part of reading it in the browser, and is sent at half its size. Files pi reads
// in another form (v1/v2 migrated whole, v4 logs) are refused (409): the page reads those from /api/sessions/raw.
// A kept index is one file with its description (kept-light-index.ts), checked before it is used: a damaged one is
// dropped and the file read again, so the page gets the session, never what a damaged cache says of it.
import { createHash } from "node:crypto";
import { homedir } from "node:os";
import path from "node:path";
import { snapshotHead } from "../session/read/light-frames";
import { chained, streamOf } from "./byte-streams";
import { keptSnapshot } from "./index-snapshot";
import { markUsed } from "./kept-file";
import { framesIntact, readKeptIndex, type KeptIndex, type LightMeta } from "./kept-light-index";
import { sessionRoot } from "./library";
import { CONTENT_TYPE, lightIndexStream, tailOf, type KeptPaths } from "./light-index-stream";
import { maxFileBytes } from "./limits";
import { privateDir } from "./private-dir";
import { openSessionFile, SessionPathError, type ResolvedSessionFile } from "./safe-path";
import { byteRange, errorResponse, tooLargeMessage } from "./serve-session";

/**
 * PI_VIEWER_CACHE_MB (default 4096): what the cache directory's files may take; beyond it kept indexes are dropped,
 * least recently used first (prune-kept.ts).
 */
export function cacheBudget(env: NodeJS.ProcessEnv = process.env): number {
  const mb = Number(env.PI_VIEWER_CACHE_MB?.trim() || NaN);
  return (Number.isFinite(mb) && mb >= 0 ? mb : 4096) * 1024 * 1024;
}

/** PI_VIEWER_CACHE_DIR, else $XDG_CACHE_HOME/pi-session-viewer (~/.cache/…). */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.PI_VIEWER_CACHE_DIR?.trim()) return path.resolve(env.PI_VIEWER_CACHE_DIR.trim());
  return path.join(env.XDG_CACHE_HOME?.trim() || path.join(homedir(), ".cache"), "pi-session-viewer");
}

function cachePaths(dir: string, file: string): KeptPaths {
  const key = createHash("sha256").update(file).digest("hex").slice(0, 32);
  // turbopackIgnore: else the build traces every project file whose name holds "light" into the package
  const at = (ext: string) => path.join(/*turbopackIgnore: true*/ dir, "light", `${key}.${ext}`);
  return { root: dir, ours: privateDir(dir), data: at("bin"), snap: at("snap") };
}

/** A file pi appended to since (same inode, longer): its kept index may go on where it ended (see tailOf). */
const grown = (meta: LightMeta, r: ResolvedSessionFile): boolean => meta.file === r.file && meta.size < r.size && meta.dev === r.dev && meta.ino === r.ino;

const sameFile = (meta: LightMeta, r: ResolvedSessionFile): boolean =>
  meta.file === r.file && meta.size === r.size && meta.mtimeMs === r.mtimeMs && meta.dev === r.dev && meta.ino === r.ino;

/** GET /api/sessions/light?path=…: the kept index, or one made now from the file while it is sent (and kept). */
export async function lightIndexResponse(rel: unknown, maxBytes: number = maxFileBytes(), dir: string = cacheDir()): Promise<Response> {
  try {
    const library = await sessionRoot();
    const resolved = await library.resolve(rel);
    if (resolved.size > maxBytes) throw new SessionPathError("too-large", tooLargeMessage(resolved.size, maxBytes));
    const headers = { "content-type": CONTENT_TYPE, "cache-control": "no-store", "x-sessions-source": library.source, "x-file-size": String(resolved.size) };
    const where = cachePaths(dir, resolved.file);
    let kept = where.ours ? await readKeptIndex(where.data) : null;
    const usable = kept && (sameFile(kept.meta, resolved) || grown(kept.meta, resolved));
    if (kept && !usable) await kept.handle.close();
    // (a damaged one is dropped: the file is read as if none was kept)
    if (!usable || !(await framesIntact(kept!, where.data))) kept = null;
    if (kept && sameFile(kept.meta, resolved)) {
      const { meta, handle } = kept;
      // used now: the last to be dropped when the cache is over its budget
      await markUsed(handle, where.data).catch(() => undefined);
      const snapshot = await keptSnapshot(where.snap, where.data, meta);
      const frames = streamOf(handle, meta.bytes);
      // (the snapshot is streamed from its file: reading it whole first held the first byte back for half a second)
      const body = snapshot
        ? chained([snapshotHead(snapshot.length), streamOf(snapshot.handle, snapshot.start + snapshot.length, snapshot.start), frames])
        : frames;
      return new Response(body, {
        headers: { ...headers, "x-light-index": "kept", "x-light-index-id": meta.id, "x-index-snapshot": snapshot ? "sent" : "none" },
      });
    }
    if (kept) {
      const extended = await extendedAndKept(resolved, where, headers, kept);
      if (extended) return extended;
    }
    return await madeAndKept(resolved, where, headers);
  } catch (error) {
    return errorResponse(error);
  }
}

/**
 * GET /api/sessions/light?path=…&index=ID with a `Range` of its frames: those bytes of the kept index `ID` (206),
 * for a page that shows an index restored from its snapshot before all the frames have come, and reads the
 * frame of an entry it shows early. 412 when the index kept is no longer that one (made anew: the file was
 * replaced), 416 for bytes past its frames.
 */
export async function lightFramesResponse(rel: unknown, id: string, range: string | null, dir: string = cacheDir()): Promise<Response> {
  try {
    const library = await sessionRoot();
    const resolved = await library.resolve(rel);
    const where = cachePaths(dir, resolved.file);
    let kept = where.ours ? await readKeptIndex(where.data) : null;
    if (kept && (kept.meta.id !== id || kept.meta.file !== resolved.file)) {
      await kept.handle.close();
      kept = null;
    }
    if (!kept || !(await framesIntact(kept, where.data)))
      return Response.json({ error: "the light index this page was sent is not kept any more: open the file again", code: "gone" }, { status: 412 });
    const { meta, handle } = kept;
    const wanted = range === null ? null : byteRange(range, meta.endAt);
    if (wanted === null || wanted === "unsatisfiable") {
      await handle.close();
      return Response.json(
        { error: `the range ${range ?? "(none)"} is not within the index's ${meta.endAt} bytes of frames`, code: "range" },
        { status: 416, headers: { "content-range": `bytes */${meta.endAt}` } },
      );
    }
    const size = wanted.end - wanted.start + 1;
    return new Response(streamOf(handle, wanted.end + 1, wanted.start), {
      status: 206,
      headers: {
        "content-type": CONTENT_TYPE,
        "cache-control": "no-store",
        "content-length": String(size),
        "content-range": `bytes ${wanted.start}-${wanted.end}/${meta.endAt}`,
      },
    });
  } catch (error) {
    return errorResponse(error);
  }
}

async function madeAndKept(resolved: ResolvedSessionFile, where: KeptPaths, headers: Record<string, string>): Promise<Response> {
  const handle = await openSessionFile(resolved);
  return lightIndexStream(resolved, where, headers, handle, null, cacheBudget());
}

/**
 * The kept index of a file that grew, then the frames of what was added: read from the byte after the last
 * newline it had, its lines numbered on. Null when the bytes at either end of what was indexed changed (not an append).
 */
async function extendedAndKept(resolved: ResolvedSessionFile, where: KeptPaths, headers: Record<string, string>, kept: KeptIndex): Promise<Response | null> {
  const handle = await openSessionFile(resolved).catch(async (error: unknown) => {
    await kept.handle.close();
    throw error;
  });
  if ((await tailOf(handle, kept.meta.complete)) !== kept.meta.tail) {
    await kept.handle.close();
    await handle.close();
    return null;
  }
  return lightIndexStream(resolved, where, headers, handle, kept, cacheBudget());
}
