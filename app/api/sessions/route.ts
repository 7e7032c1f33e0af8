// GET /api/sessions: the library as JSON (newest first); `x-sessions-source: samples` when the bundled samples stand in.
import { loadLibrary } from "@/lib/server/library";
import { errorResponse } from "@/lib/server/serve-session";

export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  try {
    const library = await loadLibrary();
    return Response.json(library.sessions, {
      headers: { "cache-control": "no-store", "x-sessions-source": library.source, "x-sessions-dir": encodeURI(library.configuredDir) },
    });
  } catch (error) {
    // an archive that cannot be reached is a 503 that says why (serve-session.ts errorResponse)
    return errorResponse(error);
  }
}
