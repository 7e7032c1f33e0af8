// Pushes one session file into the archive, in one transaction: nothing of it is half-written, whatever stops the
// push. A file the archive holds a beginning of (pi appended to it) sends only its new lines; a file rewritten or
// truncated is replaced whole; bytes after the last newline (a line pi is still writing) are held as pending, not
// as a line, until their newline comes.
import type { FileHandle } from "node:fs/promises";
import path from "node:path";
import type pg from "pg";
import { fileLines } from "../file-lines";
import { formatLimit, maxLineBytes } from "../line-limit";
import { openLocalSessionFile, type ResolvedSessionFile } from "../safe-path";
import { DerivedRows } from "../library-index/postgres/derived-rows";
import { SCHEMA } from "./archive-schema";
import { HeldEnds, heldEnds, sha256 } from "./held-bytes";

/** What the archive knew of a file when its last push ended: unchanged since, it is not read again. */
export interface SeenState {
  seenSize: number;
  seenMtimeMs: number;
  seenIno: number;
}

export type PushKind = "unchanged" | "new" | "grown" | "replaced" | "copy" | "refused";

export interface PushOutcome {
  kind: PushKind;
  /** lines written */
  lines: number;
  /** bytes read from the file and written */
  bytes: number;
  /** for "copy": the machine whose identical file the archive holds; for "refused": why, as FILE:LINE: reason */
  detail?: string;
}

export interface PushFileOptions {
  /** the longest line pushed (PI_VIEWER_MAX_LINE_MB): a file holding a longer one is refused, named by line */
  maxLine?: number;
  /** bytes of lines per INSERT */
  batchBytes?: number;
  /** called after each batch is written, inside the transaction (the tests stop a push midway with it) */
  afterBatch?: (batch: number) => void | Promise<void>;
  /** the machine's sessions directory, absolute, kept with the file (default: the real directory `file.rel` is in) */
  root?: string;
  /** one of many files pushed at once (a first push): the search index's new words are merged in bigger runs */
  bulk?: boolean;
}

const DEFAULT_BATCH_BYTES = 4 * 1024 * 1024;
const BATCH_LINES = 5000;

interface FileRow {
  id: string;
  generation: number;
  size: string;
  line_count: number;
  pending: Buffer;
  seen_size: string;
  seen_mtime_ms: number;
  seen_ino: string;
  head_sha256: Buffer | null;
  tail_sha256: Buffer | null;
  leaf: string | null;
  header_time: string | null;
}

export const sameAsSeen = (seen: SeenState | undefined, file: { size: number; mtimeMs: number; ino: number }): boolean =>
  !!seen && seen.seenSize === file.size && seen.seenMtimeMs === file.mtimeMs && seen.seenIno === file.ino;

class Refused extends Error {}

/** Pushes `file` (found in the machine's sessions directory) as `machineId`'s file at `file.rel`. */
export async function pushFile(pool: pg.Pool, machineId: number, file: ResolvedSessionFile, options: PushFileOptions = {}): Promise<PushOutcome> {
  const handle = await openLocalSessionFile(file);
  const client = await pool.connect();
  try {
    const stat = await handle.stat();
    await client.query("begin");
    try {
      const outcome = await pushInTransaction(client, machineId, file, handle, { size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino }, options);
      await client.query("commit");
      return outcome;
    } catch (error) {
      await client.query("rollback").catch(() => undefined);
      if (error instanceof Refused) return { kind: "refused", lines: 0, bytes: 0, detail: error.message };
      throw error;
    }
  } finally {
    client.release();
    await handle.close();
  }
}

