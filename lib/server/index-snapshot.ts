// The snapshot of a library file's index (lib/session/read/session-snapshot.ts), made by the server from the light
// index it keeps (light-index.ts) once that is complete, and sent first the next time the file is opened: the page
// keeps the light lines as they come and restores the index instead of parsing every line. Kept beside the light
// index, stamped with what it was made from (the file's size, mtime and inode, where the end frame starts, the very
// write of the light index, by its generation and checksum) and with the code that made it: a file that changed,
// an index written again, or a server that was upgraded, makes it again. The stamp holds the snapshot's length and
// checksum too: a snapshot cut short or with bytes changed is dropped, never sent.
import { createHash } from "node:crypto";
import { open, type FileHandle } from "node:fs/promises";
import { checksumHex } from "../session/read/byte-checksum";
import { SnapshotBuilder } from "../session/read/snapshot-builder";
import { snapshotLayout } from "../session/read/snapshot-layout";
import { boundedRead, dropDamaged, KeptWriter, rangeMatches } from "./kept-file";
import { framesIntact, readKeptIndex } from "./kept-light-index";

/** The kept light index a snapshot is made from: its file as it was then, where its end frame starts, which write it is. */
export interface IndexStamp {
  size: number;
  mtimeMs: number;
  dev: number;
  ino: number;
  endAt: number;
  generation: string;
  sum: string;
}

/** the build waits this many times as long as each piece took to read */
const BUSY_SHARE = 2;
/** a stamp is a few hundred bytes: a longer one is a damaged length */
const MOST_STAMP = 1 << 16;

let layout: string | null = null;

/** The code's snapshot layout, hashed (computed once per process). */
function layoutKey(): string {
  return (layout ??= createHash("sha256").update(snapshotLayout()).digest("hex"));
}

/** What a snapshot of `index` made by this code is stamped with, before its own length and checksum. */
const madeFrom = (index: IndexStamp) => ({
  layout: layoutKey(),
  size: index.size,
  mtimeMs: index.mtimeMs,
  dev: index.dev,
  ino: index.ino,
  endAt: index.endAt,
  index: index.generation,
  indexSum: index.sum,
});

/** builds under way, by snapshot path: of the index with that stamp */
const building = new Map<string, { stamp: string; done: Promise<void> }>();

/**
 * The kept snapshot of the index `index` describes, once any build of it under way has ended; null when there is
 * none made from that index by this code, or it is damaged (then one is made for next time).
 */
export async function keptSnapshot(snap: string, data: string, index: IndexStamp): Promise<KeptSnapshot | null> {
  await building.get(snap)?.done;
  const kept = await openStamped(snap, index);
  if (!kept) void buildSnapshot(snap, data, index);
  return kept;
}

/** A kept snapshot: its bytes are the `length` from `start` of the open file (read as they are sent, not first). */
export interface KeptSnapshot {
  handle: FileHandle;
  start: number;
  length: number;
}

/** The snapshot at `snap` if it was made from `index` and its bytes are whole; a damaged one is dropped. */
async function openStamped(snap: string, index: IndexStamp): Promise<KeptSnapshot | null> {
  let handle: FileHandle;
  try {
    handle = await open(snap, "r");
  } catch {
    return null;
  }
  let damaged = true;
  try {
    const { size } = await handle.stat();
    const head = await boundedRead(handle, size, 0, 4, 4);
    const length = head?.readUInt32LE(0) ?? 0;
    const stamp = head && parseStamp(await boundedRead(handle, size, 4, length, MOST_STAMP));
    if (stamp) {
      const start = 4 + length;
      const expected: Record<string, unknown> = madeFrom(index);
      // made from another state of the file or by other code: not damaged, made again over it
      if (!Object.keys(expected).every((key) => stamp[key] === expected[key])) damaged = false;
      else if (stamp.bytes === size - start && (await rangeMatches(handle, snap, start, size, stamp.sum as string)))
        return { handle, start, length: stamp.bytes };
    }
  } catch {
    damaged = false; // could not be read now: left for the next time
  }
  if (damaged) await dropDamaged(snap, handle);
  await handle.close().catch(() => undefined);
  return null;
}

function parseStamp(bytes: Buffer | null): Record<string, unknown> | null {
  if (!bytes) return null;
  try {
    const stamp: unknown = JSON.parse(bytes.toString("utf8"));
    if (typeof stamp !== "object" || stamp === null) return null;
    const { bytes: length, sum } = stamp as Record<string, unknown>;
    return Number.isSafeInteger(length) && typeof sum === "string" ? (stamp as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * Makes the snapshot of the kept light index `data` in the background (one build per file at a time); its
 * reading yields to the server's other work between stream chunks. Best effort: a snapshot that cannot be made
 * or kept only means the page reads the lines itself.
 */
export function buildSnapshot(snap: string, data: string, index: IndexStamp): Promise<void> {
  const stamp = JSON.stringify(madeFrom(index));
  const under = building.get(snap);
  if (under?.stamp === stamp) return under.done;
  // a build of the index as it was (the file grew meanwhile) ends first: the newer one is written last
  const done = (under?.done ?? Promise.resolve())
    .then(() => made(snap, data, index))
    .catch(() => undefined)
    .finally(() => {
      if (building.get(snap)?.done === done) building.delete(snap);
    });
  building.set(snap, { stamp, done });
  return done;
}

async function made(snap: string, data: string, index: IndexStamp): Promise<void> {
  const kept = await readKeptIndex(data);
  if (!kept) return;
  let snapshot: Uint8Array | null = null;
  try {
    // another write of the index by now (extended, made anew, by another server): whoever sends it asks for its
    // snapshot; and frames whose bytes are not what was kept are not read (a damaged length would be allocated)
    if (kept.meta.generation !== index.generation || kept.meta.sum !== index.sum || !(await framesIntact(kept, data))) return;
    const builder = new SnapshotBuilder();
    const input = kept.handle.createReadStream({ start: 0, end: kept.meta.bytes - 1, highWaterMark: 1 << 20, autoClose: false });
    for await (const piece of input as AsyncIterable<Buffer>) {
      const start = performance.now();
      builder.push(new Uint8Array(piece.buffer, piece.byteOffset, piece.byteLength));
      // read over many turns of the event loop, and at a third of a core: the page that asked for the file is
      // still reading it, and on a small machine the two share the cores
      await new Promise((done) => setTimeout(done, BUSY_SHARE * (performance.now() - start)));
    }
    snapshot = builder.end();
  } finally {
    await kept.handle.close().catch(() => undefined);
  }
  if (!snapshot) return;
  const stamp = Buffer.from(JSON.stringify({ ...madeFrom(index), bytes: snapshot.byteLength, sum: checksumHex(snapshot) }));
  const head = Buffer.alloc(4);
  head.writeUInt32LE(stamp.byteLength, 0);
  const out = await KeptWriter.create(snap);
  if (!out) return;
  for (const part of [head, stamp, snapshot]) await out.write(part);
  await out.commit();
}
