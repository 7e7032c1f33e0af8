// Pushes a machine's sessions directory into the archive: every session file the local viewer lists, each in a
// transaction of its own (push-file.ts), a few at a time. A file unchanged since the last push is not opened: the
// archive's record of what it saw (size, mtime, inode) is fetched once for the whole machine.
import path from "node:path";
import type pg from "pg";
import { findSessionFiles } from "../list-sessions";
import type { ResolvedSessionFile } from "../safe-path";
import { SCHEMA } from "./archive-schema";
import { pushFile, sameAsSeen, type PushFileOptions, type PushKind, type SeenState } from "./push-file";

export interface PushProgress {
  files: number;
  filesDone: number;
  bytes: number;
  bytesDone: number;
}

export interface PushReport {
  machine: string;
  /** files by what the push did with them */
  counts: Record<PushKind | "failed", number>;
  lines: number;
  bytes: number;
  /** FILE: machine for sessions the archive holds from another machine */
  copies: string[];
  /** FILE:LINE: why, for files not pushed because of what they hold */
  refused: string[];
  /** FILE: error, for files that could not be read or written this time */
  failed: string[];
}

export interface PushLibraryOptions extends PushFileOptions {
  machine: string;
  machineId: number;
  /** files pushed at once */
  concurrency?: number;
  /** only these files (relative paths), as a watcher asks; default: every session file */
  only?: ReadonlySet<string>;
  onProgress?: (progress: PushProgress) => void;
}

/** Changed bytes from which a push counts as bulk (PushFileOptions.bulk): a first push, not a watcher's. */
const BULK_BYTES = 256 * 1024 * 1024;

export const emptyCounts = (): PushReport["counts"] => ({ unchanged: 0, new: 0, grown: 0, replaced: 0, copy: 0, refused: 0, failed: 0 });

/** Pushes the session files under `dir`. */
export async function pushLibrary(pool: pg.Pool, dir: string, options: PushLibraryOptions): Promise<PushReport> {
  const report: PushReport = { machine: options.machine, counts: emptyCounts(), lines: 0, bytes: 0, copies: [], refused: [], failed: [] };
  const all = await findSessionFiles(dir);
  const files = options.only ? all.filter((file) => options.only!.has(file.rel)) : all;
  const seen = await seenStates(pool, options.machineId);
  const changed: ResolvedSessionFile[] = [];
  for (const file of files) {
    if (sameAsSeen(seen.get(file.rel), file)) report.counts.unchanged++;
    else changed.push(file);
  }
  const progress: PushProgress = { files: changed.length, filesDone: 0, bytes: changed.reduce((sum, file) => sum + file.size, 0), bytesDone: 0 };
  options.onProgress?.({ ...progress });
  const bulk = options.bulk ?? progress.bytes >= BULK_BYTES;
  const fileOptions: PushFileOptions = { ...options, root: path.resolve(dir), bulk };
  let next = 0;
  const worker = async () => {
    while (next < changed.length) {
      const file = changed[next++]!;
      try {
        const outcome = await pushFile(pool, options.machineId, file, fileOptions);
        report.counts[outcome.kind]++;
        report.lines += outcome.lines;
        report.bytes += outcome.bytes;
        if (outcome.kind === "copy") report.copies.push(`${file.rel}: held from ${outcome.detail}`);
        if (outcome.kind === "refused") report.refused.push(outcome.detail!);
      } catch (error) {
        report.counts.failed++;
        report.failed.push(`${file.rel}: ${error instanceof Error ? error.message : String(error)}`);
        if (isFatal(error)) throw error;
      }
      progress.filesDone++;
      progress.bytesDone += file.size;
      options.onProgress?.({ ...progress });
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 3, Math.max(1, changed.length)) }, worker));
  if (bulk) await mergePendingWords(pool);
  return report;
}

async function seenStates(pool: pg.Pool, machineId: number): Promise<Map<string, SeenState>> {
  const { rows } = await pool.query<{ path: string; seen_size: string; seen_mtime_ms: number; seen_ino: string }>(
    `select path, seen_size, seen_mtime_ms, seen_ino from ${SCHEMA}.files where machine_id = $1`,
    [machineId],
  );
  return new Map(rows.map((row) => [row.path, { seenSize: Number(row.seen_size), seenMtimeMs: row.seen_mtime_ms, seenIno: Number(row.seen_ino) }]));
}

/**
 * Merges the words a bulk push left in the search index's pending list, which every search reads through whole
 * until then. Only the index's owner may: another role's push leaves it to autovacuum.
 */
async function mergePendingWords(pool: pg.Pool): Promise<void> {
  await pool.query("select gin_clean_pending_list($1::regclass)", [`${SCHEMA}.entries_words`]).catch(() => undefined);
}

/** Errors that end the whole push (the server is gone, the disk is full, no right to write), not one file's. */
function isFatal(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  const network = ["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT"].includes(String(code));
  return typeof code === "string" && (/^(08|53|57|28|42501|3D)/.test(code) || network);
}
