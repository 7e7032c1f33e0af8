// The snapshot of a library file's index (lib/session/read/session-snapshot.ts), made by the server from the light
// index it keeps (light-index.ts) once that is complete, and sent first the next time the file is opened: the page
// keeps the light lines as they come and restores the index instead of parsing every line. Kept beside the light
// index, stamped with what it was made from (the file's size, mtime and inode, where the end frame starts) and
// with the code that made it: a file that changed, or a server that was upgraded, makes it again.
import { createHash, randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import { open, rename, rm, writeFile, type FileHandle } from "node:fs/promises";
import { SnapshotBuilder } from "../session/read/snapshot-builder";
import { snapshotLayout } from "../session/read/snapshot-layout";

/** The kept light index a snapshot is made from: its file as it was then, and where its end frame starts. */
export interface IndexStamp {
  size: number;
  mtimeMs: number;
  dev: number;
  ino: number;
  endAt: number;
}

/** the build waits this many times as long as each piece took to read */
const BUSY_SHARE = 2;

let layout: string | null = null;

/** The code's snapshot layout, hashed (computed once per process). */
function layoutKey(): string {
  return (layout ??= createHash("sha256").update(snapshotLayout()).digest("hex"));
}

const stampOf = (index: IndexStamp) =>
  JSON.stringify({ layout: layoutKey(), size: index.size, mtimeMs: index.mtimeMs, dev: index.dev, ino: index.ino, endAt: index.endAt });

/** builds under way, by snapshot path: of the index with that stamp */
const building = new Map<string, { stamp: string; done: Promise<void> }>();

/**
 * The kept snapshot of the index `index` describes, once any build of it under way has ended; null when there is
 * none made from that index by this code (then one is made for next time).
 */
export async function keptSnapshot(snap: string, data: string, index: IndexStamp): Promise<KeptSnapshot | null> {
  await building.get(snap)?.done;
  const kept = await openStamped(snap, stampOf(index));
  if (!kept) void buildSnapshot(snap, data, index);
  return kept;
}

/** A kept snapshot: its bytes are the `length` from `start` of the open file (read as they are sent, not first). */
export interface KeptSnapshot {
  handle: FileHandle;
  start: number;
  length: number;
}

async function openStamped(snap: string, stamp: string): Promise<KeptSnapshot | null> {
  let handle: FileHandle;
  try {
    handle = await open(snap, "r");
  } catch {
    return null;
  }
  try {
    const { size } = await handle.stat();
    const head = Buffer.alloc(4);
    if (size < 4 || (await handle.read(head, 0, 4, 0)).bytesRead < 4) throw new Error("short");
    const length = head.readUInt32LE(0);
    const stamped = Buffer.alloc(length);
    if (4 + length > size || (await handle.read(stamped, 0, length, 4)).bytesRead < length || stamped.toString("utf8") !== stamp) throw new Error("stale");
    return { handle, start: 4 + length, length: size - 4 - length };
  } catch {
    await handle.close().catch(() => undefined);
    return null;
  }
}

/**
 * Makes the snapshot of the kept light index `data` in the background (one build per file at a time); its
 * reading yields to the server's other work between stream chunks. Best effort: a snapshot that cannot be made
 * or kept only means the page reads the lines itself.
 */
export function buildSnapshot(snap: string, data: string, index: IndexStamp): Promise<void> {
  const stamp = stampOf(index);
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
  const builder = new SnapshotBuilder();
  for await (const piece of createReadStream(data, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    const start = performance.now();
    builder.push(new Uint8Array(piece.buffer, piece.byteOffset, piece.byteLength));
    // read over many turns of the event loop, and at a third of a core: the page that asked for the file is
    // still reading it, and on a small machine the two share the cores
    await new Promise((done) => setTimeout(done, BUSY_SHARE * (performance.now() - start)));
  }
  const snapshot = builder.end();
  if (!snapshot) return;
  const stamp = Buffer.from(stampOf(index));
  const head = Buffer.alloc(4);
  head.writeUInt32LE(stamp.byteLength, 0);
  const temp = `${snap}.${randomUUID()}.tmp`;
  try {
    await writeFile(temp, [head, stamp, snapshot]);
    await rename(temp, snap);
  } catch {
    await rm(temp, { force: true }).catch(() => undefined);
  }
}
