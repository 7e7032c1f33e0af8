// A kept light index (light-index.ts) as one file: its frames, then a trailer saying what they were made from, how
// many bytes they are and their checksum, with a checksum of its own. Frames and their description are renamed into
// place as one file, so they are never those of two writes (a server stopped midway, two servers on one cache),
// and a file whose bytes are not what its trailer says is dropped before it is sent.
import type { FileHandle } from "node:fs/promises";
import { open } from "node:fs/promises";
import { ByteChecksum } from "../session/read/byte-checksum";
import { boundedRead, dropDamaged, rangeMatches } from "./kept-file";

export const FORMAT = 4;

/** What a kept index was made from: the file as it was then, and where an index of more of it goes on. */
export interface LightMeta {
  format: typeof FORMAT;
  /**
   * made when the index is made anew, kept when it is extended (its frames stay where they were): a page reads
   * frames by range only from the index it was sent (lightFramesResponse)
   */
  id: string;
  /** made anew with every write: a snapshot names the very index it was made from (index-snapshot.ts) */
  generation: string;
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
  /** the frames' bytes (from the kept file's start) and their checksum (byte-checksum.ts) */
  bytes: number;
  sum: string;
}

/** After the meta's JSON: u32 its bytes, its checksum (two u32), u32 MAGIC. */
const TRAILER = 16;
const MAGIC = 0x544c4950; // "PILT"
/** a meta is a few hundred bytes: a longer one is a damaged length */
const MOST_META = 1 << 16;

/** The bytes that follow the frames of the index `meta` describes. */
export function trailer(meta: LightMeta): Uint8Array {
  const json = Buffer.from(JSON.stringify(meta));
  const tail = Buffer.alloc(TRAILER);
  const [sum1, sum2] = new ByteChecksum().update(json).words32();
  tail.writeUInt32LE(json.length, 0);
  tail.writeUInt32LE(sum1, 4);
  tail.writeUInt32LE(sum2, 8);
  tail.writeUInt32LE(MAGIC, 12);
  return Buffer.concat([json, tail]);
}

/** A kept index open, and what its trailer says of it. */
export interface KeptIndex {
  handle: FileHandle;
  meta: LightMeta;
}

/**
 * The kept index at `data`, its trailer checked (its frames not yet: framesIntact); null when there is none, or
 * none this code can read: a damaged trailer or an older format, which is dropped.
 */
export async function readKeptIndex(data: string): Promise<KeptIndex | null> {
  let handle: FileHandle;
  try {
    handle = await open(data, "r");
  } catch {
    return null;
  }
  try {
    const meta = await metaOf(handle);
    if (meta) return { handle, meta };
    await dropDamaged(data, handle);
  } catch {
    // could not be read now: left for the next time
  }
  await handle.close().catch(() => undefined);
  return null;
}

/** What the trailer of the open kept index says; null when it is damaged or of another format. */
export async function metaOf(handle: FileHandle): Promise<LightMeta | null> {
  const { size } = await handle.stat();
  const tail = await boundedRead(handle, size, size - TRAILER, TRAILER, TRAILER);
  if (!tail || tail.readUInt32LE(12) !== MAGIC) return null;
  const length = tail.readUInt32LE(0);
  const json = await boundedRead(handle, size, size - TRAILER - length, length, MOST_META);
  if (!json) return null;
  const [sum1, sum2] = new ByteChecksum().update(json).words32();
  if (tail.readUInt32LE(4) !== sum1 || tail.readUInt32LE(8) !== sum2) return null;
  let meta: unknown;
  try {
    meta = JSON.parse(json.toString("utf8"));
  } catch {
    return null;
  }
  return isMeta(meta) && meta.bytes === size - TRAILER - length && meta.endAt <= meta.bytes ? meta : null;
}

/** Whether the kept index's frames are the bytes its trailer describes; one that is not is dropped and closed. */
export async function framesIntact(kept: KeptIndex, data: string): Promise<boolean> {
  if (await rangeMatches(kept.handle, data, 0, kept.meta.bytes, kept.meta.sum)) return true;
  await dropDamaged(data, kept.handle);
  await kept.handle.close().catch(() => undefined);
  return false;
}

const COUNTS = ["size", "dev", "ino", "complete", "lines", "endAt", "bytes"] as const;
const TEXTS = ["id", "generation", "file", "tail", "sum"] as const;

function isMeta(value: unknown): value is LightMeta {
  if (typeof value !== "object" || value === null) return false;
  const meta = value as Record<string, unknown>;
  return (
    meta.format === FORMAT &&
    Number.isFinite(meta.mtimeMs) &&
    COUNTS.every((key) => Number.isSafeInteger(meta[key]) && (meta[key] as number) >= 0) &&
    TEXTS.every((key) => typeof meta[key] === "string")
  );
}
