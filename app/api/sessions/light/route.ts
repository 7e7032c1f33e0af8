// GET /api/sessions/light?path=<path from /api/sessions>: the file's light index (lib/server/light-index.ts), kept
// after the first time; 409 for a file read whole (older formats, v4 logs); 400/403/404 as JSON, as /api/sessions/raw.
// With &index=<id> and a Range: those bytes of the frames of the kept index the page was sent.
import type { NextRequest } from "next/server";
import { lightFramesResponse, lightIndexResponse } from "@/lib/server/light-index";

export const dynamic = "force-dynamic";

export async function GET(request: NextRequest): Promise<Response> {
  const params = request.nextUrl.searchParams;
  const index = params.get("index");
  if (index !== null) return lightFramesResponse(params.get("path"), index, request.headers.get("range"));
  return lightIndexResponse(params.get("path"));
}
