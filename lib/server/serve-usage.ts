// GET /api/usage?by=day|week|model|project|session&since=YYYY-MM-DD: the library's usage as the CLI's
// `usage --json` gives it, for the sessions directory (or the bundled samples) the app serves.
import { USAGE_GROUPINGS, type UsageGrouping } from "@/lib/library/usage";
import { libraryRoot } from "./library";
import { libraryUsage, parseUsageSince } from "./library-usage";
import { errorResponse } from "./serve-session";

const NO_STORE = { "cache-control": "no-store" };

export async function usageResponse(byParam: string | null, sinceParam: string | null): Promise<Response> {
  const by = (byParam ?? "day") as UsageGrouping;
  if (!USAGE_GROUPINGS.includes(by))
    return Response.json({ error: `by must be one of ${USAGE_GROUPINGS.join(", ")}`, code: "invalid" }, { status: 400, headers: NO_STORE });
  const since = sinceParam ? parseUsageSince(sinceParam) : null;
  if (sinceParam && since === null) return Response.json({ error: "since must be a date (YYYY-MM-DD)", code: "invalid" }, { status: 400, headers: NO_STORE });
  try {
    const { files, dir, source } = await libraryRoot();
    const rows = await libraryUsage(dir, files, by, since);
    return Response.json(rows, { headers: { ...NO_STORE, "x-sessions-source": source } });
  } catch (error) {
    return errorResponse(error);
  }
}
