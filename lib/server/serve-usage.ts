// GET /api/usage?by=day|week|model|project|machine|session&since=YYYY-MM-DD: the library's usage as the CLI's
// `usage --json` gives it, for the sessions directory (or the bundled samples) the app serves. Parameters as
// lib/library/library-params.ts checks them: a bad one is a 400 naming it.
import { usageParams } from "@/lib/library/library-params";
import { checkedParams } from "./checked-params";
import { libraryRoot } from "./library";
import { libraryUsage } from "./library-usage";
import { errorResponse } from "./serve-session";

const NO_STORE = { "cache-control": "no-store" };

export async function usageResponse(params: URLSearchParams): Promise<Response> {
  const checked = checkedParams(usageParams, params);
  if (checked instanceof Response) return checked;
  try {
    const { files, dir, source, archive } = await libraryRoot();
    const rows = await libraryUsage(dir, files, checked.by, checked.since ?? null, { archive });
    return Response.json(rows, { headers: { ...NO_STORE, "x-sessions-source": source } });
  } catch (error) {
    return errorResponse(error);
  }
}
