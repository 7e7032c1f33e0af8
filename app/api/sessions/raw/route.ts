// GET /api/sessions/raw?path=<path from /api/sessions>: the session file's text, streamed as NDJSON (a `Range: bytes=…`
// header: those bytes, 206); 400/403/404/416 as JSON.
import type { NextRequest } from "next/server";
import { sessionFileResponse } from "@/lib/server/serve-session";

export const dynamic = "force-dynamic";

export async function GET(request: NextRequest): Promise<Response> {
  // one decode (by URLSearchParams) only; lib/server refuses whatever still looks encoded
  return sessionFileResponse(request.nextUrl.searchParams.get("path"), undefined, request.headers.get("range"));
}
