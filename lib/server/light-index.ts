// The light index of a library file (lib/session/read/light-frames.ts), made while it is sent the first time and
// kept in a cache directory by the file's path, size, mtime and inode: a session opened again skips cutting and
// escaping its lines, the slowest part of reading it in the browser, and is sent at half its size. Files pi reads
// in another form (v1/v2 migrated whole, v4 logs) are refused (409): the page reads those from /api/sessions/raw.
// A kept index is one file with its description (kept-light-index.ts), checked before it is used: a damaged one is
// dropped and the file read again, so the page gets the session, never what a damaged cache says of it.
import { createHash, randomUUID } from "node:crypto";
import type { FileHandle } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import { endFrame, LightFormatCheck, LightFrameWriter, snapshotHead } from "../session/read/light-frames";
import { LightReader, type LightChunk } from "../session/read/light-lines";
import { buildSnapshot, keptSnapshot } from "./index-snapshot";
import { KeptWriter, markUsed } from "./kept-file";
import { FORMAT, framesIntact, readKeptIndex, trailer, type KeptIndex, type LightMeta } from "./kept-light-index";
import { sessionRoot } from "./library";
import { maxFileBytes } from "./limits";
import { pruneKept } from "./prune-kept";
import { openSessionFile, resolveSessionPath, SessionPathError, type ResolvedSessionFile } from "./safe-path";
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

/** bytes at each end of what was indexed that must still be the same for an index to be extended */
const TAIL = 4096;
const CONTENT_TYPE = "application/x-pi-light-index";

interface CachePaths {
  /** the cache directory */
  root: string;
  /** the kept index (kept-light-index.ts) */
  data: string;
  /** the snapshot of the index the data makes (index-snapshot.ts) */
  snap: string;
}

function cachePaths(dir: string, file: string): CachePaths {
  const key = createHash("sha256").update(file).digest("hex").slice(0, 32);
  // turbopackIgnore: else the build traces every project file whose name holds "light" into the package
  const at = (ext: string) => path.join(/*turbopackIgnore: true*/ dir, "light", `${key}.${ext}`);
  return { root: dir, data: at("bin"), snap: at("snap") };
}

/** A file pi appended to since (same inode, longer): its kept index may go on where it ended (see tailOf). */
const grown = (meta: LightMeta, r: ResolvedSessionFile): boolean => meta.file === r.file && meta.size < r.size && meta.dev === r.dev && meta.ino === r.ino;

async function tailOf(handle: FileHandle, complete: number): Promise<string> {
  const hash = createHash("sha256");
  for (const start of [0, Math.max(0, complete - TAIL)]) {
    const bytes = Buffer.alloc(Math.min(TAIL, complete - start));
    await handle.read(bytes, 0, bytes.length, start);
    hash.update(bytes);
  }
  return hash.digest("hex");
}

const sameFile = (meta: LightMeta, r: ResolvedSessionFile): boolean =>
  meta.file === r.file && meta.size === r.size && meta.mtimeMs === r.mtimeMs && meta.dev === r.dev && meta.ino === r.ino;

/** GET /api/sessions/light?path=…: the kept index, or one made now from the file while it is sent (and kept). */
export async function lightIndexResponse(rel: unknown, maxBytes: number = maxFileBytes(), dir: string = cacheDir()): Promise<Response> {
  try {
    const library = await sessionRoot();
    const resolved = await resolveSessionPath(library.dir, rel);
    if (resolved.size > maxBytes) throw new SessionPathError("too-large", tooLargeMessage(resolved.size, maxBytes));
    const headers = { "content-type": CONTENT_TYPE, "cache-control": "no-store", "x-sessions-source": library.source, "x-file-size": String(resolved.size) };
    const where = cachePaths(dir, resolved.file);
    let kept = await readKeptIndex(where.data);
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
    const resolved = await resolveSessionPath(library.dir, rel);
    const where = cachePaths(dir, resolved.file);
    let kept = await readKeptIndex(where.data);
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

/** The parts' bytes one after another (cancelling the stream cancels the streams not yet read). */
function chained(parts: (Uint8Array | ReadableStream<Uint8Array>)[]): ReadableStream<Uint8Array> {
  const queue = [...parts];
  let reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        if (!reader) {
          const part = queue.shift();
          if (part === undefined) return controller.close();
          if (part instanceof Uint8Array) return controller.enqueue(part);
          reader = part.getReader();
        }
        const next = await reader.read();
        if (!next.done) return controller.enqueue(next.value);
        reader = null;
      }
    },
    async cancel(reason) {
      const open = queue.filter((part): part is ReadableStream<Uint8Array> => !(part instanceof Uint8Array));
      await Promise.all([reader?.cancel(reason), ...open.map((stream) => stream.cancel(reason))]);
    },
  });
}