async function pushInTransaction(
  client: pg.PoolClient,
  machineId: number,
  file: ResolvedSessionFile,
  handle: FileHandle,
  now: { size: number; mtimeMs: number; ino: number },
  options: PushFileOptions,
): Promise<PushOutcome> {
  const maxLine = options.maxLine ?? maxLineBytes();
  const root = options.root ?? rootOf(file);
  let row = await lockRow(client, machineId, file.rel);
  if (!row) {
    const copy = await copyHeldElsewhere(client, machineId, file.rel, handle, now.size);
    if (copy) return { kind: "copy", lines: 0, bytes: 0, detail: copy };
    row = await insertRow(client, machineId, file.rel, root);
  }
  // a row no push has finished yet: ours, or one whose first push stopped midway (rolled back with it)
  const created = row.seen_mtime_ms === 0 && Number(row.seen_ino) === 0;
  if (!created && sameAsSeen(seenOf(row), now)) return { kind: "unchanged", lines: 0, bytes: 0 };
  // the GIN index on the entries' words takes new rows into its pending list and merges them in memory: merged in
  // bigger runs, a bulk push spends much less on it (push-library.ts cleans the list once the push is done)
  await client.query("select set_config('work_mem', $1, true), set_config('gin_pending_list_limit', $2, true)", ["64MB", options.bulk ? "64MB" : "4MB"]);
  const held = Number(row.size);
  const kept = await stillHeld(handle, row, now.size);
  const replace = kept === null;
  if (replace) await client.query(`delete from ${SCHEMA}.lines where file_id = $1`, [row.id]);
  const ends = kept ?? new HeldEnds();
  const from = replace ? 0 : held;
  const firstLine = replace ? 1 : row.line_count + 1;
  // the library index's rows of the lines, written with them (derived-rows.ts)
  const derived = await DerivedRows.start(client, {
    fileId: row.id,
    path: file.rel,
    firstLine,
    replaced: replace && held > 0,
    leaf: replace ? null : row.leaf,
    described: !replace && row.header_time !== null,
    mtimeMs: now.mtimeMs,
    maxLine,
  });
  const written = await writeLines(client, row.id, handle, {
    from,
    firstLine,
    derived,
    ends,
    maxLine,
    batchBytes: options.batchBytes ?? DEFAULT_BATCH_BYTES,
    afterBatch: options.afterBatch,
    rel: file.rel,
  });
  if (replace || written.lines > 0) await derived.finish();
  const hashes = ends.hashes();
  const size = from + written.bytes;
  const changed = replace || written.lines > 0 || !written.pending.equals(row.pending);
  await client.query(
    `update ${SCHEMA}.files set generation = generation + $2, size = $3, line_count = $4, pending = $5, seen_size = $6, seen_mtime_ms = $7,
       seen_ino = $8, head_sha256 = $9, tail_sha256 = $10, pushed_at = case when $11 then now() else pushed_at end, root = $12 where id = $1`,
    [
      row.id,
      replace ? 1 : 0,
      size,
      firstLine - 1 + written.lines,
      written.pending,
      now.size,
      now.mtimeMs,
      now.ino,
      size > 0 ? hashes.head : null,
      size > 0 ? hashes.tail : null,
      changed,
      root,
    ],
  );
  if (changed) await client.query(`update ${SCHEMA}.machines set last_push = now() where id = $1`, [machineId]);
  const kind: PushKind = created ? "new" : replace ? "replaced" : changed ? "grown" : "unchanged";
  return { kind, lines: written.lines, bytes: written.bytes + written.pending.length };
}

/** The sessions directory `file` was found in, for a caller that did not name it: the real one. */
const rootOf = (file: ResolvedSessionFile): string => path.resolve(file.file, ...file.rel.split("/").map(() => ".."));

/**
 * The ends of the part of the file the archive holds, when the file still begins with that part (pi appended to
 * it, or nothing changed); null when it was rewritten or truncated.
 */
async function stillHeld(handle: FileHandle, row: FileRow, size: number): Promise<HeldEnds | null> {
  const held = Number(row.size);
  if (held === 0) return new HeldEnds();
  if (size < held || !row.head_sha256 || !row.tail_sha256) return null;
  const read = await heldEnds(handle, held);
  return read && sha256(read.head).equals(row.head_sha256) && sha256(read.tail).equals(row.tail_sha256) ? new HeldEnds(read) : null;
}

function seenOf(row: FileRow): SeenState {
  return { seenSize: Number(row.seen_size), seenMtimeMs: row.seen_mtime_ms, seenIno: Number(row.seen_ino) };
}

const ROW_COLUMNS = "id, generation, size, line_count, pending, seen_size, seen_mtime_ms, seen_ino, head_sha256, tail_sha256, leaf, header_time";

/**
 * The file's row, locked until the transaction ends: two pushes of one file (two processes of one machine) take
 * turns. A lock that leaves the key alone: another push writing this file's usage sums (derived-rows.ts) only
 * checks that the row is there, and must not wait for this push while this push waits for it.
 */
async function lockRow(client: pg.PoolClient, machineId: number, rel: string): Promise<FileRow | null> {
  const { rows } = await client.query<FileRow>(`select ${ROW_COLUMNS} from ${SCHEMA}.files where machine_id = $1 and path = $2 for no key update`, [
    machineId,
    rel,
  ]);
  return rows[0] ?? null;
}

async function insertRow(client: pg.PoolClient, machineId: number, rel: string, root: string): Promise<FileRow> {
  await client.query(`insert into ${SCHEMA}.files (machine_id, path, root) values ($1, $2, $3) on conflict (machine_id, path) do nothing`, [
    machineId,
    rel,
    root,
  ]);
  // made by us, or by another push of the same file that committed first: either way, ours to lock now
  const row = await lockRow(client, machineId, rel);
  if (!row) throw new Error(`the archive lost the row of ${rel} while pushing it`);
  return row;
}

