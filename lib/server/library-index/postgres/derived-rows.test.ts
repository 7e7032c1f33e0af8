// What a push writes for the library index, against a real PostgreSQL: each entry line's row and words, the file's
// project, header time and leaf, the on-path flags as the leaf moves, usage, unreadable lines, and a replaced
// file's rows gone with its lines.
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { entrySearchText, searchWords } from "@/lib/library/library-search";
import { SCHEMA } from "../../archive/archive-schema";
import { pushFile } from "../../archive/push-file";
import { testArchive, type TestArchive } from "../../archive/testing/test-archive";
import { resolveSessionPath } from "../../safe-path";
import { pairBloom } from "./pair-bloom";
import { ON_PATH } from "./search-query";

let archive: TestArchive;
let dir: string;
let laptop: number;
const REL = "--home-u-work--/2026-12-01T10-00-00-000Z_s1.jsonl";
const file = () => path.join(dir, REL);

const header = JSON.stringify({ type: "session", version: 3, id: "s1", timestamp: "2026-12-01T10:00:00.000Z", cwd: "/home/u/work" });
const user = (id: string, parentId: string | null, text: string) =>
  JSON.stringify({ type: "message", id, parentId, timestamp: "2026-12-01T10:00:01.000Z", message: { role: "user", content: text } });
const assistant = (id: string, parentId: string | null, text: string) =>
  JSON.stringify({
    type: "message",
    id,
    parentId,
    timestamp: "2026-12-02T09:00:00.000Z",
    message: {
      role: "assistant",
      provider: "anthropic",
      model: "claude",
      content: [
        { type: "text", text },
        { type: "toolCall", id: "t1", name: "read", arguments: { path: "a.ts" } },
      ],
      usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, cost: { total: 0.5 } },
    },
  });
const text = (...lines: string[]) => lines.map((line) => `${line}\n`).join("");

const push = async () => pushFile(archive.pool, laptop, await resolveSessionPath(dir, REL));
const entries = async () =>
  (
    await archive.pool.query(
      `select line, entry_id, parent_id, role, model, tools, ${ON_PATH} as on_active, echo, words::text as words from ${SCHEMA}.entries e order by line`,
    )
  ).rows;
const fileRow = async () => (await archive.pool.query(`select project, header_time, leaf from ${SCHEMA}.files`)).rows[0];
const active = async () => (await entries()).filter((row) => row.on_active).map((row) => row.entry_id);

beforeAll(async () => {
  archive = await testArchive();
  laptop = await archive.machine("laptop");
});
afterAll(() => archive?.close());
beforeEach(async () => {
  await archive.clear();
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = mkdtempSync(path.join(tmpdir(), "derived-rows-"));
  mkdirSync(path.dirname(file()));
});