/** The file's bytes from `start`, or up to `end`; the file is closed at the end (or when the stream is cancelled). */
function streamOf(handle: FileHandle, end?: number, start = 0): ReadableStream<Uint8Array> {
  if (end === start) {
    void handle.close();
    return new ReadableStream({ start: (controller) => controller.close() });
  }
  const input = handle.createReadStream({ highWaterMark: 1 << 20, start, ...(end === undefined ? {} : { end: end - 1 }) });
  const it = input[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await it.next();
      if (next.done) controller.close();
      else controller.enqueue(new Uint8Array(next.value.buffer, next.value.byteOffset, next.value.byteLength));
    },
    cancel() {
      input.destroy();
    },
  });
}

async function madeAndKept(resolved: ResolvedSessionFile, where: CachePaths, headers: Record<string, string>): Promise<Response> {
  const handle = await openSessionFile(resolved);
  return indexed(resolved, where, headers, handle, null);
}

/**
 * The kept index of a file that grew, then the frames of what was added: read from the byte after the last
 * newline it had, its lines numbered on. Null when the bytes at either end of what was indexed changed (not an append).
 */
async function extendedAndKept(resolved: ResolvedSessionFile, where: CachePaths, headers: Record<string, string>, kept: KeptIndex): Promise<Response | null> {
  const handle = await openSessionFile(resolved).catch(async (error: unknown) => {
    await kept.handle.close();
    throw error;
  });
  if ((await tailOf(handle, kept.meta.complete)) !== kept.meta.tail) {
    await kept.handle.close();
    await handle.close();
    return null;
  }
  return indexed(resolved, where, headers, handle, kept);
}

/**
 * Sends the file's light index while it is made, and keeps it once all of it was sent and the file did not
 * change meanwhile. With `from`, the kept index up to its end frame comes first and the file is read on from
 * where it ended.
 */
