// GET /api/sessions/with-source?path=<a fork's path from /api/sessions>: the fork and the session it was forked
// from as one session file (every line of the source, then the fork's own entries), so the viewer compares them
// in one tree; 404 when the library holds no source for it; 400/403/404/413 as JSON, as /api/sessions/raw. Made
// from the bytes read of each file (lib/server/fork-with-source.ts).
import type { NextRequest } from "next/server";
import { familyParams } from "@/lib/library/library-params";
import { checkedParams } from "@/lib/server/checked-params";
import { forkWithSourceResponse } from "@/lib/server/fork-with-source";

export const dynamic = "force-dynamic";

export async function GET(request: NextRequest): Promise<Response> {
  const checked = checkedParams(familyParams, request.nextUrl.searchParams);
  return checked instanceof Response ? checked : forkWithSourceResponse(checked.path);
}
