// GET /api/search?q=…[&project=&since=&until=&role=&tool=&model=&active=1&limit=]: the CLI's `search --json` for
// the sessions directory (or the bundled samples) the app serves. Parameters as lib/library/library-params.ts
// checks them: a bad one is a 400 naming it.
import { facetsParams, searchParams } from "@/lib/library/library-params";
import { checkedParams } from "./checked-params";
import { libraryRoot, sessionRoot } from "./library";
import { libraryFacets, libraryIndexStatus, searchFilters, searchLibrary } from "./library-search";
import { errorResponse } from "./serve-session";

const NO_STORE = { "cache-control": "no-store" };

export async function searchResponse(params: URLSearchParams): Promise<Response> {
  const checked = checkedParams(searchParams, params);
  if (checked instanceof Response) return checked;
  const { q, limit, ...filters } = checked;
  try {
    const { files, dir, source, archive } = await libraryRoot();
    const { hits, total, capped } = await searchLibrary(dir, files, q, searchFilters(filters), { limit, archive });
    // the body is the CLI's JSON; how many hits there are in all rides beside it
    return Response.json(hits, {
      headers: { ...NO_STORE, "x-sessions-source": source, "x-search-total": String(total), "x-search-capped": capped ? "1" : "0" },
    });
  } catch (error) {
    return errorResponse(error);
  }
}

/**
 * GET /api/search/status: how far the index update under way has come (a first index of a large library takes a
 * while; the page shows it), and what the last one found it could not read.
 */
export async function searchStatusResponse(params: URLSearchParams = new URLSearchParams()): Promise<Response> {
  const checked = checkedParams(facetsParams, params);
  if (checked instanceof Response) return checked;
  try {
    const { dir, archive } = await sessionRoot();
    return Response.json(await libraryIndexStatus(dir, { archive }), { headers: NO_STORE });
  } catch (error) {
    return errorResponse(error);
  }
}

/** GET /api/search/facets: what the filters can be set to — the models, tools and roles the library's entries hold. */
export async function searchFacetsResponse(params: URLSearchParams = new URLSearchParams()): Promise<Response> {
  const checked = checkedParams(facetsParams, params);
  if (checked instanceof Response) return checked;
  try {
    const { files, dir, archive } = await libraryRoot();
    return Response.json(await libraryFacets(dir, files, { archive }), { headers: NO_STORE });
  } catch (error) {
    return errorResponse(error);
  }
}
