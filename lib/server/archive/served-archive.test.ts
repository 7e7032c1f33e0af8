// The whole app over the archive answers as over the directory the archive was pushed from: a generated library
// (forks, a session still being written) pushed into a real PostgreSQL, then every route asked twice, once with
// PI_SESSIONS_DIR naming the directory and once with PI_VIEWER_DATABASE_URL naming the archive. The archive's paths
// are the directory's with the machine in front; everything else is equal: the library list and its families,
// every file's bytes (whole and by range), light indexes, searches with filters, facets, usage, forks with their
// sources.
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateLibrary } from "@/bench/generate-library";
import type { LibrarySearchHit } from "@/lib/library/search-api";
import type { SessionFamily } from "@/lib/library/session-family";
import type { SessionListing } from "@/lib/library/session-listing";
import { NO_MACHINE, USAGE_GROUPINGS } from "@/lib/library/usage";
import { Rng } from "@/lib/session/testing/rng";
import { forkWithSourceResponse } from "../fork-with-source";
import { loadLibrary } from "../library";
import { lightIndexResponse } from "../light-index";
import { familyResponse, forkPointsResponse } from "../serve-family";
import { searchFacetsResponse, searchResponse } from "../serve-search";
import { sessionFileResponse } from "../serve-session";
import { usageResponse } from "../serve-usage";
import { pushLibrary } from "./push-library";
import { closeServedArchive } from "./served-archive";
import { firstDifference } from "./testing/archived-file";
import { testArchive, type TestArchive } from "./testing/test-archive";

const MACHINE = "laptop-3";
const SAVED = { ...process.env };
let archive: TestArchive;
let root: string;
let work: string;
let largest: string;

beforeAll(async () => {
  archive = await testArchive();
  root = mkdtempSync(path.join(os.tmpdir(), "served-archive-"));
  work = path.join(root, "sessions");
  const stats = generateLibrary(work, { sessions: 30, sizeMB: 2, seed: 23, forkChance: 0.3 });
  expect(stats.forks).toBeGreaterThan(3);
  largest = stats.largest;
  // a session still being written: its last line has no newline yet
  appendFileSync(path.join(work, largest), readFileSync(path.join(work, largest), "utf8").split("\n")[1]!.slice(0, 60));
  await pushLibrary(archive.pool, work, { machine: MACHINE, machineId: await archive.machine(MACHINE) });
  process.env.PI_VIEWER_CACHE_DIR = path.join(root, "cache");
}, 120_000);

afterAll(async () => {
  await closeServedArchive();
  await archive?.close();
  process.env = SAVED;
  if (root) rmSync(root, { recursive: true, force: true });
});

/**
 * Asks `ask` of the directory, then of the archive (the env a server reads decides which it serves); `named` turns
 * a directory's path into the one the server being asked knows.
 */
async function both<T>(ask: (named: (rel: string) => string) => Promise<T>): Promise<{ directory: T; archived: T }> {
  process.env.PI_SESSIONS_DIR = work;
  delete process.env.PI_VIEWER_DATABASE_URL;
  const directory = await ask((rel) => rel);
  process.env.PI_VIEWER_DATABASE_URL = archive.url;
  try {
    return { directory, archived: await ask((rel) => `${MACHINE}/${rel}`) };
  } finally {
    delete process.env.PI_VIEWER_DATABASE_URL;
  }
}
const local = (rel: string) => {
  expect(rel.startsWith(`${MACHINE}/`), rel).toBe(true);
  return rel.slice(MACHINE.length + 1);
};

/** An archived listing as the directory's: its paths without the machine, no machine named. */
function asLocal(listing: SessionListing): SessionListing {
  const { machine, ...rest } = listing;
  expect(machine).toBe(MACHINE);
  return {
    ...rest,
    path: local(rest.path),
    ...(rest.forkOf ? { forkOf: { ...rest.forkOf, path: local(rest.forkOf.path) } } : {}),
    ...(rest.forks ? { forks: rest.forks.map(local) } : {}),
  };
}

