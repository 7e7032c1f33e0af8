// What the library keeps of each entry line of a session file to answer questions across files: its fingerprint
// (id and content hash: which entries a fork copied), its parent (the branch split), where its line is (to read it
// again) and the usage pi counts for it. Read in one pass over the file's bytes, kept by (path, size, mtime).
import type { EntryFingerprint } from "@/lib/library/inherited-entries";
import { entryFingerprint } from "@/lib/library/inherited-entries";
import { usageRecordOf, type UsageRecord } from "@/lib/library/usage";
import { isObject } from "@/lib/session/json";
import type { FileHandle } from "node:fs/promises";
import { openSessionFile, type ResolvedSessionFile } from "./safe-path";

export const CHUNK = 1024 * 1024;

export interface DigestEntry {
  /** null for a line without an id (a v1 file's): it has usage, and nothing to be copied by */
  id: string | null;
  /** content hash (entryFingerprint); 0 without an id */
  hash: number;
  parentId: string | null;
  /** the line's bytes in the file */
  offset: number;
  length: number;
  /** what pi's /session stats count for it */
  usage: UsageRecord | null;
  /** an HX `leaf` entry: where it moves the cursor */
  leafTarget?: string | null;
}

/** The entries with ids, as fingerprints. */
export const fingerprintsOf = (digest: readonly DigestEntry[]): (DigestEntry & EntryFingerprint)[] =>
  digest.filter((entry): entry is DigestEntry & EntryFingerprint => entry.id !== null);

/**
 * Every entry line of the file, in file order. Lines that are no entry (headers, v4 records) are left out, and so
 * are lines that cannot be read: the viewer reports those by line when the file is opened.
 */
export async function readFileDigest(resolved: ResolvedSessionFile): Promise<DigestEntry[]> {
  const handle = await openSessionFile(resolved);
  const out: DigestEntry[] = [];
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  const line = (bytes: Uint8Array, offset: number) => {
    const value = parseLine(decoder.decode(bytes));
    if (!isObject(value) || value.type === "session" || (value.kind !== undefined && value.kind !== "entry")) return;
    const fingerprint = entryFingerprint(value);
    const entry: DigestEntry = {
      id: fingerprint?.id ?? null,
      hash: fingerprint?.hash ?? 0,
      parentId: typeof value.parentId === "string" ? value.parentId : null,
      offset,
      length: bytes.length,
      usage: usageRecordOf(value),
    };
    if (value.type === "leaf") entry.leafTarget = typeof value.targetId === "string" ? value.targetId : null;
    out.push(entry);
  };
  try {
    for await (const { bytes, offset } of fileLines(handle)) line(bytes, offset);
  } finally {
    await handle.close();
  }
  return out;
}

/**
 * The lines of an open file from byte `from`, each with the byte it starts at; the last is not `complete` when the
 * file does not end with a newline (it may still be being written). A long line is joined once, not copied again
 * with every chunk.
 */
export async function* fileLines(handle: FileHandle, from = 0): AsyncGenerator<{ bytes: Buffer; offset: number; complete: boolean }> {
  let pieces: Buffer[] = [];
  let pieceStart = from;
  for (let position = from; ;) {
    const buffer = Buffer.allocUnsafe(CHUNK);
    const { bytesRead } = await handle.read(buffer, 0, CHUNK, position);
    if (bytesRead === 0) break;
    const bytes = buffer.subarray(0, bytesRead);
    let start = 0;
    for (let nl = bytes.indexOf(0x0a); nl !== -1; nl = bytes.indexOf(0x0a, start)) {
      const tail = bytes.subarray(start, nl);
      yield { bytes: pieces.length ? Buffer.concat([...pieces, tail]) : tail, offset: pieceStart, complete: true };
      pieces = [];
      start = nl + 1;
      pieceStart = position + start;
    }
    if (start < bytes.length) pieces.push(Buffer.from(bytes.subarray(start)));
    position += bytesRead;
  }
  if (pieces.length) yield { bytes: Buffer.concat(pieces), offset: pieceStart, complete: false };
}

function parseLine(text: string): unknown {
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** One entry of a file, read again from its line. */
export async function readEntryAt(resolved: ResolvedSessionFile, at: { offset: number; length: number }): Promise<unknown> {
  const handle = await openSessionFile(resolved);
  try {
    const buffer = Buffer.alloc(at.length);
    await handle.read(buffer, 0, at.length, at.offset);
    return parseLine(new TextDecoder("utf-8", { ignoreBOM: true }).decode(buffer));
  } finally {
    await handle.close();
  }
}

export async function lastByte(resolved: ResolvedSessionFile): Promise<number> {
  const handle = await openSessionFile(resolved);
  try {
    const buffer = Buffer.alloc(1);
    await handle.read(buffer, 0, 1, resolved.size - 1);
    return buffer[0]!;
  } finally {
    await handle.close();
  }
}

const digests = new Map<string, { size: number; mtimeMs: number; value: Promise<DigestEntry[]> }>();

/** The file's digest as it is now; an unchanged file (same size and mtime) is not read again. */
export function cachedDigest(resolved: ResolvedSessionFile): Promise<DigestEntry[]> {
  const hit = digests.get(resolved.file);
  if (hit && hit.size === resolved.size && hit.mtimeMs === resolved.mtimeMs) return hit.value;
  const value = readFileDigest(resolved);
  digests.set(resolved.file, { size: resolved.size, mtimeMs: resolved.mtimeMs, value });
  value.catch(() => digests.delete(resolved.file));
  return value;
}
