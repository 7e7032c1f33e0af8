// GET /api/sessions/family?path=<path from /api/sessions>: the file's fork family (its source and where it left it,
// its forks, the entries it inherited); 400 naming a bad parameter, 403/404 as JSON, as /api/sessions/raw.
import type { NextRequest } from "next/server";
import { familyParamsResponse } from "@/lib/server/serve-family";

export const dynamic = "force-dynamic";

export async function GET(request: NextRequest): Promise<Response> {
  return familyParamsResponse(request.nextUrl.searchParams);
}
