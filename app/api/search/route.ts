// GET /api/search?q=…: entries of every session holding the query's words and "phrases", the same JSON as
// `npm run cli -- search QUERY --json` (lib/server/serve-search.ts).
import type { NextRequest } from "next/server";
import { searchResponse } from "@/lib/server/serve-search";

export const dynamic = "force-dynamic";

export async function GET(request: NextRequest): Promise<Response> {
  return searchResponse(request.nextUrl.searchParams);
}
