// GET /api/sessions/tail?path=<path from /api/sessions>&offset=<bytes read>: the session file's appended lines as
// Server-Sent Events (see lib/server/serve-tail.ts); 400/403/404 as JSON, like /api/sessions/raw.
import type { NextRequest } from "next/server";
import { sessionTailResponse } from "@/lib/server/serve-tail";

export const dynamic = "force-dynamic";

export async function GET(request: NextRequest): Promise<Response> {
  const params = request.nextUrl.searchParams;
  return sessionTailResponse({
    path: params.get("path"),
    offset: params.get("offset"),
    lastEventId: request.headers.get("last-event-id"),
    signal: request.signal,
  });
}
