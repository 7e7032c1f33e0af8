// Sends a library file's light index while it is made (light-index.ts answers with it when none is kept, or the
// file grew), and keeps it once all of it was sent and the file did not change meanwhile: the frames written to a
// temp file as they go out, and put in place with their trailer as one file (kept-light-index.ts).
import { createHash, randomUUID } from "node:crypto";
import { endFrame, LightFormatCheck, LightFrameWriter } from "../session/read/light-frames";
import { LightReader, type LightChunk } from "../session/read/light-lines";
import { streamOf } from "./byte-streams";
import { buildSnapshot } from "./index-snapshot";
import { KeptWriter } from "./kept-file";
import { FORMAT, trailer, type KeptIndex, type LightMeta } from "./kept-light-index";
import { pruneKept } from "./prune-kept";
import type { ResolvedSessionFile, SessionFileHandle } from "./safe-path";

export const CONTENT_TYPE = "application/x-pi-light-index";

/** Where a file's index is kept. */
export interface KeptPaths {
  /** the cache directory */
  root: string;
  /** whether it is this user's alone (private-dir.ts): otherwise nothing is read from it or kept in it */
  ours: boolean;
  /** the kept index (kept-light-index.ts) */
  data: string;
  /** the snapshot of the index the data makes (index-snapshot.ts) */
  snap: string;
}

/** bytes at each end of what was indexed that must still be the same for an index to be extended */
const TAIL = 4096;

/** Hashes the bytes at either end of what was indexed: an index goes on only where they are still the same. */
export async function tailOf(handle: SessionFileHandle, complete: number): Promise<string> {
  const hash = createHash("sha256");
  for (const start of [0, Math.max(0, complete - TAIL)]) {
    const bytes = Buffer.alloc(Math.min(TAIL, complete - start));
    await handle.read(bytes, 0, bytes.length, start);
    hash.update(bytes);
  }
  return hash.digest("hex");
}

/**
 * Sends the file's light index while it is made, and keeps it once all of it was sent and the file did not
 * change meanwhile. With `from`, the kept index up to its end frame comes first and the file is read on from
 * where it ended.
 */
export async function lightIndexStream(
  resolved: ResolvedSessionFile,
  where: KeptPaths,
  headers: Record<string, string>,
  handle: SessionFileHandle,
  from: KeptIndex | null,
  budget: number,
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
  const out = where.ours ? await KeptWriter.create(where.data) : null;
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
    await pruneKept(where.root, budget).catch(() => undefined);
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
