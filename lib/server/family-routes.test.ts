// The family and with-source routes check their one parameter as the other library routes do: a 400 naming it.
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { GET as family } from "@/app/api/sessions/family/route";
import { GET as withSource } from "@/app/api/sessions/with-source/route";

const ROUTES = [
  ["family", family, "/api/sessions/family"],
  ["with-source", withSource, "/api/sessions/with-source"],
] as const;

describe.each(ROUTES)("GET %s", (_, GET, route) => {
  it.each([
    ["", "path"],
    ["path=", "path"],
    ["path=a.jsonl&path=b.jsonl", "path"],
    ["path=a.jsonl&dir=/etc", "dir"],
    [`path=${"a".repeat(4097)}`, "path"],
  ])("refuses ?%s naming %s", async (query, param) => {
    const response = await GET(new NextRequest(`http://127.0.0.1${route}?${query}`));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "invalid", param });
  });
});
