// Pushes one session file into the archive, in one transaction: nothing of it is half-written, whatever stops the
// push. A file the archive holds a beginning of (pi appended to it) sends only its new lines; a file rewritten or
// truncated is replaced whole; bytes after the last newline (a line pi is still writing) are held as pending, not
// as a line, until their newline comes.
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
  const maxLine = options.maxLine ?? maxLineBytes();
  const batchBytes = options.batchBytes ?? DEFAULT_BATCH_BYTES;
  const root = options.root ?? rootOf(file);
  const handle = await openLocalSessionFile(file);
  const client = await pool.connect();
  try {
    const stat = await handle.stat();
    const now = { size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino };
    await client.query("begin");
    try {
      let row = await lockRow(client, machineId, file.rel);
      if (!row) {
        const copy = await copyHeldElsewhere(client, machineId, file.rel, handle, now.size);
        if (copy) {
          await client.query("commit");
          return { kind: "copy", lines: 0, bytes: 0, detail: copy };
        }
        row = await insertRow(client, machineId, file.rel, root);
      }
      // a row no push has finished yet: ours, or one whose first push stopped midway (rolled back with it)
      const created = row.seen_mtime_ms === 0 && Number(row.seen_ino) === 0;
      if (!created && sameAsSeen(seenOf(row), now)) {
        await client.query("commit");
        return { kind: "unchanged", lines: 0, bytes: 0 };
      }
      const made = row;
      const held = Number(made.size);
      // still the file the archive holds a beginning of?
      let ends: HeldEnds | null = null;
      if (held === 0) ends = new HeldEnds();
      else if (now.size >= held && made.head_sha256 && made.tail_sha256) {
        const read = await heldEnds(handle, held);
        if (read && sha256(read.head).equals(made.head_sha256) && sha256(read.tail).equals(made.tail_sha256)) ends = new HeldEnds(read);
      }
      const replace = ends === null;
      if (replace) {
        await client.query(`delete from ${SCHEMA}.lines where file_id = $1`, [made.id]);
        ends = new HeldEnds();
      }
      const from = replace ? 0 : held;
      const firstLine = replace ? 1 : made.line_count + 1;
      // the library index's rows of the lines, written with them (derived-rows.ts)
      const derived = await DerivedRows.start(client, {
        fileId: made.id,
        path: file.rel,
        firstLine,
        replaced: replace && held > 0,
        leaf: replace ? null : made.leaf,
        described: !replace && made.header_time !== null,
        mtimeMs: now.mtimeMs,
        maxLine,
      });
      const written = await writeLines(client, made.id, handle, {
        from,
        firstLine,
        derived,
        ends: ends!,
        maxLine,
        batchBytes,
        afterBatch: options.afterBatch,
        rel: file.rel,
      });
      if (replace || written.lines > 0) await derived.finish();
      const hashes = ends!.hashes();
      const size = from + written.bytes;
      const lineCount = firstLine - 1 + written.lines;
      const changed = replace || written.lines > 0 || !written.pending.equals(made.pending);
      await client.query(
        `update ${SCHEMA}.files set generation = generation + $2, size = $3, line_count = $4, pending = $5, seen_size = $6, seen_mtime_ms = $7,
           seen_ino = $8, head_sha256 = $9, tail_sha256 = $10, pushed_at = case when $11 then now() else pushed_at end, root = $12 where id = $1`,
        [
          made.id,
          replace ? 1 : 0,
          size,
          lineCount,
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
      await client.query("commit");
      const kind: PushKind = created ? "new" : replace ? "replaced" : changed ? "grown" : "unchanged";
      return { kind, lines: written.lines, bytes: written.bytes + written.pending.length };
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

/** The sessions directory `file` was found in, for a caller that did not name it: the real one. */
const rootOf = (file: ResolvedSessionFile): string => path.resolve(file.file, ...file.rel.split("/").map(() => ".."));

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
async function copyHeldElsewhere(
  client: pg.PoolClient,
  machineId: number,
  rel: string,
  handle: import("node:fs/promises").FileHandle,
  size: number,
): Promise<string | null> {
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

async function readTail(handle: import("node:fs/promises").FileHandle, at: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, at);
  return buffer.subarray(0, bytesRead);
}

interface Written {
  lines: number;
  bytes: number;
  pending: Buffer;
}

/** Writes the whole lines from byte `from` on, in batches; returns what it wrote and the bytes after the last newline. */
async function writeLines(
  client: pg.PoolClient,
  fileId: string,
  handle: import("node:fs/promises").FileHandle,
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
  let numbers: number[] = [];
  let offsets: number[] = [];
  let texts: Buffer[] = [];
  let batchBytes = 0;
  let batches = 0;
  let lines = 0;
  let bytes = 0;
  let pending = Buffer.alloc(0);
  const flush = async () => {
    if (numbers.length === 0) return;
    await client.query(`insert into ${SCHEMA}.lines (file_id, line, at, bytes) select $1, * from unnest($2::int[], $3::bigint[], $4::bytea[])`, [
      fileId,
      numbers,
      offsets,
      texts,
    ]);
    await at.derived.flush();
    numbers = [];
    offsets = [];
    texts = [];
    batchBytes = 0;
    await at.afterBatch?.(++batches);
  };
  const newline = Buffer.from("\n");
  for await (const line of fileLines(handle, at.from, at.maxLine)) {
    const number = at.firstLine + lines;
    if (line.bytes === null)
      throw new Refused(`${at.rel}:${number}: a line of more than ${formatLimit(at.maxLine)} (PI_VIEWER_MAX_LINE_MB): the file is not pushed`);
    if (!line.complete) {
      pending = Buffer.from(line.bytes);
      break;
    }
    numbers.push(number);
    at.derived.line(number, line);
    offsets.push(line.offset);
    texts.push(line.bytes);
    at.ends.append(line.bytes);
    at.ends.append(newline);
    lines++;
    bytes += line.length + 1;
    batchBytes += line.length + 1;
    if (batchBytes >= at.batchBytes || numbers.length >= BATCH_LINES) await flush();
  }
  await flush();
  return { lines, bytes, pending };
}
