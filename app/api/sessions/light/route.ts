// GET /api/sessions/light?path=<path from /api/sessions>: the file's light index (lib/server/light-index.ts), kept
// after the first time; 409 for a file read whole (older formats, v4 logs); 400/403/404 as JSON, as /api/sessions/raw.
import type { NextRequest } from "next/server";
import { lightIndexResponse } from "@/lib/server/light-index";

export const dynamic = "force-dynamic";

export async function GET(request: NextRequest): Promise<Response> {
  return lightIndexResponse(request.nextUrl.searchParams.get("path"));
}
