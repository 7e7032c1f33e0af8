// The archive's session files as the server reads a sessions directory's: listed with their size and identity, and
// opened to be read by byte range, whatever machine pushed them. A file is named `<machine>/<path on that machine>`
// (`ci-7/--home-dev-app--/2026-…jsonl`): two machines' files of one path stay apart.
import type pg from "pg";
import { SCHEMA } from "./archive-schema";

/** A file of the archive as a reader sees it at one moment: what it holds then, and which file that is. */
export interface ArchivedFile {
  /** `<machine>/<path>` */
  rel: string;
  machine: string;
  /** the path on its machine */
  path: string;
  fileId: number;
  /** counts up when the file is replaced: a reader of an older generation is reading another file */
  generation: number;
  /** whole lines' bytes, then the pending bytes: the file's size as pushed */
  size: number;
  held: number;
  lineCount: number;
  /** the file's modification time on its machine */
  mtimeMs: number;
  /** the sessions directory it was pushed from, absolute on its machine */
  root: string;
}

interface FileRow {
  machine: string;
  path: string;
  id: string;
  generation: number;
  size: string;
  pending_length: number;
  line_count: number;
  seen_mtime_ms: number;
  root: string;
}

const FILE_COLUMNS = `m.name as machine, f.path, f.id, f.generation, f.size, octet_length(f.pending) as pending_length, f.line_count, f.seen_mtime_ms, f.root`;
const FILES_FROM = `${SCHEMA}.files f join ${SCHEMA}.machines m on m.id = f.machine_id`;

function archived(row: FileRow): ArchivedFile {
  const held = Number(row.size);
  return {
    rel: `${row.machine}/${row.path}`,
    machine: row.machine,
    path: row.path,
    fileId: Number(row.id),
    generation: row.generation,
    size: held + row.pending_length,
    held,
    lineCount: row.line_count,
    mtimeMs: row.seen_mtime_ms,
    root: row.root,
  };
}

/** Every file the archive holds (a file pushed empty included), by machine and path. */
export async function listArchivedFiles(pool: pg.Pool): Promise<ArchivedFile[]> {
  const { rows } = await pool.query<FileRow>(`select ${FILE_COLUMNS} from ${FILES_FROM} order by m.name, f.path`);
  return rows.map(archived);
}

/** The file named `rel` (`<machine>/<path>`), or null. */
export async function findArchivedFile(pool: pg.Pool, rel: string): Promise<ArchivedFile | null> {
  const slash = rel.indexOf("/");
  if (slash <= 0) return null;
  const { rows } = await pool.query<FileRow>(`select ${FILE_COLUMNS} from ${FILES_FROM} where m.name = $1 and f.path = $2`, [
    rel.slice(0, slash),
    rel.slice(slash + 1),
  ]);
  return rows[0] ? archived(rows[0]) : null;
}

/** The file `fileId` as the archive holds it now, or null. */
export async function findArchivedFileById(pool: pg.Pool, fileId: number): Promise<ArchivedFile | null> {
  const { rows } = await pool.query<FileRow>(`select ${FILE_COLUMNS} from ${FILES_FROM} where f.id = $1`, [fileId]);
  return rows[0] ? archived(rows[0]) : null;
}

export class ArchivedFileChangedError extends Error {
  constructor(rel: string) {
    super(`${rel} was replaced in the archive while it was being read`);
    this.name = "ArchivedFileChangedError";
  }
}

/**
 * Reads an archived file by byte range, as a FileHandle reads a local one (`read` fills a buffer from a position),
 * the file as it was when found: bytes pushed since are not seen, and a replaced file is an error, not a mix.
 */
export class ArchivedFileReader {
  constructor(
    private readonly pool: pg.Pool,
    readonly file: ArchivedFile,
  ) {}

  async read(buffer: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesRead: number; buffer: Uint8Array }> {
    const end = Math.min(position + length, this.file.size);
    if (position >= end) return { bytesRead: 0, buffer };
    const bytes = await this.bytes(position, end);
    buffer.set(bytes, offset);
    return { bytesRead: bytes.length, buffer };
  }

  /** The bytes from `start` to `end` (exclusive) of the file as found. */
  async bytes(start: number, end: number): Promise<Buffer> {
    const { fileId, generation, held } = this.file;
    const parts: Buffer[] = [];
    const client = await this.pool.connect();
    try {
      // one snapshot for the check and the lines
      await client.query("begin isolation level repeatable read read only");
      const check = await client.query<{ generation: number; pending: Buffer | null }>(
        `select generation, case when $2::bigint > size then substring(pending from (greatest($3::bigint - size, 0) + 1)::int for ($2::bigint - greatest($3::bigint, size))::int) end as pending
           from ${SCHEMA}.files where id = $1`,
        [fileId, end, start],
      );
      const row = check.rows[0];
      if (!row || row.generation !== generation) throw new ArchivedFileChangedError(this.file.rel);
      if (start < held) {
        // the lines that overlap [start, min(end, held)): the first one may start before `start`
        const { rows } = await client.query<{ at: string; bytes: Buffer }>(
          `select at, bytes from ${SCHEMA}.lines where file_id = $1 and at < $2
             and at >= coalesce((select max(at) from ${SCHEMA}.lines where file_id = $1 and at <= $3), 0) order by at`,
          [fileId, Math.min(end, held), start],
        );
        const until = Math.min(end, held);
        for (const line of rows) {
          // the part of the line and its newline within [start, until)
          const at = Number(line.at);
          const from = Math.max(0, start - at);
          const to = Math.min(line.bytes.length + 1, until - at);
          if (from < line.bytes.length) parts.push(line.bytes.subarray(from, Math.min(to, line.bytes.length)));
          if (to > line.bytes.length) parts.push(NEWLINE);
        }
      }
      if (row.pending) parts.push(row.pending);
      await client.query("commit");
    } catch (error) {
      await client.query("rollback").catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
    const out = Buffer.concat(parts);
    if (out.length !== end - start) throw new ArchivedFileChangedError(this.file.rel);
    return out;
  }
}

const NEWLINE = Buffer.from("\n");
