// What the library keeps of each entry line of a session file to answer questions across files: its fingerprint
// (id and content hash: which entries a fork copied), its parent (the branch split), where its line is (to read it
// again) and the usage pi counts for it. Read in one pass over the file's bytes, kept by (path, size, mtime, inode).
import type { EntryFingerprint } from "@/lib/library/inherited-entries";
import { entryFingerprint } from "@/lib/library/inherited-entries";
import { usageRecordOf, type UsageRecord } from "@/lib/library/usage";
import { isObject } from "@/lib/session/json";
import { fileLines } from "./file-lines";
import { maxLineBytes } from "./line-limit";
import { FileStateCache } from "./file-state-cache";
import { parseLine } from "./parse-line";
import { openSessionFile, type ResolvedSessionFile } from "./safe-path";

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
 * are lines that cannot be read (parse-line.ts): the library's index names those by line, the viewer too when the
 * file is opened.
 */
export async function readFileDigest(resolved: ResolvedSessionFile): Promise<DigestEntry[]> {
  const handle = await openSessionFile(resolved);
  const out: DigestEntry[] = [];
  const maxLine = maxLineBytes();
  const line = (bytes: Buffer | null, offset: number, length: number) => {
    const parsed = parseLine({ bytes, length }, maxLine);
    const value = "value" in parsed ? parsed.value : undefined;
    if (!isObject(value) || value.type === "session" || (value.kind !== undefined && value.kind !== "entry")) return;
    const fingerprint = entryFingerprint(value);
    const entry: DigestEntry = {
      id: fingerprint?.id ?? null,
      hash: fingerprint?.hash ?? 0,
      parentId: typeof value.parentId === "string" ? value.parentId : null,
      offset,
      length,
      usage: usageRecordOf(value),
    };
    if (value.type === "leaf") entry.leafTarget = typeof value.targetId === "string" ? value.targetId : null;
    out.push(entry);
  };
  try {
    for await (const { bytes, offset, length } of fileLines(handle, 0, maxLine)) line(bytes, offset, length);
  } finally {
    await handle.close();
  }
  return out;
}

/** One entry of a file, read again from its line. */
export async function readEntryAt(resolved: ResolvedSessionFile, at: { offset: number; length: number }): Promise<unknown> {
  const handle = await openSessionFile(resolved);
  try {
    const buffer = Buffer.alloc(at.length);
    await handle.read(buffer, 0, at.length, at.offset);
    const parsed = parseLine({ bytes: buffer, length: at.length }, at.length);
    return "value" in parsed ? parsed.value : undefined;
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

/** Digests are read for the forks a page opens and their sources: a few hundred files cover any session of browsing. */
const DIGEST_FILES = 256;
const digests = new FileStateCache<Promise<DigestEntry[]>>(DIGEST_FILES);

/** The file's digest as it is now; an unchanged file (path, size, mtime, inode) is not read again. */
export function cachedDigest(resolved: ResolvedSessionFile): Promise<DigestEntry[]> {
  return digests.value(resolved.file, resolved, () => readFileDigest(resolved));
}