/**
 * A session the archive already holds, byte for byte, from another machine (a sessions folder synced or copied
 * between machines): it stays that machine's, and is not held twice. Returns that machine's name, or null.
 */
async function copyHeldElsewhere(client: pg.PoolClient, machineId: number, rel: string, handle: FileHandle, size: number): Promise<string | null> {
  const { rows } = await client.query<{ name: string; size: string; pending: Buffer; head_sha256: Buffer | null; tail_sha256: Buffer | null }>(
    `select m.name, f.size, f.pending, f.head_sha256, f.tail_sha256 from ${SCHEMA}.files f join ${SCHEMA}.machines m on m.id = f.machine_id
      where f.path = $1 and f.machine_id <> $2 order by f.id`,
    [rel, machineId],
  );
  for (const other of rows) {
    const held = Number(other.size);
    if (held === 0 || held + other.pending.length !== size || !other.head_sha256 || !other.tail_sha256) continue;
    const read = await heldEnds(handle, held);
    if (!read || !sha256(read.head).equals(other.head_sha256) || !sha256(read.tail).equals(other.tail_sha256)) continue;
    const pending = other.pending.length ? await readTail(handle, held, other.pending.length) : Buffer.alloc(0);
    if (pending.equals(other.pending)) return other.name;
  }
  return null;
}

async function readTail(handle: FileHandle, at: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, at);
  return buffer.subarray(0, bytesRead);
}

interface Written {
  lines: number;
  bytes: number;
  pending: Buffer;
}

const NEWLINE = Buffer.from("\n");

/** Writes the whole lines from byte `from` on, in batches; returns what it wrote and the bytes after the last newline. */
async function writeLines(
  client: pg.PoolClient,
  fileId: string,
  handle: FileHandle,
  at: {
    from: number;
    firstLine: number;
    derived: DerivedRows;
    ends: HeldEnds;
    maxLine: number;
    batchBytes: number;
    afterBatch?: PushFileOptions["afterBatch"];
    rel: string;
  },
): Promise<Written> {
  // a batch's lines go as one bytea, each with its newline as in the file, and where each starts in it: sent as
  // bytes, where an array of bytea would go as hex text, to be encoded here and decoded by the server
  let pieces: Buffer[] = [];
  let starts: number[] = [];
  let lengths: number[] = [];
  let batchBytes = 0;
  let batches = 0;
  let lines = 0;
  let bytes = 0;
  let pending = Buffer.alloc(0);
  // the batch the server is writing while the next one is read and parsed here
  let writing: Promise<unknown> = Promise.resolve();
  const flush = async () => {
    if (starts.length === 0) return;
    const batch = Buffer.concat(pieces, batchBytes);
    const values = [fileId, at.firstLine + lines - starts.length, at.from + bytes, batch, starts, lengths];
    at.ends.append(batch);
    bytes += batchBytes;
    pieces = [];
    starts = [];
    lengths = [];
    batchBytes = 0;
    await writing;
    const batchNumber = ++batches;
    // the derived rows are taken now, before the next lines are read; the client sends the queries in turn
    writing = Promise.all([
      client.query(
        `insert into ${SCHEMA}.lines (file_id, line, at, bytes)
         select $1, $2::int + n - 1, $3::bigint + s, substr($4::bytea, s + 1, l) from unnest($5::int[], $6::int[]) with ordinality as u(s, l, n)`,
        values,
      ),
      at.derived.flush(),
    ]).then(() => at.afterBatch?.(batchNumber));
    // its failure is met by the next wait for it; until then it must not count as unhandled
    writing.catch(() => undefined);
  };
  for await (const line of fileLines(handle, at.from, at.maxLine)) {
    const number = at.firstLine + lines;
    if (line.bytes === null)
      throw new Refused(`${at.rel}:${number}: a line of more than ${formatLimit(at.maxLine)} (PI_VIEWER_MAX_LINE_MB): the file is not pushed`);
    if (!line.complete) {
      pending = Buffer.from(line.bytes);
      break;
    }
    at.derived.line(number, line);
    starts.push(batchBytes);
    lengths.push(line.length);
    pieces.push(line.bytes, NEWLINE);
    lines++;
    batchBytes += line.length + 1;
    if (batchBytes >= at.batchBytes || starts.length >= BATCH_LINES) await flush();
  }
  await flush();
  await writing;
  return { lines, bytes, pending };
}
