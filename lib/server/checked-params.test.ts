import { describe, expect, it } from "vitest";
import { familyParamsResponse } from "./serve-family";
import { searchFacetsResponse, searchResponse, searchStatusResponse } from "./serve-search";
import { usageResponse } from "./serve-usage";

/** The 400 a route gives, with the parameter it names. */
async function refusal(response: Promise<Response>): Promise<{ status: number; param: unknown; error: unknown }> {
  const answer = await response;
  const body = (await answer.json()) as { param: unknown; error: unknown; code: unknown };
  expect(body.code).toBe("invalid");
  return { status: answer.status, param: body.param, error: body.error };
}

const ask = (route: (params: URLSearchParams) => Promise<Response>, query: string) => refusal(route(new URLSearchParams(query)));

describe("the library's routes refuse a bad parameter, naming it, before any work", () => {
  it("GET /api/search: the limit, the dates, the query, active, an unknown or repeated parameter", async () => {
    expect(await ask(searchResponse, "q=the&limit=-Infinity")).toEqual({ status: 400, param: "limit", error: "limit takes a whole number from 1 to 500" });
    for (const [query, param] of [
      ["q=the&limit=Infinity", "limit"],
      ["q=the&limit=0", "limit"],
      ["q=the&limit=501", "limit"],
      ["q=the&limit=2.5", "limit"],
      ["q=the&since=2026-02-30", "since"],
      ["q=the&until=tomorrow", "until"],
      ["q=", "q"],
      ["limit=5", "q"],
      ["q=the&active=true", "active"],
      ["q=the&role=" + "x".repeat(201), "role"],
      ["q=the&sort=new", "sort"],
      ["q=the&q=a", "q"],
    ])
      expect(await ask(searchResponse, query!)).toMatchObject({ status: 400, param });
  });

  it("GET /api/search/facets and /status: no parameter", async () => {
    expect(await ask(searchFacetsResponse, "limit=5")).toMatchObject({ status: 400, param: "limit" });
    expect(await ask(searchStatusResponse, "x=1")).toMatchObject({ status: 400, param: "x" });
  });

  it("GET /api/usage: the grouping and the day", async () => {
    expect(await ask(usageResponse, "by=month")).toEqual({ status: 400, param: "by", error: "by must be one of day, week, model, project, machine, session" });
    expect(await ask(usageResponse, "since=2026-02-01T12:00:00Z")).toMatchObject({ status: 400, param: "since" });
    expect(await ask(usageResponse, "since=2025-02-29")).toMatchObject({ status: 400, param: "since" });
    expect(await ask(usageResponse, "by=day&by=week")).toMatchObject({ status: 400, param: "by" });
  });

  it("GET /api/sessions/family: the path", async () => {
    expect(await ask(familyParamsResponse, "")).toMatchObject({ status: 400, param: "path" });
    expect(await ask(familyParamsResponse, "path=a.jsonl&depth=2")).toMatchObject({ status: 400, param: "depth" });
  });
});
