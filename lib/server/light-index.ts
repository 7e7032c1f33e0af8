// The light index of a library file (lib/session/read/light-frames.ts), made while it is sent the first time and
// kept in a cache directory by the file's path, size, mtime and inode: a session opened again skips cutting and
// escaping its lines, the slowest part of reading it in the browser, and is sent at half its size. Files pi reads
// in another form (v1/v2 migrated whole, v4 logs) are refused (409): the page reads those from /api/sessions/raw.
import { createHash, randomUUID } from "node:crypto";
import type { FileHandle } from "node:fs/promises";
import { mkdir, open, readdir, readFile, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import { endFrame, LightFormatCheck, LightFrameWriter, snapshotHead } from "../session/read/light-frames";
import { buildSnapshot, keptSnapshot } from "./index-snapshot";
import { LightReader, type LightChunk } from "../session/read/light-lines";
import { sessionRoot } from "./library";
import { maxFileBytes } from "./limits";
import { openSessionFile, resolveSessionPath, SessionPathError, type ResolvedSessionFile } from "./safe-path";
import { byteRange, errorResponse, tooLargeMessage } from "./serve-session";

/** PI_VIEWER_CACHE_MB (default 4096): the kept indexes beyond it are dropped, least recently used first. */
export function cacheBudget(env: NodeJS.ProcessEnv = process.env): number {
  const mb = Number(env.PI_VIEWER_CACHE_MB?.trim() || NaN);
  return (Number.isFinite(mb) && mb >= 0 ? mb : 4096) * 1024 * 1024;
}

/** PI_VIEWER_CACHE_DIR, else $XDG_CACHE_HOME/pi-session-viewer (~/.cache/…). */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.PI_VIEWER_CACHE_DIR?.trim()) return path.resolve(env.PI_VIEWER_CACHE_DIR.trim());
  return path.join(env.XDG_CACHE_HOME?.trim() || path.join(homedir(), ".cache"), "pi-session-viewer");
}

/** What a kept index was made from: the file as it was then, and where an index of more of it goes on. */
interface LightMeta {
  format: typeof FORMAT;
  /**
   * made when the index is made anew, kept when it is extended (its frames stay where they were): a page reads
   * frames by range only from the index it was sent (lightFramesResponse)
   */
  id: string;
  file: string;
  size: number;
  mtimeMs: number;
  dev: number;
  ino: number;
  /** the file's bytes up to its last newline, and the whole lines in them: where reading goes on once it grew */
  complete: number;
  lines: number;
  /** where the end frame starts in the kept index (frames for what was added go there) */
  endAt: number;
  /** sha-256 of the first and of the last TAIL bytes up to `complete`: a file rewritten rather than appended to is indexed anew */
  tail: string;
}

const FORMAT = 3;
/** bytes at each end of what was indexed that must still be the same for an index to be extended */
const TAIL = 4096;
const CONTENT_TYPE = "application/x-pi-light-index";

interface CachePaths {
  data: string;
  meta: string;
  /** the snapshot of the index the data makes (index-snapshot.ts) */
  snap: string;
}

function cachePaths(dir: string, file: string): CachePaths {
  const key = createHash("sha256").update(file).digest("hex").slice(0, 32);
  // turbopackIgnore: else the build traces every project file whose name holds "light" into the package
  const at = (ext: string) => path.join(/*turbopackIgnore: true*/ dir, "light", `${key}.${ext}`);
  return { data: at("bin"), meta: at("json"), snap: at("snap") };
}

/** A file pi appended to since (same inode, longer): its kept index may go on where it ended (see tailOf). */
const grown = (meta: LightMeta | null, r: ResolvedSessionFile): meta is LightMeta =>
  meta !== null && meta.format === FORMAT && meta.file === r.file && meta.size < r.size && meta.dev === r.dev && meta.ino === r.ino;

async function tailOf(handle: FileHandle, complete: number): Promise<string> {
  const hash = createHash("sha256");
  for (const start of [0, Math.max(0, complete - TAIL)]) {
    const bytes = Buffer.alloc(Math.min(TAIL, complete - start));
    await handle.read(bytes, 0, bytes.length, start);
    hash.update(bytes);
  }
  return hash.digest("hex");
}

