// GET /api/search?q=…[&project=&since=&until=&role=&tool=&model=&active=1&limit=]: the CLI's `search --json` for
// the sessions directory (or the bundled samples) the app serves.
import { parseSince } from "@/lib/library/usage";
import { libraryRoot } from "./library";
import { searchLibrary } from "./library-search";
import type { SearchFilters } from "./search-index";
import { errorResponse } from "./serve-session";

const NO_STORE = { "cache-control": "no-store" };
const MAX_LIMIT = 500;

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
    const { hits } = await searchLibrary(dir, files, query, filters, { limit });
    return Response.json(hits, { headers: { ...NO_STORE, "x-sessions-source": source } });
  } catch (error) {
    return errorResponse(error);
  }
}
