// How the library describes each archived file (session-summary.ts), kept in the archive beside the file: a
// summary reads up to a megabyte of a file's lines, and a server listing a 1 GB archive read every file's for the
// first time. The first server to describe a file keeps its summary there; every server after it (another behind
// the same load balancer, this one restarted) takes it from there. A summary is made from the file's bytes alone,
// so one made by any server serves all while the file is as it was (size, mtime, generation) and it was made the
// way this version makes them (SUMMARY_FORMAT). A server whose role may not write keeps describing files itself.
import type pg from "pg";
import { FileStateCache } from "../file-state-cache";
import { madeSummary, SUMMARY_FILES, SUMMARY_FORMAT, takeSummary } from "../read-summary";
import type { ResolvedSessionFile } from "../safe-path";
import type { SessionSummary } from "../session-summary";
import { SCHEMA } from "./archive-schema";

interface SummaryRow {
  file_id: string;
  size: string;
  mtime_ms: number;
  generation: number;
  summary: string;
}

/** Takes the summaries the archive keeps for those of `files` this server has none of, each while its file is as it was. */
export async function takeKeptSummaries(pool: pg.Pool, files: readonly ResolvedSessionFile[]): Promise<void> {
  const wanted = new Map(files.filter((file) => file.archived && !madeSummary(file)).map((file) => [file.archived!.fileId, file]));
  if (wanted.size === 0) return;
  const { rows } = await pool.query<SummaryRow>(
    `select file_id, size, mtime_ms, generation, summary from ${SCHEMA}.summaries where file_id = any($1::bigint[]) and format = $2`,
    [[...wanted.keys()], SUMMARY_FORMAT],
  );
  for (const row of rows) {
    const file = wanted.get(Number(row.file_id))!;
    if (Number(row.size) !== file.size || row.mtime_ms !== file.mtimeMs || row.generation !== file.ino) continue;
    const summary = parsed(row.summary);
    if (!summary) continue;
    takeSummary(file, summary);
    settled.set(keyOf(file), file, true);
  }
}

/** A kept summary as JSON text, or null when it is not one (made again then). */
function parsed(text: string): SessionSummary | null {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" ? (value as SessionSummary) : null;
  } catch {
    return null;
  }
}

/** Keeps in the archive the summaries this server made of `files` and has not kept there yet. */
export async function keepSummaries(pool: pg.Pool, files: readonly ResolvedSessionFile[]): Promise<void> {
  const made = await Promise.all(
    files.map(async (file) => {
      const summary = file.archived && !settled.get(keyOf(file), file) ? await madeSummary(file)?.catch(() => undefined) : undefined;
      return summary ? { file, summary } : null;
    }),
  );
  const rows = made.filter((row) => row !== null);
  if (rows.length === 0) return;
  // tried once per file as it is: a role that may not write keeps the summaries its own, without asking again
  for (const row of rows) settled.set(keyOf(row.file), row.file, true);
  await pool
    .query(
      `insert into ${SCHEMA}.summaries (file_id, size, mtime_ms, generation, format, summary)
       select * from unnest($1::bigint[], $2::bigint[], $3::float8[], $4::int[], $5::int[], $6::text[])
       on conflict (file_id) do update set size = excluded.size, mtime_ms = excluded.mtime_ms, generation = excluded.generation,
         format = excluded.format, summary = excluded.summary`,
      [
        rows.map((row) => row.file.archived!.fileId),
        rows.map((row) => row.file.size),
        rows.map((row) => row.file.mtimeMs),
        rows.map((row) => row.file.ino),
        rows.map(() => SUMMARY_FORMAT),
        rows.map((row) => JSON.stringify(row.summary)),
      ],
    )
    .catch(() => undefined);
}

/** The files, as they are, whose summaries the archive keeps, or that this server tried to keep there. */
const settled = new FileStateCache<true>(SUMMARY_FILES);
const keyOf = (file: ResolvedSessionFile) => String(file.archived!.fileId);
