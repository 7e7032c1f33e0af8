// A route's query parameters checked against their schema (lib/library/library-params.ts) before any work: the
// values, or the 400 naming the parameter refused and why, as JSON.
import type { z } from "zod";
import { parseParams } from "@/lib/library/library-params";

const NO_STORE = { "cache-control": "no-store" };

export function checkedParams<S extends z.ZodType>(schema: S, params: URLSearchParams): z.output<S> | Response {
  const parsed = parseParams(schema, params);
  if (parsed.ok) return parsed.value;
  return Response.json({ error: parsed.error, code: "invalid", param: parsed.param }, { status: 400, headers: NO_STORE });
}
