import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Session, SessionParser } from "..";
import { foldCase, prepareSearch, queryTerms, searchSession } from "./search";
import { FIXTURES_DIR } from "../testing/golden";

const FIXTURES = ["ca-labels", "ca-branching-a", "ca-roles-a", "ca-compaction-multi-a", "hx-retained-a", "ca-medium-a", "ca-large"];

const raw = (name: string) => readFileSync(path.join(FIXTURES_DIR, `${name}.jsonl`), "utf8");

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The test's own reading of the raw lines: every string a person would search
 * for, per entry id, found by walking the JSON (not by the library's per-type
 * dispatch). Labels go to the entry they name, the last label line winning.
 */
function searchableStrings(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const labelOf = new Map<string, string>();
  const objects = text
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Obj);
  for (const o of objects) {
    if (o.type === "session" || typeof o.id !== "string") continue;
    const strings: string[] = [];
    if (o.type === "label" && typeof o.targetId === "string") {
      if (typeof o.label === "string" && o.label) labelOf.set(o.targetId, o.label);
      else labelOf.delete(o.targetId);
    }
    for (const key of ["summary", "label", "name"]) if (typeof o[key] === "string") strings.push(o[key] as string);
    if (typeof o.content === "string") strings.push(o.content);
    const m = o.message;
    const content = isObj(m) ? m.content : o.content;
    if (isObj(m)) {
      if (typeof m.content === "string") strings.push(m.content);
      for (const key of ["summary", "command", "output"]) if (typeof m[key] === "string") strings.push(m[key] as string);
    }
    if (Array.isArray(content)) {
      for (const block of content) {
        if (!isObj(block)) continue;
        if (typeof block.text === "string") strings.push(block.text);
        if (typeof block.thinking === "string") strings.push(block.thinking);
        if (block.type === "toolCall") strings.push(String(block.name), JSON.stringify(block.arguments));
      }
    }
    out.set(o.id, strings);
  }
  for (const [id, label] of labelOf) out.get(id)?.push(label);
  return out;
}

/** Entries where each word of the query, or each "quoted phrase" (a quote that starts a term), is in one of their strings. */
function expectedEntries(strings: Map<string, string[]>, query: string): Set<string> {
  const terms = [...query.matchAll(/"([^"]*)"?|(\S+)/g)].map((m) => (m[1] ?? m[2]!).toLowerCase()).filter((t) => t.trim());
  const ids = new Set<string>();
  for (const [id, list] of strings) if (terms.every((t) => list.some((s) => s.toLowerCase().includes(t)))) ids.add(id);
  return ids;
}

/** Queries taken from the fixture itself: words of user prompts, tool names, labels, a result line, in odd case. */
function queriesFrom(strings: Map<string, string[]>): string[] {
  const all = [...strings.values()].flat().filter((s) => s.length > 12);
  const picks = [all[0], all[Math.floor(all.length / 3)], all[Math.floor((2 * all.length) / 3)], all[all.length - 1]].filter((s): s is string => !!s);
  const out = new Set<string>();
  for (const s of picks) {
    const words = s.split(/\s+/).filter((w) => w.length > 4);
    if (words[1]) out.add(words[1].toUpperCase());
    if (words.length > 3) out.add(`${words[2]} ${words[3]}`).add(`"${words[2]} ${words[3]}"`);
    // words from two different entries: each entry with both, wherever they are in it
    if (words[1]) out.add(`${words[1]} ${all[0]!.split(/\s+/).find((w) => w.length > 4) ?? ""}`);
  }
  out.add("read");
  out.add("the");
  return [...out];
}

