// HTTP answers for the session API: a session file streamed as NDJSON, and typed errors as JSON.
import { Readable } from "node:stream";
import { libraryRoot } from "./library";
import { maxFileBytes } from "./limits";
import { httpStatus, openSessionFile, resolveSessionPath, SessionPathError } from "./safe-path";

/** The raw text of one session of the library, streamed; the path is checked by resolveSessionPath. */
export async function sessionFileResponse(rel: unknown, maxBytes: number = maxFileBytes()): Promise<Response> {
  try {
    const library = await libraryRoot();
    const resolved = await resolveSessionPath(library.dir, rel);
    if (resolved.size > maxBytes) throw new SessionPathError("too-large", tooLargeMessage(resolved.size, maxBytes));
    const handle = await openSessionFile(resolved);
    const body = Readable.toWeb(handle.createReadStream()) as ReadableStream<Uint8Array>;
    return new Response(body, {
      headers: {
        "content-type": "application/x-ndjson",
        "content-length": String(resolved.size),
        "cache-control": "no-store",
        "x-sessions-source": library.source,
      },
    });
  } catch (error) {
    return errorResponse(error);
  }
}

function tooLargeMessage(size: number, maxBytes: number): string {
  const mb = (bytes: number) => `${Math.ceil(bytes / (1024 * 1024))} MB`;
  return `the session file is ${mb(size)}, over the limit of ${mb(maxBytes)} (set PI_VIEWER_MAX_FILE_MB to raise it)`;
}

export function errorResponse(error: unknown): Response {
  if (error instanceof SessionPathError) return Response.json({ error: error.message, code: error.code }, { status: httpStatus(error) });
  // never echo the cause: it can hold absolute paths
  return Response.json({ error: "the session file could not be read", code: "internal" }, { status: 500 });
}
