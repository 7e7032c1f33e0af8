// Finds the session files of a sessions directory (pi's layout: `--<cwd>--/<file>.jsonl`, plus files at
// the top) and describes each for the library. Not responsible for reading whole sessions.
import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { resolveFamilies, type FamilyMember } from "@/lib/library/fork-families";
import { familyMember } from "./library-families";
import { cachedSummary } from "./read-summary";
import { resolveSessionPath, type ResolvedSessionFile } from "./safe-path";
import type { SessionListing } from "@/lib/library/session-listing";
import { displayTitle } from "@/lib/session/features/title";

export type { SessionListing };

const PROJECT_FOLDER = /^--.*--$/;
const CONCURRENCY = 8;

/**
 * The session files under `dir` (pi's layout, one folder level), each passed through the same guard the raw
 * endpoint uses: symlinks out of the directory, sockets and the like are left out. Missing dir: none.
 */
export async function findSessionFiles(dir: string): Promise<ResolvedSessionFile[]> {
  const candidates: string[] = [];
  for await (const rel of candidatesIn(dir)) candidates.push(rel);
  const resolved = await mapLimited(candidates, CONCURRENCY, (rel) => resolveSessionPath(dir, rel).catch(() => null));
  return resolved.filter((file): file is ResolvedSessionFile => file !== null);
}

/**
 * Whether findSessionFiles(dir) finds any, found without finding them all: every file served asks, and a
 * library of thousands of sessions took tens of milliseconds per request to list.
 */
export async function holdsSessionFile(dir: string): Promise<boolean> {
  for await (const rel of candidatesIn(dir)) {
    if (await resolveSessionPath(dir, rel).then(Boolean, () => false)) return true;
  }
  return false;
}

/** The paths under `dir`, relative to it, that may be session files (not checked yet), a folder at a time. */
async function* candidatesIn(dir: string): AsyncGenerator<string> {
  for (const entry of await readDir(dir)) {
    if (entry.name.endsWith(".jsonl")) yield entry.name;
    else if (PROJECT_FOLDER.test(entry.name) && (entry.isDirectory() || entry.isSymbolicLink())) {
      for (const inner of await readDir(path.join(dir, entry.name))) {
        if (inner.name.endsWith(".jsonl")) yield `${entry.name}/${inner.name}`;
      }
    }
  }
}

/** Every session file under `dir`, described, newest first (header timestamp, else file time). */
export async function listSessions(dir: string): Promise<SessionListing[]> {
  return describeSessions(await findSessionFiles(dir), dir);
}

/** `files` of the sessions directory `dir`, described, with the forks among them linked to their sources. */
export async function describeSessions(files: ResolvedSessionFile[], dir: string): Promise<SessionListing[]> {
  const described = (await mapLimited(files, CONCURRENCY, (file) => describe(file, dir))).filter((item) => item !== null);
  const families = resolveFamilies(described.map((item) => item.member));
  const byPath = new Map(described.map(({ listing }) => [listing.path, listing]));
  for (const listing of byPath.values()) {
    const source = families.sourceOf.get(listing.path);
    if (source) listing.forkOf = { path: source.file, name: byPath.get(source.file)!.name };
    const missing = families.missingSource.get(listing.path);
    if (missing) listing.forkOfMissing = (missing.path ?? missing.sessionId)!;
    const forks = families.forksOf.get(listing.path);
    if (forks) listing.forks = [...forks];
  }
  return [...byPath.values()].sort(newestFirst);
}

async function describe(resolved: ResolvedSessionFile, dir: string): Promise<{ listing: SessionListing; member: FamilyMember } | null> {
  // opened as the raw endpoint opens it: a link, a FIFO or another file put at the path since the check is refused
  const summary = await cachedSummary(resolved).catch(() => null);
  if (!summary) return null; // unreadable (permissions, vanished, swapped): not listed
  const { rel, archived } = resolved;
  // an archived file's path begins with its machine, then is a directory's
  const inDir = archived ? rel.slice(archived.machine.length + 1) : rel;
  const slash = inDir.indexOf("/");
  const listing: SessionListing = {
    path: rel,
    project: slash === -1 ? "" : inDir.slice(0, slash),
    ...(archived ? { machine: archived.machine } : {}),
    id: summary.id,
    cwd: summary.cwd,
    timestamp: summary.timestamp,
    name: displayTitle(summary),
    named: summary.sessionName !== null,
    entryCount: summary.entryCount,
    size: resolved.size,
    mtime: new Date(resolved.mtimeMs).toISOString(),
    hasHeader: summary.id !== null,
  };
  if (summary.branchCount !== null) listing.branchCount = summary.branchCount;
  if (summary.entryCountEstimated) listing.entryCountEstimated = true;
  return { listing, member: familyMember(dir, { resolved, summary }) };
}

function sortTime(item: SessionListing): number {
  const t = item.timestamp ? Date.parse(item.timestamp) : NaN;
  return Number.isNaN(t) ? Date.parse(item.mtime) : t;
}

function newestFirst(a: SessionListing, b: SessionListing): number {
  return sortTime(b) - sortTime(a) || a.path.localeCompare(b.path);
}

async function readDir(dir: string): Promise<Dirent[]> {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch {
    return []; // a missing or unreadable directory holds no sessions
  }
}

async function mapLimited<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
