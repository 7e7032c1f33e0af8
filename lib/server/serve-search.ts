// GET /api/search?q=…[&project=&since=&until=&role=&tool=&model=&active=1&limit=]: the CLI's `search --json` for
// the sessions directory (or the bundled samples) the app serves.
import type { SearchStatus } from "@/lib/library/search-api";
import { parseSince } from "@/lib/library/usage";
import { libraryRoot } from "./library";
import { indexProgress, libraryFacets, searchLibrary } from "./library-search";
import type { IndexReport, SearchFilters } from "./search-index";
import { errorResponse } from "./serve-session";

const NO_STORE = { "cache-control": "no-store" };
const MAX_LIMIT = 500;
// the last update's report per sessions directory, for a page that shows what could not be read
const reports = new Map<string, IndexReport>();

export async function searchResponse(params: URLSearchParams): Promise<Response> {
  const query = params.get("q") ?? "";
  const invalid = (error: string) => Response.json({ error, code: "invalid" }, { status: 400, headers: NO_STORE });
  if (!query.trim()) return invalid("q is the query: its words and quoted phrases");
  const filters: SearchFilters = {};
  for (const [key, field] of [
    ["since", "from"],
    ["until", "to"],
  ] as const) {
    const value = params.get(key);
    if (value === null) continue;
    const time = parseSince(value);
    if (time === null) return invalid(`${key} must be a date (YYYY-MM-DD)`);
    filters[field] = time;
  }
  for (const key of ["project", "role", "tool", "model"] as const) {
    const value = params.get(key);
    if (value) filters[key] = value;
  }
  if (params.get("active") === "1") filters.activeOnly = true;
  const limit = Math.min(MAX_LIMIT, Number(params.get("limit") ?? 50) || 50);
  try {
    const { files, dir, source } = await libraryRoot();
    const { hits, total, capped, report } = await searchLibrary(dir, files, query, filters, { limit });
    reports.set(dir, report);
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
export async function searchStatusResponse(): Promise<Response> {
  try {
    const { dir } = await libraryRoot();
    const report = reports.get(dir);
    const status: SearchStatus = { progress: indexProgress(dir), unreadable: report?.unreadable ?? null };
    return Response.json(status, { headers: NO_STORE });
  } catch (error) {
    return errorResponse(error);
  }
}

/** GET /api/search/facets: what the filters can be set to — the models, tools and roles the library's entries hold. */
export async function searchFacetsResponse(): Promise<Response> {
  try {
    const { files, dir } = await libraryRoot();
    return Response.json(await libraryFacets(dir, files), { headers: NO_STORE });
  } catch (error) {
    return errorResponse(error);
  }
}
