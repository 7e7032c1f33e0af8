import { describe, expect, it } from "vitest";
import { READING_DEFAULTS, readCompareParam, readReadingParams, readViewParams, sameSession, viewSearch, withReadingParams } from "./view-params";

describe("readViewParams", () => {
  it("reads file, entry and tab from the query string or from Next's searchParams object", () => {
    const expected = { file: "--a--/x.jsonl", src: null, upload: null, entry: "abc", tab: "context" };
    expect(readViewParams(new URLSearchParams("file=--a--%2Fx.jsonl&entry=abc&tab=context"))).toEqual(expected);
    expect(readViewParams({ file: "--a--/x.jsonl", entry: ["abc", "def"], tab: "context" })).toEqual(expected);
  });

  it("drops unknown tabs and empty values", () => {
    expect(readViewParams(new URLSearchParams("src=&tab=raw&entry="))).toEqual({ file: null, src: null, upload: null, entry: null, tab: null });
  });
});

describe("viewSearch", () => {
  it("round-trips through readViewParams", () => {
    const search = viewSearch({ kind: "server", path: "--a b--/x&y.jsonl" }, "e1", "path");
    expect(readViewParams(new URLSearchParams(search))).toMatchObject({ file: "--a b--/x&y.jsonl", entry: "e1", tab: "path" });
  });

  it("names uploads and URLs without their content, and leaves out the default tab", () => {
    expect(viewSearch({ kind: "upload", name: "s.jsonl", size: 10 }, null, "entry")).toBe("?upload=s.jsonl");
    expect(viewSearch({ kind: "url", url: "https://x.test/a.jsonl" }, "e", null)).toBe("?src=https%3A%2F%2Fx.test%2Fa.jsonl&entry=e");
    expect(viewSearch({ kind: "sample", path: "--s--/a.jsonl" }, null, null)).toBe("?file=--s--%2Fa.jsonl");
  });
});

describe("sameSession", () => {
  it("ignores entry and tab", () => {
    expect(sameSession("?file=a.jsonl&entry=1", "?file=a.jsonl&tab=path")).toBe(true);
    expect(sameSession("?file=a.jsonl", "?file=b.jsonl")).toBe(false);
    expect(sameSession("?upload=a.jsonl", "?file=a.jsonl")).toBe(false);
  });
});

describe("compare param", () => {
  it("round-trips with the entry it is compared with, and is dropped without one", () => {
    const search = viewSearch({ kind: "server", path: "a.jsonl" }, "e1", null, "e2");
    expect(search).toBe("?file=a.jsonl&entry=e1&compare=e2");
    expect(readCompareParam(new URLSearchParams(search))).toBe("e2");
    expect(viewSearch({ kind: "server", path: "a.jsonl" }, null, null, "e2")).toBe("?file=a.jsonl");
    expect(readCompareParam(new URLSearchParams("compare="))).toBeNull();
  });
});

describe("reading toggles in the URL", () => {
  it("reads thinking, outputs and hidden as 0/1 flags, anything else as the default, and writes only what differs", () => {
    expect(readReadingParams(new URLSearchParams(""))).toEqual(READING_DEFAULTS);
    expect(readReadingParams(new URLSearchParams("thinking=0&outputs=1&hidden=1"))).toEqual({ thinking: false, outputs: true, hidden: true });
    expect(readReadingParams(new URLSearchParams("thinking=no&outputs=true&hidden="))).toEqual(READING_DEFAULTS);
    expect(withReadingParams("?file=a.jsonl", READING_DEFAULTS)).toBe("?file=a.jsonl");
    const all = { thinking: false, outputs: true, hidden: true };
    const search = withReadingParams("?file=a.jsonl&entry=x", all);
    expect(search).toBe("?file=a.jsonl&entry=x&thinking=0&outputs=1&hidden=1");
    expect(readReadingParams(new URLSearchParams(search))).toEqual(all);
  });
});
