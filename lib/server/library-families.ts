// The fork families of a sessions directory: each file's source and forks (from the headers), and where each
// fork left its source (from the entries both hold). A fork's entries are read only when it has a source here,
// and kept by (path, size, mtime), so a library reads each fork and its source once.
import path from "node:path";
import { resolveFamilies, type Families, type FamilyMember, type ForkSourceRef, type SourceMatch } from "@/lib/library/fork-families";
import { entryHeadline, inheritance } from "@/lib/library/inherited-entries";
import { cachedDigest, fingerprintsOf, lastByte, readEntryAt } from "./file-digest";
import { CHUNK } from "./file-lines";
import { cachedSummary } from "./read-summary";
import { openSessionFile, type ResolvedSessionFile } from "./safe-path";
import type { SessionSummary } from "./session-summary";

export interface FamilyFile {
  resolved: ResolvedSessionFile;
  summary: SessionSummary;
}

/** One file's place in its family, as the library and the viewer show it. */
export interface ForkInfo {
  file: string;
  /** the family's first file */
  root: string;
  /** the source in this library, how its header's link was matched, and where the fork left it */
  source: { file: string; by: SourceMatch; fromEntryId: string | null; fromEntry: string | null; leafId: string | null } | null;
  /** the header names a source this library does not hold */
  missingSource: ForkSourceRef | null;
  /** forks in this library, newest first */
  forks: string[];
  /** this file's entries copied from its source (same id, same content): the source's work, not this file's */
  inherited: ReadonlySet<string>;
}

export interface LibraryFamilies {
  families: Families;
  files: ReadonlyMap<string, FamilyFile>;
}

/** The summaries of `files` and the families they make. */
export async function libraryFamilies(dir: string, files: readonly ResolvedSessionFile[]): Promise<LibraryFamilies> {
  const described = await Promise.all(
    files.map(async (resolved) => {
      const summary = await cachedSummary(resolved).catch(() => null);
      return summary ? { resolved, summary } : null;
    }),
  );
  const byFile = new Map<string, FamilyFile>();
  const members: FamilyMember[] = [];
  for (const item of described) {
    if (!item) continue;
    byFile.set(item.resolved.rel, item);
    members.push(familyMember(dir, item));
  }
  return { families: resolveFamilies(members), files: byFile };
}

export function familyMember(dir: string, { resolved, summary }: FamilyFile): FamilyMember {
  const { archived } = resolved;
  return {
    file: resolved.rel,
    // an archived file's path on its machine: where it was pushed from, then its path after the machine's name
    absolutePath: archived ? path.posix.join(archived.root, ...resolved.rel.split("/").slice(1)) : path.join(dir, ...resolved.rel.split("/")),
    ...(archived ? { machine: archived.machine } : {}),
    sessionId: summary.sessionId,
    time: summary.timestamp ?? new Date(resolved.mtimeMs).toISOString(),
    source: summary.source,
  };
}

/** Where `file` sits in its family; null when the library does not hold it. */
export async function forkInfo(library: LibraryFamilies, file: string): Promise<ForkInfo | null> {
  if (!library.files.has(file)) return null;
  const { families } = library;
  const resolvedSource = families.sourceOf.get(file);
  let source: ForkInfo["source"] = null;
  let inherited: ReadonlySet<string> = new Set();
  if (resolvedSource) {
    const fork = library.files.get(file)!;
    const sourceFile = library.files.get(resolvedSource.file)!;
    const [sourceDigest, forkDigest] = await Promise.all([cachedDigest(sourceFile.resolved), cachedDigest(fork.resolved)]);
    const from = fingerprintsOf(sourceDigest);
    const into = fingerprintsOf(forkDigest);
    const found = inheritance(from, into);
    inherited = found.inherited;
    const at = found.fromEntryId === null ? undefined : into.findLast((f) => f.id === found.fromEntryId);
    const fromEntry = at ? entryHeadline(await readEntryAt(fork.resolved, at)) : null;
    // the source's last entry: its leaf by the coding agent's rule, what a comparison sets against the fork's
    source = { ...resolvedSource, fromEntryId: found.fromEntryId, fromEntry, leafId: from.at(-1)?.id ?? null };
  }
  return {
    file,
    root: families.rootOf(file),
    source,
    missingSource: families.missingSource.get(file) ?? null,
    forks: [...(families.forksOf.get(file) ?? [])],
    inherited,
  };
}

/**
 * The fork `file` and its source as one session: every line of the source, then the fork's own entry lines (what
 * it did not inherit), so both leaves hang in one tree from their common entries. Null when `file` has no source
 * here. A line of the fork that is no entry (unreadable, a header) is not carried over: the fork's own view has it.
 */
export async function forkWithSourceLines(library: LibraryFamilies, file: string): Promise<{ size: number; chunks: () => AsyncGenerator<Uint8Array> } | null> {
  const resolvedSource = library.families.sourceOf.get(file);
  if (!resolvedSource) return null;
  const fork = library.files.get(file)!.resolved;
  const source = library.files.get(resolvedSource.file)!.resolved;
  const [from, into] = await Promise.all([cachedDigest(source), cachedDigest(fork)]);
  const known = new Map(fingerprintsOf(from).map((f) => [f.id, f.hash]));
  const own = into.filter((f) => f.id === null || known.get(f.id) !== f.hash);
  // the source's last line may lack its newline: it gets one, and nothing else between the files
  const newline = source.size > 0 && (await lastByte(source)) !== 0x0a;
  const size = source.size + (newline ? 1 : 0) + own.reduce((n, f) => n + f.length + 1, 0);
  async function* chunks(): AsyncGenerator<Uint8Array> {
    const head = await openSessionFile(source);
    try {
      for (let position = 0; position < source.size;) {
        const buffer = Buffer.allocUnsafe(Math.min(CHUNK, source.size - position));
        const { bytesRead } = await head.read(buffer, 0, buffer.length, position);
        if (bytesRead === 0) break;
        position += bytesRead;
        yield buffer.subarray(0, bytesRead);
      }
    } finally {
      await head.close();
    }
    if (newline) yield Buffer.from("\n");
    const tail = await openSessionFile(fork);
    try {
      for (const line of own) {
        const buffer = Buffer.allocUnsafe(line.length + 1);
        await tail.read(buffer, 0, line.length, line.offset);
        buffer[line.length] = 0x0a;
        yield buffer;
      }
    } finally {
      await tail.close();
    }
  }
  return { size, chunks };
}