describe("the rows a push derives", () => {
  it("keeps each entry's columns and its words, as the local index cuts them", async () => {
    writeFileSync(file(), text(header, user("a", null, "Parse the Lines, café"), assistant("b", "a", "Done: parse_line")));
    await push();
    expect(await entries()).toEqual([
      {
        line: 2,
        entry_id: "a",
        parent_id: null,
        role: "user",
        model: null,
        tools: null,
        on_active: true,
        echo: false,
        words: "':role=user' 'café' 'lines' 'parse' 'the'",
      },
      {
        line: 3,
        entry_id: "b",
        parent_id: "a",
        role: "assistant",
        model: "anthropic/claude",
        tools: ["read"],
        on_active: true,
        echo: false,
        // the role, model and tools among the words, as lexemes that start with ":"
        words: expect.stringMatching(/^':model=anthropic\/claude' ':role=assistant' ':tool=read' .*'parse_line'/),
      },
    ]);
    expect(await fileRow()).toEqual({ project: "/home/u/work", header_time: "2026-12-01T10:00:00.000Z", leaf: "b" });
    // the pairs of words side by side, for phrases: as pairBloom makes them from the same words
    const pairs = (await archive.pool.query(`select pairs from ${SCHEMA}.entries order by line`)).rows.map((row) => row.pairs);
    const lines = readFileSync(file(), "utf8").trimEnd().split("\n").slice(1);
    expect(pairs).toEqual(lines.map((line) => pairBloom(searchWords(entrySearchText(JSON.parse(line))))));
    expect(pairs[0]).toEqual(pairBloom(["parse", "the", "lines", "café"]));
    const facets = (await archive.pool.query(`select kind, value from ${SCHEMA}.facets order by kind, value`)).rows;
    expect(facets).toEqual([
      { kind: "model", value: "anthropic/claude" },
      { kind: "role", value: "assistant" },
      { kind: "role", value: "user" },
      { kind: "tool", value: "read" },
    ]);
    const sums = (await archive.pool.query(`select day, model, counted, input, output, cost, calls from ${SCHEMA}.usage_sums`)).rows;
    expect(sums).toEqual([{ day: "2026-12-02", model: "anthropic/claude", counted: true, input: 10, output: 5, cost: 0.5, calls: 1 }]);
  });

  it("names unreadable lines and an id used again, and keeps a repeated line as an echo without words", async () => {
    writeFileSync(file(), text(header, user("a", null, "one"), "{not json", user("a", null, "one"), user("a", null, "other")));
    await push();
    const unreadable = (await archive.pool.query(`select line, message, indexed from ${SCHEMA}.unreadable order by line`)).rows;
    expect(unreadable.map((row) => [row.line, row.indexed])).toEqual([
      [3, false],
      [5, true],
    ]);
    expect(unreadable[1].message).toContain("on line 4");
    expect((await entries()).map((row) => [row.line, row.echo, row.words])).toEqual([
      [2, false, "':role=user' 'one'"],
      [4, true, null],
      [5, false, "':role=user' 'other'"],
    ]);
  });

  it("takes a file without a header's project from its folder", async () => {
    writeFileSync(file(), text(user("a", null, "hello")));
    await push();
    expect((await fileRow()).project).toBe("--home-u-work--");
  });

  it("moves the path with the leaf when a grown file branches off, and keeps it when it continues", async () => {
    writeFileSync(file(), text(header, user("a", null, "one"), user("b", "a", "two"), user("c", "b", "three")));
    await push();
    expect(await active()).toEqual(["a", "b", "c"]);
    appendFileSync(file(), text(user("d", "c", "four")));
    await push();
    expect(await active()).toEqual(["a", "b", "c", "d"]);
    // a branch from "a": "b" to "d" leave the path
    appendFileSync(file(), text(user("e", "a", "five")));
    await push();
    expect(await active()).toEqual(["a", "e"]);
    // a leaf entry moves the cursor back to "c"
    appendFileSync(file(), text(JSON.stringify({ type: "leaf", id: "l1", parentId: null, targetId: "c", timestamp: "2026-12-01T10:00:02.000Z" })));
    await push();
    expect(await active()).toEqual(["a", "b", "c"]);
    expect((await fileRow()).leaf).toBe("c");
  });

  it("drops a replaced file's rows and words with its lines", async () => {
    writeFileSync(file(), text(header, user("a", null, "zebra"), assistant("b", "a", "giraffe")));
    await push();
    writeFileSync(file(), text(header, user("a", null, "okapi")));
    expect((await push()).kind).toBe("replaced");
    expect((await entries()).map((row) => row.words)).toEqual(["':role=user' 'okapi'"]);
    const { rows } = await archive.pool.query(`select count(*)::int as n from ${SCHEMA}.entries where words @@ 'zebra'::tsquery`);
    expect(rows[0].n).toBe(0);
    expect((await archive.pool.query(`select count(*)::int as n from ${SCHEMA}.usage_sums`)).rows[0].n).toBe(0);
    // no entry holds the model or the tool any more
    expect((await archive.pool.query(`select kind, value from ${SCHEMA}.facets order by value`)).rows).toEqual([{ kind: "role", value: "user" }]);
  });
});
