import { describe, expect, it } from "vitest";
import { dayTime, facetsParams, familyParams, parseParams, searchParams, usageParams } from "./library-params";

const parse = (schema: Parameters<typeof parseParams>[0], query: string) => parseParams(schema, new URLSearchParams(query));

describe("the library's parameters", () => {
  it("take a search's query, filters and limit, the limit 50 when not given", () => {
    expect(parse(searchParams, "q=token+bucket&project=%2Fw&since=2026-02-01&until=2026-03-01&role=user&tool=bash&model=p%2Fm&active=1&limit=500")).toEqual({
      ok: true,
      value: {
        q: "token bucket",
        project: "/w",
        since: Date.UTC(2026, 1, 1),
        until: Date.UTC(2026, 2, 1),
        role: "user",
        tool: "bash",
        model: "p/m",
        active: "1",
        limit: 500,
      },
    });
    expect(parse(searchParams, "q=x&role=")).toEqual({ ok: true, value: { q: "x", role: undefined, limit: 50 } });
  });

  it("refuse a limit that is not a whole number from 1 to 500, naming it", () => {
    for (const bad of ["-Infinity", "Infinity", "0", "501", "1e3", "2.5", "", "-1", "NaN", " 5", "0x10", "1000"])
      expect(parse(searchParams, `q=x&limit=${encodeURIComponent(bad)}`)).toEqual({
        ok: false,
        param: "limit",
        error: "limit takes a whole number from 1 to 500",
        given: bad,
      });
    expect(parse(searchParams, "q=x&limit=1")).toMatchObject({ ok: true, value: { limit: 1 } });
  });

  it("refuse dates the calendar does not have, or written otherwise", () => {
    for (const bad of ["2026-02-30", "2026-13-01", "yesterday", "2026-2-1", "2026-02-01T00:00:00Z", ""]) {
      expect(parse(searchParams, `q=x&since=${bad}`)).toEqual({
        ok: false,
        param: "since",
        error: "since takes a date (YYYY-MM-DD) the calendar has",
        given: bad,
      });
      expect(parse(usageParams, `since=${bad}`)).toMatchObject({ ok: false, param: "since" });
    }
    expect(dayTime("2024-02-29")).toBe(Date.UTC(2024, 1, 29));
  });

  it("refuse an empty or missing query, an unknown parameter, one given twice", () => {
    expect(parse(searchParams, "limit=5")).toEqual({ ok: false, param: "q", error: "q is the query: its words and quoted phrases" });
    expect(parse(searchParams, "q=+")).toMatchObject({ ok: false, param: "q" });
    expect(parse(searchParams, `q=${"a".repeat(1001)}`)).toMatchObject({ ok: false, param: "q" });
    expect(parse(searchParams, "q=x&limt=5")).toEqual({ ok: false, param: "limt", error: "limt is not a parameter here" });
    expect(parse(searchParams, "q=x&__proto__=1")).toMatchObject({ ok: false, param: "__proto__" });
    expect(parse(searchParams, "q=x&limit=5&limit=6")).toEqual({ ok: false, param: "limit", error: "limit is given more than once" });
    expect(parse(searchParams, "q=x&active=yes")).toMatchObject({ ok: false, param: "active" });
    expect(parse(searchParams, `q=x&role=${"r".repeat(201)}`)).toMatchObject({ ok: false, param: "role" });
    expect(parse(facetsParams, "")).toEqual({ ok: true, value: {} });
    expect(parse(facetsParams, "q=x")).toMatchObject({ ok: false, param: "q" });
  });

  it("take usage's grouping (day when not given) and family's path", () => {
    expect(parse(usageParams, "")).toEqual({ ok: true, value: { by: "day" } });
    expect(parse(usageParams, "by=session&since=2026-02-01")).toEqual({ ok: true, value: { by: "session", since: Date.UTC(2026, 1, 1) } });
    expect(parse(usageParams, "by=month")).toEqual({
      ok: false,
      param: "by",
      error: "by must be one of day, week, model, project, machine, session",
      given: "month",
    });
    expect(parse(familyParams, "path=--w--%2Fa.jsonl")).toEqual({ ok: true, value: { path: "--w--/a.jsonl" } });
    expect(parse(familyParams, "")).toMatchObject({ ok: false, param: "path" });
  });
});
