// HTTP answers for the session API: a session file streamed as NDJSON, and typed errors as JSON.
import { Readable } from "node:stream";
import { ArchiveError, archiveError, isDatabaseFailure } from "./archive/archive-error";
import { archiveUrl } from "./archive/served-archive";
import { LibraryIndexBusyError } from "./library-index/library-index-busy-error";
import { sessionRoot } from "./library";
import { maxFileBytes } from "./limits";
import { httpStatus, openSessionFile, SessionPathError } from "./safe-path";

/**
 * The raw text of one session of the library, streamed; the path is checked by resolveSessionPath. With a
 * `Range` header (one range of bytes) only those bytes are sent (206): content is read from a big session
 * where it is, not with the whole file.
 */
export async function sessionFileResponse(rel: unknown, maxBytes: number = maxFileBytes(), range: string | null = null): Promise<Response> {
  try {
    const library = await sessionRoot();
    const resolved = await library.resolve(rel);
    const headers = {
      "content-type": "application/x-ndjson",
      "cache-control": "no-store",
      "accept-ranges": "bytes",
      "x-sessions-source": library.source,
    };
    const wanted = range === null ? null : byteRange(range, resolved.size);
    if (wanted === "unsatisfiable")
      return Response.json(
        { error: `the range ${range} is not within the file's ${resolved.size} bytes`, code: "range" },
        { status: 416, headers: { "content-range": `bytes */${resolved.size}` } },
      );
    const size = wanted === null ? resolved.size : wanted.end - wanted.start + 1;
    if (size > maxBytes) throw new SessionPathError("too-large", tooLargeMessage(size, maxBytes));
    const handle = await openSessionFile(resolved);
    if (wanted === null) {
      const body = Readable.toWeb(handle.createReadStream()) as ReadableStream<Uint8Array>;
      return new Response(body, { headers: { ...headers, "content-length": String(resolved.size) } });
    }
    const body = Readable.toWeb(handle.createReadStream({ start: wanted.start, end: wanted.end })) as ReadableStream<Uint8Array>;
    return new Response(body, {
      status: 206,
      headers: { ...headers, "content-length": String(size), "content-range": `bytes ${wanted.start}-${wanted.end}/${resolved.size}` },
    });
  } catch (error) {
    return errorResponse(error);
  }
}

/**
 * One `bytes=` range of RFC 9110 (first-last, first-, -suffix) within `size` bytes, clamped to the end; null for
 * a header this answers with the whole file (several ranges, another unit, not a range at all), as the RFC allows.
 */
export function byteRange(header: string, size: number): { start: number; end: number } | "unsatisfiable" | null {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === "" && match[2] === "")) return null;
  if (match[1] === "") {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (match[2] !== "" && Number(match[2]) < start) return null;
  if (start >= size) return "unsatisfiable";
  return { start, end };
}

export function tooLargeMessage(size: number, maxBytes: number): string {
  const mb = (bytes: number) => `${Math.ceil(bytes / (1024 * 1024))} MB`;
  return `the session file is ${mb(size)}, over the limit of ${mb(maxBytes)} (set PI_VIEWER_MAX_FILE_MB to raise it)`;
}

/** How long a client is asked to wait before asking again an index another writer holds (seconds). */
export const INDEX_BUSY_RETRY_SECONDS = 10;

export function errorResponse(error: unknown): Response {
  if (error instanceof SessionPathError) return Response.json({ error: error.message, code: error.code }, { status: httpStatus(error) });
  // every route that asks the library's index answers its busy error so: the index already waited its turn
  if (error instanceof LibraryIndexBusyError)
    return Response.json(
      { error: "the search index is being updated by another process: try again shortly", code: "busy" },
      { status: 503, headers: { "retry-after": String(INDEX_BUSY_RETRY_SECONDS), "cache-control": "no-store" } },
    );
  // the archive could not be reached or read: its message says what to change, and names the URL without its password
  const served = archiveUrl();
  const failure = error instanceof ArchiveError ? error : served !== null && isDatabaseFailure(error) ? archiveError(error, served) : null;
  if (failure)
    return Response.json(
      { error: failure.message, code: "archive" },
      { status: 503, headers: { "retry-after": String(INDEX_BUSY_RETRY_SECONDS), "cache-control": "no-store" } },
    );
  // never echo the cause: it can hold absolute paths
  return Response.json({ error: "the session file could not be read", code: "internal" }, { status: 500 });
}
