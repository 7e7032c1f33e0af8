// The parameters of the library's questions (search, its facets, usage, a file's fork family), as GET /api/search,
// /api/search/facets, /api/usage and /api/sessions/family take them and the CLI's `search`, `usage` and `family`
// take them as options: one schema each, so that a limit, a date or a grouping means the same and is refused the
// same way on both. Every value is checked before any work starts: an unbounded limit (-Infinity was taken for "no
// limit") ranked every hit of the library. Pure.
import { z } from "zod";
import { USAGE_GROUPINGS, type UsageGrouping } from "./usage";

/** The most hits a search shows: the index ranks this many (its tuning's rankedHits), past it a page is capped. */
export const MAX_SEARCH_LIMIT = 500;
export const DEFAULT_SEARCH_LIMIT = 50;
/** The longest query: more words than anyone types, few enough that a query's patterns stay cheap. */
export const MAX_QUERY_CHARS = 1000;

/** YYYY-MM-DD as its UTC midnight (ms); NaN when the calendar has no such day (Date.parse rolls 2026-02-30 over). */
export function dayTime(text: string): number {
  const time = /^\d{4}-\d{2}-\d{2}$/.test(text) ? Date.parse(`${text}T00:00:00.000Z`) : NaN;
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === text ? time : NaN;
}

/** A day, YYYY-MM-DD, that the calendar has, as its UTC midnight (ms). */
const day = z
  .string()
  .refine((text) => !Number.isNaN(dayTime(text)), { error: "takes a date (YYYY-MM-DD) the calendar has" })
  .transform(dayTime);

/** A filter's value: a role, tool, model or project as the index holds it. Empty is no filter (a cleared field). */
const filter = (most: number) =>
  z
    .string()
    .max(most, { error: `is at most ${most.toLocaleString("en-US")} characters` })
    .transform((text) => text || undefined);

const limit = z
  .string()
  .regex(/^\d{1,3}$/, { error: `takes a whole number from 1 to ${MAX_SEARCH_LIMIT}` })
  .transform(Number)
  .refine((n) => n >= 1 && n <= MAX_SEARCH_LIMIT, { error: `takes a whole number from 1 to ${MAX_SEARCH_LIMIT}` });

export const searchParams = z.strictObject({
  q: z
    .string({ error: "is the query: its words and quoted phrases" })
    .max(MAX_QUERY_CHARS, { error: `is at most ${MAX_QUERY_CHARS.toLocaleString("en-US")} characters` })
    .refine((text) => text.trim() !== "", { error: "is the query: its words and quoted phrases" }),
  project: filter(4096).optional(),
  since: day.optional(),
  until: day.optional(),
  role: filter(200).optional(),
  tool: filter(200).optional(),
  model: filter(400).optional(),
  active: z.enum(["0", "1"], { error: "is 1 (only entries on their session's active path) or 0" }).optional(),
  machine: filter(100).optional(),
  limit: limit.default(DEFAULT_SEARCH_LIMIT),
});
export type SearchParams = z.output<typeof searchParams>;

export const facetsParams = z.strictObject({});

export const usageParams = z.strictObject({
  by: z.enum(USAGE_GROUPINGS as [UsageGrouping, ...UsageGrouping[]], { error: `must be one of ${USAGE_GROUPINGS.join(", ")}` }).default("day"),
  since: day.optional(),
});
export type UsageParams = z.output<typeof usageParams>;

export const familyParams = z.strictObject({
  path: z
    .string({ error: "is the session's path, as /api/sessions lists it" })
    .min(1, { error: "is the session's path, as /api/sessions lists it" })
    .max(4096, { error: "is at most 4,096 characters" }),
});

export type ParamsResult<T> = { ok: true; value: T } | { ok: false; param: string; error: string; /** the value refused */ given?: string };

/**
 * `params` checked against `schema`: the values, or the first parameter refused and why ("limit takes a whole
 * number from 1 to 500"). A parameter given twice is refused: which one counts would be a guess.
 */
export function parseParams<S extends z.ZodType>(schema: S, params: Iterable<[string, string]>): ParamsResult<z.output<S>> {
  const given = new Map<string, string>();
  for (const [key, value] of params) {
    if (given.has(key)) return { ok: false, param: key, error: `${key} is given more than once` };
    given.set(key, value);
  }
  // fromEntries makes own properties: a key "__proto__" is a key like any other, refused as unknown
  const parsed = schema.safeParse(Object.fromEntries(given));
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0]!;
  if (issue.code === "unrecognized_keys") {
    const key = issue.keys[0]!;
    return { ok: false, param: key, error: `${key} is not a parameter here` };
  }
  const param = String(issue.path[0] ?? "");
  return { ok: false, param, error: `${param} ${issue.message}`, ...(given.has(param) ? { given: given.get(param) } : {}) };
}
