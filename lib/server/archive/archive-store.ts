// The archive's files as the server's library: listed, resolved from the path a page names, and opened through
// archived-file-handle.ts, so every route reads them as it reads a sessions directory's.
import type pg from "pg";
import { ARCHIVE_SEGMENTS, ARCHIVED_KEY, checkSessionPath, SessionPathError, type ResolvedSessionFile } from "../safe-path";
import { watchArchivedFile } from "./archive-changes";
import { findArchivedFile, findArchivedFileById, listArchivedFiles, type ArchivedFile } from "./archive-files";
import { archivedStats, openArchivedFile } from "./archived-file-handle";

/**
 * An archived file as a resolved session file. `file` is a key, not a path: it names the file in the server's
 * caches (which check size, mtime and generation as a local file's size, mtime and inode).
 */
export function archivedSessionFile(pool: pg.Pool, file: ArchivedFile): ResolvedSessionFile {
  return {
    file: `${ARCHIVED_KEY}${file.rel}`,
    rel: file.rel,
    size: file.size,
    mtimeMs: file.mtimeMs,
    dev: 0,
    ino: file.generation,
    archived: {
      machine: file.machine,
      fileId: file.fileId,
      root: file.root,
      open: () => openArchivedFile(pool, file.fileId, file.generation),
      stat: async () => {
        const now = await findArchivedFileById(pool, file.fileId);
        return now && archivedStats(now);
      },
      watch: (changed) => watchArchivedFile(pool, file.fileId, changed),
    },
  };
}

/** Every session file the archive holds, as the library lists a directory's. */
export async function archivedSessionFiles(pool: pg.Pool): Promise<ResolvedSessionFile[]> {
  return (await listArchivedFiles(pool)).filter((file) => file.path.endsWith(".jsonl")).map((file) => archivedSessionFile(pool, file));
}

/** The archived file a page names (`<machine>/<path>`), checked as a directory's path is; else a typed refusal. */
export async function resolveArchivedPath(pool: pg.Pool, rel: unknown): Promise<ResolvedSessionFile> {
  const segments = checkSessionPath(rel, ARCHIVE_SEGMENTS);
  if (segments.length < 2) throw new SessionPathError("invalid", "archived session files are named <machine>/<project folder>/<file>");
  const found = await findArchivedFile(pool, segments.join("/"));
  if (!found) throw new SessionPathError("not-found", "no such session file");
  return archivedSessionFile(pool, found);
}