async function indexed(
  resolved: ResolvedSessionFile,
  where: CachePaths,
  headers: Record<string, string>,
  handle: FileHandle,
  from: KeptIndex | null,
): Promise<Response> {
  const start = from ? { line: from.meta.lines, offset: from.meta.complete } : undefined;
  // the handle stays open at the stream's end: the file is looked at again before its index is kept; read in
  // pieces of a frame's size, as the reader hands out a frame at the end of the piece that filled it
  const input = handle.createReadStream({ highWaterMark: FRAME_BYTES, autoClose: false, start: start?.offset ?? 0 });
  const it = input[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  // frames well under the pieces a browser's fetch hands on (up to 2 MiB): the page's worker passes a frame that
  // lies within one piece on as a view of it, and copies only the few that span two
  const reader = new LightReader(FRAME_BYTES, start);
  const writer = new LightFrameWriter(start?.line ?? 0);
  const format = new LightFormatCheck();
  const frames: Uint8Array[] = [];
  let read = start?.offset ?? 0;
  let ended = false;
  /** bytes sent so far, and where the end frame starts in them */
  let sent = 0;
  let endAt = -1;
  /** null until the first line that parses says whether the page can use light lines (see LightFormatCheck) */
  let light = (from ? true : null) as boolean | null;
  const framed = (chunk: LightChunk | null) => {
    if (!chunk) return;
    light ??= format.check(chunk);
    frames.push(writer.frame(chunk));
  };
  /** the next frames, from the next bytes of the file; false at its end */
  const more = async (): Promise<boolean> => {
    if (ended) return false;
    const next = await it.next();
    if (next.done) {
      ended = true;
      framed(reader.flush());
      frames.push(END_MARK, endFrame(new TextEncoder().encode(reader.end()), reader.complete, read));
      return true;
    }
    read += next.value.byteLength;
    framed(reader.push(new Uint8Array(next.value.buffer, next.value.byteOffset, next.value.byteLength)));
    return true;
  };
  while (light === null && (await more()));
  // no line parsed at all: every changed line is broken, so its bytes are in the frames, and the page reads the
  // file from them whatever the final line says
  if (light === false) {
    input.destroy();
    await handle.close();
    return Response.json(
      { error: "this file is read whole, not from light lines (an older format or a v4 log)", code: "not-light" },
      { status: 409, headers: { "cache-control": "no-store" } },
    );
  }
  // keeping the index is best effort: a cache folder that cannot be written (read-only, full) costs the next open
  // its speed, never this one its answer
  const out = await KeptWriter.create(where.data);
  const keptPart = from ? streamOf(from.handle, from.meta.endAt).getReader() : null;
  let keptSent = keptPart === null;
  // a stream the page cancelled is not closed again once its index is kept
  let cancelled = false;
  /** the one finish: a page that goes away while the index is being kept (it ends its worker once it has the end) waits for it */
  let finishing: Promise<void> | null = null;
  const finish = (keep: boolean): Promise<void> => (finishing ??= settle(keep));
  const settle = async (keep: boolean) => {
    const writing = out?.writing === true;
    const after = await handle.stat().catch(() => null);
    const tail = keep && writing ? await tailOf(handle, reader.complete).catch(() => null) : null;
    await handle.close();
    const unchanged = after !== null && after.size === resolved.size && after.mtimeMs === resolved.mtimeMs && read === resolved.size;
    if (!out || !keep || !writing || !unchanged || tail === null || out.bytes !== sent) return await out?.discard();
    const meta: LightMeta = {
      format: FORMAT,
      id: from?.meta.id ?? randomUUID(),
      generation: randomUUID(),
      file: resolved.file,
      size: resolved.size,
      mtimeMs: resolved.mtimeMs,
      dev: resolved.dev,
      ino: resolved.ino,
      complete: reader.complete,
      lines: writer.lineCount,
      endAt,
      tail,
      bytes: out.bytes,
      sum: out.checksum,
    };
    // the frames and what describes them go into place as one file: never one write's frames with another's meta
    if (!(await out.commit(trailer(meta)))) return;
    await pruneKept(where.root, cacheBudget()).catch(() => undefined);
    // for the next open: made now, while the page that asked reads these lines itself
    void buildSnapshot(where.snap, where.data, meta);
  };
  const send = async (controller: ReadableStreamDefaultController<Uint8Array>, bytes: Uint8Array) => {
    await out?.write(bytes);
    sent += bytes.byteLength;
    controller.enqueue(bytes);
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        if (keptPart && !keptSent) {
          const next = await keptPart.read();
          if (!next.done) return await send(controller, next.value);
          keptSent = true;
        }
        for (;;) {
          while (frames.length === 0)
            if (!(await more()))
              return finish(true).then(() => {
                if (!cancelled) controller.close();
              });
          const frame = frames.shift()!;
          if (frame !== END_MARK) return await send(controller, frame);
          endAt = sent;
        }
      } catch (error) {
        input.destroy();
        await finish(false).catch(() => undefined);
        controller.error(error);
      }
    },
    async cancel() {
      cancelled = true;
      // (destroying the input closes the file, which keeping the index looks at again: not when it is kept)
      if (keptPart && !keptSent) await keptPart.cancel();
      else if (ended) {
        // the page went away once the file was read to its end (it ends its worker when it has the end frame):
        // what it did not take is written to the index, which is kept as if it had been sent
        try {
          for (const frame of frames.splice(0)) {
            if (frame === END_MARK) endAt = sent;
            else {
              await out?.write(frame);
              sent += frame.byteLength;
            }
          }
          return await finish(true);
        } catch {
          // kept nothing: the next open makes it again
        }
      }
      input.destroy();
      await finish(false).catch(() => undefined);
    },
  });
  return new Response(body, { headers: { ...headers, "x-light-index": from ? "extended" : "made" } });
}

/** The file's bytes a frame of lines is made from (whole lines; its light text is about half). */
const FRAME_BYTES = 1 << 17;

/** Stands in the frame queue where the end frame begins. */
const END_MARK = new Uint8Array(0);