describe("searchSession", () => {
  for (const name of FIXTURES) {
    it(`finds exactly the entries whose text holds the query in ${name}`, () => {
      const text = raw(name);
      const session = Session.fromText(text);
      const strings = searchableStrings(text);
      for (const query of queriesFrom(strings)) {
        const result = searchSession(session, query, 1_000_000);
        expect(new Set(result.entryIds), `query ${JSON.stringify(query)}`).toEqual(expectedEntries(strings, query));
        expect(result.total).toBe(result.hits.length);
        const shown = result.terms.map((t) => t.replace(/\s+/g, " "));
        for (const hit of result.hits) {
          expect(shown).toContain(foldCase(hit.snippet.slice(hit.start, hit.end)));
          expect(hit.count).toBeGreaterThan(0);
        }
      }
    });
  }

  it("caps the listed hits but counts and marks them all", () => {
    const session = Session.fromText(raw("ca-large"));
    const full = searchSession(session, "the", 1_000_000);
    expect(full.total).toBeGreaterThan(50);
    const capped = searchSession(session, "the", 50);
    expect(capped.hits).toHaveLength(50);
    expect(capped.total).toBe(full.total);
    expect(capped.entryIds).toEqual(full.entryIds);
    expect(capped.hits).toEqual(full.hits.slice(0, 50));
  });

  it("finds nothing for an empty or blank query", () => {
    const session = Session.fromText(raw("ca-tiny"));
    expect(searchSession(session, "   ").total).toBe(0);
    expect(searchSession(session, "").entryIds.size).toBe(0);
  });

  it("sees entries appended after an earlier search (new revision)", () => {
    const header = JSON.stringify({ type: "session", version: 3, id: "s", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" });
    const user = (id: string, parentId: string | null, text: string) =>
      JSON.stringify({ type: "message", id, parentId, timestamp: "2026-01-01T00:00:01.000Z", message: { role: "user", content: text, timestamp: 1 } });
    const parser = new SessionParser();
    parser.push(`${header}\n${user("a", null, "Zebra crossing")}\n`);
    const session = new Session(parser);
    expect([...searchSession(session, "zebra").entryIds]).toEqual(["a"]);
    parser.push(`${user("b", "a", "another ZEBRA")}\n`);
    expect([...searchSession(session, "zebra").entryIds]).toEqual(["a", "b"]);
  });

  it("keeps match offsets right when lowercasing changes a character's length", () => {
    const header = JSON.stringify({ type: "session", version: 3, id: "s", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" });
    const entry = JSON.stringify({
      type: "message",
      id: "a",
      parentId: null,
      timestamp: "2026-01-01T00:00:01.000Z",
      message: { role: "user", content: "İstanbul needle here", timestamp: 1 },
    });
    const hit = searchSession(Session.fromText(`${header}\n${entry}\n`), "NEEDLE").hits[0]!;
    expect(hit.snippet.slice(hit.start, hit.end)).toBe("needle");
  });

  it("needs every word somewhere in the entry, and a quoted phrase as written", () => {
    const header = JSON.stringify({ type: "session", version: 3, id: "s", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" });
    const user = (id: string, parentId: string | null, text: string) =>
      JSON.stringify({ type: "message", id, parentId, timestamp: "2026-01-01T00:00:01.000Z", message: { role: "user", content: text, timestamp: 1 } });
    const call = (id: string, parentId: string, text: string, path: string) =>
      JSON.stringify({
        type: "message",
        id,
        parentId,
        timestamp: "2026-01-01T00:00:02.000Z",
        message: {
          role: "assistant",
          content: [
            { type: "text", text },
            { type: "toolCall", id: "c", name: "read", arguments: { path } },
          ],
          timestamp: 2,
        },
      });
    const session = Session.fromText(
      [header, user("a", null, "Fix the Tree view"), call("b", "a", "Reading the tree", "src/Tree.tsx"), user("c", "b", "tree alone")].join("\n") + "\n",
    );
    const ids = (query: string) => [...searchSession(session, query).entryIds];
    expect(ids("tree")).toEqual(["a", "b", "c"]);
    // both words, in different fields of one entry: its text and its tool call
    expect(ids("reading TREE.TSX")).toEqual(["b"]);
    expect(ids("tree fix")).toEqual(["a"]);
    expect(ids("tree nowhere")).toEqual([]);
    expect(ids('"the tree"')).toEqual(["a", "b"]);
    expect(ids('"tree view"')).toEqual(["a"]);
    expect(ids('"view tree"')).toEqual([]);
    expect(ids('"fix the" view')).toEqual(["a"]);
    // one hit per field that holds a term, its snippet marking that field's first match
    const hits = searchSession(session, "reading tsx").hits;
    expect(hits.map((h) => [h.entryId, h.field, h.snippet.slice(h.start, h.end)])).toEqual([
      ["b", "text", "Reading"],
      ["b", "toolCall", "tsx"],
    ]);
  });

  it("splits a query into words and quoted phrases", () => {
    expect(queryTerms("  Foo   bar ")).toEqual(["foo", "bar"]);
    expect(queryTerms('say "Hello  World" twice')).toEqual(["say", "hello  world", "twice"]);
    expect(queryTerms('"open ended')).toEqual(["open ended"]);
    expect(queryTerms('a a A ""')).toEqual(["a"]);
    expect(queryTerms('key":"value x"y')).toEqual(['key":"value', 'x"y']);
  });

  it("builds its index in steps ahead of the first query, with the same answers as at once", () => {
    const text = raw("ca-large");
    const queries = ["the", "read file", '"tool result"', "zzzq"];
    const atOnce = Session.fromText(text);
    const expected = queries.map((q) => searchSession(atOnce, q, 1_000_000));

    const stepped = Session.fromText(text);
    let steps = 1;
    while (!prepareSearch(stepped, 0)) steps++;
    expect(steps).toBeGreaterThan(10); // a zero budget stops after each 64 entries
    expect(queries.map((q) => searchSession(stepped, q, 1_000_000))).toEqual(expected);

    // a query before the steps are done completes the index first
    const early = Session.fromText(text);
    expect(prepareSearch(early, 0)).toBe(false);
    expect(queries.map((q) => searchSession(early, q, 1_000_000))).toEqual(expected);
    expect(prepareSearch(early, 0)).toBe(true);
  });

  it("starts its steps over when the session grows under them", () => {
    const header = JSON.stringify({ type: "session", version: 3, id: "s", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" });
    const user = (id: string, parentId: string | null, text: string) =>
      JSON.stringify({ type: "message", id, parentId, timestamp: "2026-01-01T00:00:01.000Z", message: { role: "user", content: text, timestamp: 1 } });
    const parser = new SessionParser();
    const lines = [header, user("e0", null, "zebra 0")];
    for (let i = 1; i < 200; i++) lines.push(user(`e${i}`, `e${i - 1}`, `zebra ${i}`));
    parser.push(lines.join("\n") + "\n");
    const session = new Session(parser);
    expect(prepareSearch(session, 0)).toBe(false);
    parser.push(`${user("late", "e199", "a late zebra")}\n`);
    while (!prepareSearch(session, 0));
    const found = searchSession(session, "zebra", 1_000_000);
    expect(found.entryIds.size).toBe(201);
    expect(found.hits.filter((h) => h.entryId === "e5")).toHaveLength(1);
  });
});