const sameFile = (meta: LightMeta | null, r: ResolvedSessionFile): boolean =>
  meta !== null &&
  meta.format === FORMAT &&
  meta.file === r.file &&
  meta.size === r.size &&
  meta.mtimeMs === r.mtimeMs &&
  meta.dev === r.dev &&
  meta.ino === r.ino;

async function readMeta(file: string): Promise<LightMeta | null> {
  try {
    return JSON.parse(await readFile(file, "utf8")) as LightMeta;
  } catch {
    return null;
  }
}

/** GET /api/sessions/light?path=…: the kept index, or one made now from the file while it is sent (and kept). */
export async function lightIndexResponse(rel: unknown, maxBytes: number = maxFileBytes(), dir: string = cacheDir()): Promise<Response> {
  try {
    const library = await sessionRoot();
    const resolved = await resolveSessionPath(library.dir, rel);
    if (resolved.size > maxBytes) throw new SessionPathError("too-large", tooLargeMessage(resolved.size, maxBytes));
    const headers = { "content-type": CONTENT_TYPE, "cache-control": "no-store", "x-sessions-source": library.source, "x-file-size": String(resolved.size) };
    const where = cachePaths(dir, resolved.file);
    const meta = await readMeta(where.meta);
    if (sameFile(meta, resolved)) {
      const kept = await openKept(where.data);
      if (kept) {
        // used now: the last to be dropped when the cache is over its budget
        const now = new Date();
        await utimes(where.meta, now, now).catch(() => undefined);
        const snapshot = await keptSnapshot(where.snap, where.data, meta!);
        // (the snapshot is streamed from its file: reading it whole first held the first byte back for half a second)
        const body = snapshot
          ? chained([snapshotHead(snapshot.length), streamOf(snapshot.handle, snapshot.start + snapshot.length, snapshot.start), streamOf(kept)])
          : streamOf(kept);
        return new Response(body, {
          headers: { ...headers, "x-light-index": "kept", "x-light-index-id": meta!.id, "x-index-snapshot": snapshot ? "sent" : "none" },
        });
      }
    }
    if (grown(meta, resolved)) {
      const extended = await extendedAndKept(resolved, where, headers, meta);
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
    const meta = await readMeta(where.meta);
    const kept = meta && meta.format === FORMAT && meta.id === id && meta.file === resolved.file ? await openKept(where.data) : null;
    if (!kept) return Response.json({ error: "the light index this page was sent is not kept any more: open the file again", code: "gone" }, { status: 412 });
    const wanted = range === null ? null : byteRange(range, meta!.endAt);
    if (wanted === null || wanted === "unsatisfiable") {
      await kept.close();
      return Response.json(
        { error: `the range ${range ?? "(none)"} is not within the index's ${meta!.endAt} bytes of frames`, code: "range" },
        { status: 416, headers: { "content-range": `bytes */${meta!.endAt}` } },
      );
    }
    const size = wanted.end - wanted.start + 1;
    return new Response(streamOf(kept, wanted.end + 1, wanted.start), {
      status: 206,
      headers: {
        "content-type": CONTENT_TYPE,
        "cache-control": "no-store",
        "content-length": String(size),
        "content-range": `bytes ${wanted.start}-${wanted.end}/${meta!.endAt}`,
      },
    });
  } catch (error) {
    return errorResponse(error);
  }
}

async function openKept(file: string): Promise<FileHandle | null> {
  try {
    return await open(file, "r");
  } catch {
    return null;
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
async function extendedAndKept(resolved: ResolvedSessionFile, where: CachePaths, headers: Record<string, string>, meta: LightMeta): Promise<Response | null> {
  const handle = await openSessionFile(resolved);
  const kept = await openKept(where.data);
  if (!kept || (await tailOf(handle, meta.complete)) !== meta.tail) {
    await kept?.close();
    await handle.close();
    return null;
  }
  return indexed(resolved, where, headers, handle, { meta, kept });
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
  from: { meta: LightMeta; kept: FileHandle } | null,
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
  const temp = `${where.data}.${randomUUID()}.tmp`;
  // keeping the index is best effort: a cache folder that cannot be written (read-only, full) costs the next open
  // its speed, never this one its answer
  let out: FileHandle | null = await mkdir(path.dirname(where.data), { recursive: true })
    .then(() => open(temp, "w"))
    .catch(() => null);
  const keptPart = from ? streamOf(from.kept, from.meta.endAt).getReader() : null;
  let keptSent = keptPart === null;
  // a stream the page cancelled is not closed again once its index is kept
  let cancelled = false;
  /** the one finish: a page that goes away while the index is being kept (it ends its worker once it has the end) waits for it */
  let finishing: Promise<void> | null = null;
  const finish = (keep: boolean): Promise<void> => (finishing ??= settle(keep));
  const settle = async (keep: boolean) => {
    const written = out !== null;
    await out?.close().catch(() => undefined);
    out = null;
    const after = await handle.stat().catch(() => null);
    const tail = keep && written ? await tailOf(handle, reader.complete).catch(() => null) : null;
    await handle.close();
    const unchanged = after !== null && after.size === resolved.size && after.mtimeMs === resolved.mtimeMs && read === resolved.size;
    if (keep && written && unchanged && tail !== null) {
      const meta: LightMeta = {
        format: FORMAT,
        id: from?.meta.id ?? randomUUID(),
        file: resolved.file,
        size: resolved.size,
        mtimeMs: resolved.mtimeMs,
        dev: resolved.dev,
        ino: resolved.ino,
        complete: reader.complete,
        lines: writer.lineCount,
        endAt,
        tail,
      };
      try {
        await rename(temp, where.data);
        await writeFile(where.meta, JSON.stringify(meta));
        await pruneKept(path.dirname(where.data), cacheBudget());
        // for the next open: made now, while the page that asked reads these lines itself
        void buildSnapshot(where.snap, where.data, meta);
      } catch {
        await rm(temp, { force: true }).catch(() => undefined);
      }
    } else await rm(temp, { force: true }).catch(() => undefined);
  };
  const send = async (controller: ReadableStreamDefaultController<Uint8Array>, bytes: Uint8Array) => {
    if (out) {
      const file = out;
      await file.write(bytes).catch(async () => {
        // the folder filled up or went away: what is sent goes on, nothing is kept
        out = null;
        await file.close().catch(() => undefined);
        await rm(temp, { force: true }).catch(() => undefined);
      });
    }
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

/**
 * Drops the kept indexes of files that are gone and any left half made an hour ago, then the least recently used
 * ones until the rest fit in `budget` bytes. Run after an index is kept: the cache never grows past the budget by more than one index.
 */
export async function pruneKept(lightDir: string, budget: number): Promise<void> {
  const kept: { data: string; meta: string; snap: string; bytes: number; used: number }[] = [];
  for (const name of await readdir(lightDir)) {
    // an index left half made by a server that stopped meanwhile
    if (name.endsWith(".tmp")) {
      const made = await stat(path.join(lightDir, name)).catch(() => null);
      if (made && Date.now() - made.mtimeMs > 3_600_000) await rm(path.join(lightDir, name), { force: true });
    }
    if (!name.endsWith(".json")) continue;
    const metaPath = path.join(lightDir, name);
    const data = metaPath.replace(/\.json$/, ".bin");
    const snap = metaPath.replace(/\.json$/, ".snap");
    const [meta, metaStat, dataStat, snapStat] = await Promise.all([
      readMeta(metaPath),
      stat(metaPath).catch(() => null),
      stat(data).catch(() => null),
      stat(snap).catch(() => null),
    ]);
    const source = meta ? await stat(meta.file).catch(() => null) : null;
    if (!meta || !metaStat || !dataStat || !source) {
      await Promise.all([rm(metaPath, { force: true }), rm(data, { force: true }), rm(snap, { force: true })]);
      continue;
    }
    kept.push({ data, meta: metaPath, snap, bytes: dataStat.size + (snapStat?.size ?? 0), used: metaStat.mtimeMs });
  }
  kept.sort((a, b) => b.used - a.used);
  let total = 0;
  for (const k of kept) {
    total += k.bytes;
    if (total > budget) await Promise.all([rm(k.meta, { force: true }), rm(k.data, { force: true }), rm(k.snap, { force: true })]);
  }
}
