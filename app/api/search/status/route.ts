// GET /api/search/status: the index update under way, and the lines the last one could not read (lib/server/serve-search.ts).
import type { NextRequest } from "next/server";
import { searchStatusResponse } from "@/lib/server/serve-search";

export const dynamic = "force-dynamic";

export async function GET(request: NextRequest): Promise<Response> {
  return searchStatusResponse(request.nextUrl.searchParams);
}
