// GET /api/search/facets: the models, tools and roles the library's entries hold (lib/server/serve-search.ts).
import { searchFacetsResponse } from "@/lib/server/serve-search";

export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  return searchFacetsResponse();
}
