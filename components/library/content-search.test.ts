import { describe, expect, it } from "vitest";
import { matchesTerms, librarySearchTerms, searchWords } from "@/lib/library/library-search";
import {
  contentSearchFromParams,
  contentSearchParams,
  EMPTY_SEARCH,
  groupHits,
  hitHref,
  markSnippet,
  searchApiUrl,
  unreadableSummary,
  type ContentHit,
} from "./content-search";

const hit = (file: string, entryId: string): ContentHit => ({ file, entryId, onActivePath: true, snippet: "", score: 0, alsoIn: 0, role: null, time: null });

describe("content search state", () => {
  it("is in the URL only when the page searches contents, and comes back from it unchanged", () => {
    expect(contentSearchFromParams(new URLSearchParams(""))).toBeNull();
    expect(contentSearchFromParams(new URLSearchParams("q="))).toEqual(EMPTY_SEARCH);
    const search = {
      q: 'parse "line ending"',
      project: "/srv/app",
      since: "2026-01-02",
      to: "2026-02-03",
      role: "user",
      tool: "bash",
      model: "a/b",
      active: true,
      machine: "ci-7",
    };
    const params = contentSearchParams(search);
    expect(params.toString()).toBe(
      "q=parse+%22line+ending%22&project=%2Fsrv%2Fapp&since=2026-01-02&to=2026-02-03&role=user&tool=bash&model=a%2Fb&machine=ci-7&active=1",
    );
    expect(contentSearchFromParams(params)).toEqual(search);
    expect(contentSearchParams({ ...EMPTY_SEARCH, q: "x" }).toString()).toBe("q=x");
  });

  it("asks the API for the last day inclusive: until is the day after", () => {
    const url = new URL(searchApiUrl({ ...EMPTY_SEARCH, q: "x", since: "2026-02-27", to: "2026-02-28" }, 50), "http://h");
    expect(url.pathname).toBe("/api/search");
    expect(Object.fromEntries(url.searchParams)).toEqual({ q: "x", since: "2026-02-27", until: "2026-03-01", limit: "50" });
    const open = new URL(searchApiUrl({ ...EMPTY_SEARCH, q: "x" }, 10), "http://h");
    expect(open.searchParams.has("until")).toBe(false);
  });

  it("links a hit to its entry with the query, and a line without an id to its session", () => {
    expect(hitHref(hit("--a--/x y.jsonl", "ab12cd34"), "redis pool")).toBe("/view?file=--a--%2Fx+y.jsonl&entry=ab12cd34&q=redis+pool");
    expect(hitHref(hit("old.jsonl", "line@120"), "x")).toBe("/view?file=old.jsonl&q=x");
  });

  it("groups hits by session in the order of each session's best hit", () => {
    const hits = [hit("b", "1"), hit("a", "2"), hit("b", "3"), hit("c", "4"), hit("a", "5")];
    expect(groupHits(hits).map((g) => [g.file, g.hits.map((h) => h.entryId)])).toEqual([
      ["b", ["1", "3"]],
      ["a", ["2", "5"]],
      ["c", ["4"]],
    ]);
  });
});

describe("markSnippet", () => {
  const marked = (snippet: string, q: string) =>
    markSnippet(snippet, q)
      .filter((p) => p.mark)
      .map((p) => p.text);

  it("marks the query's words, the last of each term as a prefix, case-folded, and keeps every character", () => {
    const snippet = "Parsing the PARSER's sessions: session_id and parse-line…";
    const parts = markSnippet(snippet, 'pars "session_id and"');
    expect(parts.map((p) => p.text).join("")).toBe(snippet);
    expect(marked(snippet, 'pars "session_id and"')).toEqual(["Parsing", "PARSER", "session_id", "and", "parse"]);
    expect(marked("no such words", "zebra")).toEqual([]);
    // a last word under 3 characters matches only itself
    expect(marked("go gopher go", "go")).toEqual(["go", "go"]);
  });

  it("marks a word of a text the query matches, as the index matches it", () => {
    const texts = ["token bucket refill", "the tokenizer's buckets", "buck token"];
    for (const text of texts)
      for (const q of ["token buck", "buck", '"token bucket"', "refill"]) {
        const words = searchWords(text);
        if (!matchesTerms(words, librarySearchTerms(q))) continue;
        // a text that matches has a mark for every term
        const marks = marked(text, q).map((m) => searchWords(m)[0]!);
        for (const term of librarySearchTerms(q)) expect(marks.some((m) => m.startsWith(term.at(-1)!))).toBe(true);
      }
  });
});

describe("unreadableSummary", () => {
  const line = (n: number, indexed?: true) => ({ file: "--p--/a.jsonl", line: n, message: "why", ...(indexed ? { indexed } : {}) });
  it("tells lines not searched from lines searched in doubt", () => {
    expect(unreadableSummary([line(1)])).toBe("1 line could not be read and is not searched");
    expect(unreadableSummary([line(1), line(2)])).toBe("2 lines could not be read and are not searched");
    expect(unreadableSummary([line(1), line(2, true)])).toBe("1 line could not be read and is not searched · 1 line is searched, but in doubt");
    expect(unreadableSummary([line(2, true), line(3, true)])).toBe("2 lines are searched, but in doubt");
  });
});