/** `value` with every fraction cut to twelve significant digits. */
function rounded(value: unknown): unknown {
  if (typeof value === "number") return Number.isInteger(value) ? value : Number(value.toPrecision(12));
  if (Array.isArray(value)) return value.map(rounded);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rounded(v)]));
  return value;
}

async function bytesOf(response: Response): Promise<Buffer> {
  expect(
    response.status,
    await response
      .clone()
      .text()
      .then((t) => t.slice(0, 200)),
  ).toBeLessThan(300);
  return Buffer.from(await response.arrayBuffer());
}

describe("the app over the archive", () => {
  let listed: { directory: SessionListing[]; archived: SessionListing[] };

  beforeAll(async () => {
    const libraries = await both(() => loadLibrary());
    expect(libraries.directory.source).toBe("directory");
    expect(libraries.archived.source).toBe("archive");
    expect(libraries.archived.configuredDir).not.toContain("password");
    listed = { directory: libraries.directory.sessions, archived: libraries.archived.sessions };
  }, 120_000);

  it("lists the library as the directory does, each session with its machine, forks linked across it", () => {
    expect(listed.archived.length).toBe(31 - 1);
    expect(listed.archived.map(asLocal)).toEqual(listed.directory);
    expect(listed.directory.filter((s) => s.forkOf).length).toBeGreaterThan(3);
  });

  it("serves every file's bytes, whole and by range, equal to the file", async () => {
    const rng = new Rng(3);
    for (const session of listed.directory) {
      const bytes = readFileSync(path.join(work, session.path));
      const whole = await both((named) => sessionFileResponse(named(session.path)).then(bytesOf));
      expect(firstDifference(whole.archived, bytes), session.path).toBeNull();
      const start = rng.range(0, bytes.length - 1);
      const range = `bytes=${start}-${rng.range(start, bytes.length + 100)}`;
      const ranged = await both(async (named) => {
        const response = await sessionFileResponse(named(session.path), undefined, range);
        return { status: response.status, range: response.headers.get("content-range"), body: await bytesOf(response) };
      });
      expect(ranged.archived.status).toBe(206);
      expect(ranged.archived.range).toBe(ranged.directory.range);
      expect(firstDifference(ranged.archived.body, ranged.directory.body), range).toBeNull();
    }
  });

  it("sends the light index the directory's file makes, made and then kept", async () => {
    for (const rel of [largest, listed.directory.find((s) => s.forkOf)!.path]) {
      for (const round of ["made", "kept"]) {
        const { directory, archived } = await both(async (named) => {
          const response = await lightIndexResponse(named(rel));
          return { kept: response.headers.get("x-light-index") === "kept", body: await bytesOf(response) };
        });
        expect([directory.kept, archived.kept], `${rel} ${round}`).toEqual([round === "kept", round === "kept"]);
        expect(firstDifference(archived.body, directory.body), `${rel} ${round}`).toBeNull();
      }
    }
  });

  it("finds what the directory's index finds, for words of the library with filters", async () => {
    const rng = new Rng(9);
    const words = readFileSync(path.join(work, largest), "utf8")
      .split(/[^a-z]+/)
      .filter((w) => w.length >= 5);
    const project = listed.directory[0]!.cwd!;
    for (let i = 0; i < 12; i++) {
      const params = new URLSearchParams({ q: rng.pick(words), limit: "500" });
      if (i % 3 === 1) params.set("project", project);
      if (i % 4 === 2) params.set("role", "user");
      if (i % 5 === 3) params.set("active", "1");
      const { directory, archived } = await both(() => searchResponse(params));
      expect(archived.status, params.toString()).toBe(200);
      const hits = (response: Response, strip: (file: string) => string) =>
        response.json().then((list: LibrarySearchHit[]) => list.map((hit) => JSON.stringify({ ...hit, file: strip(hit.file), score: undefined })).sort());
      const capped = directory.headers.get("x-search-capped");
      expect(archived.headers.get("x-search-capped"), params.toString()).toBe(capped);
      const [mine, theirs] = [await hits(archived, local), await hits(directory, (f) => f)];
      // past the ranking cap a page holds the hits indexed last: the archive's order of pushes is not the local
      // index's order of reading, so what is the same is that a page is full (under the cap: the same hits)
      if (capped === "1") {
        params.set("limit", "50");
        const full = await both(() => searchResponse(params).then((r) => r.json() as Promise<unknown[]>));
        expect([full.archived.length, full.directory.length], params.toString()).toEqual([50, 50]);
      } else {
        expect(mine, params.toString()).toEqual(theirs);
        expect(archived.headers.get("x-search-total")).toBe(directory.headers.get("x-search-total"));
      }
    }
    // the machine filter: the archive's one machine is every hit, another none; a directory's sessions have no machine
    const word = rng.pick(words);
    const ask = (machine?: string) =>
      searchResponse(new URLSearchParams({ q: word, limit: "500", ...(machine === undefined ? {} : { machine }) })).then((r) => r.json() as Promise<unknown[]>);
    const filtered = await both(async () => ({ all: await ask(), mine: await ask(MACHINE), other: await ask("desk-9") }));
    expect(filtered.archived.all.length).toBeGreaterThan(0);
    expect(filtered.archived.mine).toEqual(filtered.archived.all);
    expect(filtered.archived.other).toEqual([]);
    expect(filtered.directory.mine).toEqual([]);
    const facets = await both(() => searchFacetsResponse().then((r) => r.json()));
    expect(facets.archived).toEqual(facets.directory);
  });

  it("sums usage as the directory's index does, by every grouping", async () => {
    for (const by of USAGE_GROUPINGS.filter((grouping) => grouping !== "machine")) {
      const { directory, archived } = await both(() => usageResponse(new URLSearchParams({ by })).then((r) => r.json() as Promise<{ key: string }[]>));
      const strip = (rows: { key: string }[]) => (by === "session" ? rows.map((row) => ({ ...row, key: local(row.key) })) : rows);
      // costs are sums of fractions, added in another order: equal to twelve digits
      expect(rounded(strip(archived)), by).toEqual(rounded(directory));
    }
  });

  it("sums usage by machine: the archive names the machine that pushed, a directory this machine", async () => {
    const { directory, archived } = await both(() => usageResponse(new URLSearchParams({ by: "machine" })).then((r) => r.json() as Promise<{ key: string }[]>));
    expect(directory.map((row) => row.key)).toEqual([NO_MACHINE]);
    expect(rounded(archived)).toEqual(rounded([{ ...directory[0]!, key: MACHINE }]));
  });

  it("finds each fork's family and where it left its source, and sends a fork with its source", async () => {
    const points = await both(() => forkPointsResponse().then((r) => r.json() as Promise<Record<string, unknown>>));
    expect(Object.fromEntries(Object.entries(points.archived).map(([file, point]) => [local(file), point]))).toEqual(points.directory);
    for (const fork of listed.directory.filter((s) => s.forkOf)) {
      const { directory, archived } = await both((named) => familyResponse(named(fork.path)).then((r) => r.json() as Promise<SessionFamily>));
      expect({
        ...archived,
        file: local(archived.file),
        root: local(archived.root),
        source: archived.source && { ...archived.source, path: local(archived.source.path) },
        forks: archived.forks.map((f) => ({ ...f, path: local(f.path) })),
      }).toEqual(directory);
      const joined = await both((named) => forkWithSourceResponse(named(fork.path)).then(bytesOf));
      expect(firstDifference(joined.archived, joined.directory), fork.path).toBeNull();
    }
  });
});
