// HTTP answers for the session API: a session file streamed as NDJSON, and typed errors as JSON.
import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import { libraryRoot } from "./library";
import { httpStatus, resolveSessionPath, SessionPathError } from "./safe-path";

/** The raw text of one session of the library, streamed; the path is checked by resolveSessionPath. */
export async function sessionFileResponse(rel: unknown): Promise<Response> {
  try {
    const library = await libraryRoot();
    const resolved = await resolveSessionPath(library.dir, rel);
    const body = Readable.toWeb(createReadStream(resolved.file)) as ReadableStream<Uint8Array>;
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

export function errorResponse(error: unknown): Response {
  if (error instanceof SessionPathError) return Response.json({ error: error.message, code: error.code }, { status: httpStatus(error) });
  // never echo the cause: it can hold absolute paths
  return Response.json({ error: "the session file could not be read", code: "internal" }, { status: 500 });
}
