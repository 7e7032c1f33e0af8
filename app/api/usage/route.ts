// GET /api/usage?by=day|week|model|project|machine|session&since=YYYY-MM-DD: tokens and cost across the library, the same
// JSON as `npm run cli -- usage --json` (lib/server/serve-usage.ts).
import type { NextRequest } from "next/server";
import { usageResponse } from "@/lib/server/serve-usage";

export const dynamic = "force-dynamic";

export async function GET(request: NextRequest): Promise<Response> {
  return usageResponse(request.nextUrl.searchParams);
}
