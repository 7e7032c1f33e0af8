// GET /api/search against the e2e sessions dir: the JSON the CLI's `search --json` gives, filters, bad requests.
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { findSessionFiles } from "../lib/server/list-sessions";
import { searchLibrary } from "../lib/server/library-search";
import { SESSIONS_DIR } from "./fixtures/session-files";

test("GET /api/search answers as the library search does, with its filters", async ({ request }) => {
  const files = await findSessionFiles(SESSIONS_DIR);
  const cacheRoot = mkdtempSync(path.join(os.tmpdir(), "pi-search-e2e-"));
  for (const [params, filters] of [
    ["q=token+bucket", {}],
    ["q=redis&role=user", { role: "user" }],
    ["q=the&active=1&limit=20", { activeOnly: true }],
  ] as const) {
    const response = await request.get(`/api/search?${params}`);
    expect(response.status()).toBe(200);
    const query = new URLSearchParams(params).get("q")!;
    const limit = Number(new URLSearchParams(params).get("limit") ?? 50);
    const expected = await searchLibrary(SESSIONS_DIR, files, query, filters, { limit, cacheRoot });
    expect(await response.json()).toEqual(JSON.parse(JSON.stringify(expected.hits)));
    expect(expected.hits.length).toBeGreaterThan(0);
  }
  expect((await request.get("/api/search?q=")).status()).toBe(400);
  expect((await request.get("/api/search?q=x&since=yesterday")).status()).toBe(400);
});
