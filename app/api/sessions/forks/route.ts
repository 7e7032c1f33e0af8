// GET /api/sessions/forks: for every fork of the library whose source it holds, the entry where it left it.
import { forkPointsResponse } from "@/lib/server/serve-family";

export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  return forkPointsResponse();
}
