// The part of a file the archive holds is checked by its first and last bytes: a file pi appended to still
// begins and ends its held part with them; a file rewritten or truncated does not. Hashing every held byte
// instead would read a growing session whole on each push.
import { createHash } from "node:crypto";
import type { FileHandle } from "node:fs/promises";

/** How many bytes at each end of the held part are compared. */
export const HELD_END_BYTES = 64 * 1024;

export const sha256 = (bytes: Uint8Array): Buffer => createHash("sha256").update(bytes).digest();

/** Reads exactly `length` bytes at `position`, or null when the file is shorter now. */
export async function readExactly(handle: FileHandle, position: number, length: number): Promise<Buffer | null> {
  const buffer = Buffer.alloc(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await handle.read(buffer, done, length - done, position + done);
    if (bytesRead === 0) return null;
    done += bytesRead;
  }
  return buffer;
}

/** The first and last HELD_END_BYTES of the file's first `held` bytes, as they are now (null: shorter now). */
export async function heldEnds(handle: FileHandle, held: number): Promise<{ head: Buffer; tail: Buffer } | null> {
  const span = Math.min(held, HELD_END_BYTES);
  const head = await readExactly(handle, 0, span);
  const tail = await readExactly(handle, held - span, span);
  return head && tail ? { head, tail } : null;
}

/**
 * The ends of a held part as it grows: what was held (its checked ends) and the bytes appended after it, a batch
 * of lines at a time. Keeps no more than HELD_END_BYTES of each end (the tail as the pieces that make it up, so a
 * piece costs no copy of the tail).
 */
export class HeldEnds {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private readonly recent: Uint8Array[] = [];
  private recentBytes = 0;

  constructor(ends?: { head: Buffer; tail: Buffer }) {
    if (!ends) return;
    this.head.push(ends.head);
    this.headBytes = ends.head.length;
    this.recent.push(ends.tail);
    this.recentBytes = ends.tail.length;
  }

  append(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    if (this.headBytes < HELD_END_BYTES) {
      const part = bytes.subarray(0, HELD_END_BYTES - this.headBytes);
      this.head.push(Buffer.from(part));
      this.headBytes += part.length;
    }
    this.recent.push(bytes);
    this.recentBytes += bytes.length;
    while (this.recentBytes - this.recent[0]!.length >= HELD_END_BYTES) this.recentBytes -= this.recent.shift()!.length;
  }

  hashes(): { head: Buffer; tail: Buffer } {
    const tail = Buffer.concat(this.recent);
    return { head: sha256(Buffer.concat(this.head)), tail: sha256(tail.subarray(Math.max(0, tail.length - HELD_END_BYTES))) };
  }
}
