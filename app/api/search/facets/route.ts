// GET /api/search/facets: the models, tools and roles the library's entries hold (lib/server/serve-search.ts).
import type { NextRequest } from "next/server";
import { searchFacetsResponse } from "@/lib/server/serve-search";

export const dynamic = "force-dynamic";

export async function GET(request: NextRequest): Promise<Response> {
  return searchFacetsResponse(request.nextUrl.searchParams);
}
