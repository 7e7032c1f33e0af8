// What the cache's files (light-index.ts, index-snapshot.ts) have in common: each is written whole to a temp file
// beside it and renamed over it, so a server stopped midway, or a second server writing the same path, leaves the
// old file or the new one, never a mix; and what they keep is checked against the checksum they carry before use.
// Not responsible for what the files hold (kept-light-index.ts, index-snapshot.ts).
import { randomUUID } from "node:crypto";
import type { Stats } from "node:fs";
import { mkdir, open, rename, rm, stat, type FileHandle } from "node:fs/promises";
import path from "node:path";
import { ByteChecksum } from "../session/read/byte-checksum";

/** How much a check reads at once. */
const PIECE = 1 << 20;

/** The checksum of the bytes [start, end) of an open file; null when the file holds fewer. */
export async function rangeSum(handle: FileHandle, start: number, end: number): Promise<string | null> {
  const sum = new ByteChecksum();
  const buffer = Buffer.allocUnsafe(Math.min(PIECE, Math.max(0, end - start)));
  for (let at = start; at < end;) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, end - at), at);
    if (bytesRead === 0) return null;
    sum.update(buffer.subarray(0, bytesRead));
    at += bytesRead;
  }
  return sum.hex();
}

/** What a file was when its bytes were found to match (its identity), and which bytes matched which checksum. */
const checked = new Map<string, { identity: string; range: string }>();

/**
 * A file written less than this long ago is checked again each time: a write within the clock's grain (a jiffy,
 * two seconds on FAT) could leave the mtime it had (git's "racily clean" entries).
 */
const SETTLED_MS = 3000;

/**
 * Whether the bytes [start, end) of the open file `file` have the checksum `sum`. A file found to match before,
 * and not written since, is not read again: a big session's kept index is read once per server, not per open.
 */
export async function rangeMatches(handle: FileHandle, file: string, start: number, end: number, sum: string): Promise<boolean> {
  const stats = await handle.stat();
  const range = `${start} ${end} ${sum}`;
  const before = checked.get(file);
  if (before?.identity === identity(stats) && before.range === range) return true;
  const matches = (await rangeSum(handle, start, end)) === sum;
  if (matches && Date.now() - stats.mtimeMs > SETTLED_MS) checked.set(file, { identity: identity(stats), range });
  else checked.delete(file);
  return matches;
}

const identity = (stats: Stats) => `${stats.dev} ${stats.ino} ${stats.size} ${stats.mtimeMs}`;

/**
 * Marks the open kept file `file` used now, by its mtime (what the budget drops the oldest by: prune-kept.ts), and
 * carries its check over.
 */
export async function markUsed(handle: FileHandle, file: string): Promise<void> {
  const before = await handle.stat();
  await backdate(handle);
  const was = checked.get(file);
  if (was?.identity === identity(before)) checked.set(file, { identity: identity(await handle.stat()), range: was.range });
}

/**
 * Sets the mtime of a kept file we wrote or used to now, less a few seconds: then any write after this shows as
 * another mtime (rangeMatches need not wait for it to settle), and every kept file's mtime is offset alike.
 */
async function backdate(handle: FileHandle): Promise<void> {
  const now = Date.now();
  await handle.utimes(new Date(now), new Date(now - 2 * SETTLED_MS));
}

/**
 * `length` bytes from `position` of an open file of `size` bytes, when `length` is at most `most`: a length read
 * from a damaged file is refused before anything is allocated for it.
 */
export async function boundedRead(handle: FileHandle, size: number, position: number, length: number, most: number): Promise<Buffer | null> {
  if (!Number.isSafeInteger(length) || length < 0 || length > most || position < 0 || position + length > size) return null;
  const bytes = Buffer.alloc(length);
  const { bytesRead } = await handle.read(bytes, 0, length, position);
  return bytesRead === length ? bytes : null;
}

/**
 * A file of the cache being made: written to a temp file beside `target` (the same folder, so that the rename is
 * atomic), its bytes summed as they go, and renamed over `target` once whole.
 */
export class KeptWriter {
  private readonly sum = new ByteChecksum();
  private written = 0;

  private constructor(
    readonly target: string,
    private readonly temp: string,
    private handle: FileHandle | null,
  ) {}

  /** A writer for `target`; null when its folder cannot be written (read-only, full, a file in its place). */
  static async create(target: string): Promise<KeptWriter | null> {
    const temp = `${target}.${randomUUID()}.tmp`;
    try {
      await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
      return new KeptWriter(target, temp, await open(temp, "wx", 0o600));
    } catch {
      return null;
    }
  }

  /** Bytes written so far, and their checksum (what a trailer records of them). */
  get bytes(): number {
    return this.written;
  }

  get checksum(): string {
    return this.sum.hex();
  }

  /** False once a write failed: then nothing is kept. */
  get writing(): boolean {
    return this.handle !== null;
  }

  async write(bytes: Uint8Array): Promise<void> {
    if (!this.handle) return;
    try {
      await writeAll(this.handle, bytes);
      this.sum.update(bytes);
      this.written += bytes.byteLength;
    } catch {
      // the folder filled up or went away: the answer goes on, nothing is kept
      await this.discard();
    }
  }

  /** Writes `last` (not summed: a trailer that describes the bytes before it), then puts the file in place. */
  async commit(last: Uint8Array = new Uint8Array(0)): Promise<boolean> {
    const handle = this.handle;
    if (!handle) return false;
    this.handle = null;
    try {
      await writeAll(handle, last);
      await backdate(handle);
      await handle.close();
      await rename(this.temp, this.target);
      return true;
    } catch {
      await handle.close().catch(() => undefined);
      await rm(this.temp, { force: true }).catch(() => undefined);
      return false;
    }
  }

  async discard(): Promise<void> {
    const handle = this.handle;
    this.handle = null;
    await handle?.close().catch(() => undefined);
    await rm(this.temp, { force: true }).catch(() => undefined);
  }
}

async function writeAll(handle: FileHandle, bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.byteLength;) {
    const { bytesWritten } = await handle.write(bytes, at, bytes.byteLength - at);
    if (bytesWritten === 0) throw new Error("the cache file took no bytes");
    at += bytesWritten;
  }
}

/** Drops a kept file found damaged, unless another server has put a new one in its place meanwhile. */
export async function dropDamaged(file: string, handle: FileHandle): Promise<void> {
  const [opened, now] = await Promise.all([handle.stat().catch(() => null), stat(file).catch(() => null)]);
  checked.delete(file);
  if (opened && now && opened.ino === now.ino && opened.dev === now.dev) await rm(file, { force: true }).catch(() => undefined);
}
