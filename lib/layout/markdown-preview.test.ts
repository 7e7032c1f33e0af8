import { describe, expect, it } from "vitest";
import { describeEntry } from "./describe";
import { markdownPreview } from "./markdown-preview";

describe("markdownPreview", () => {
  it("takes heading, quote, bullet and task marks off the start of each line", () => {
    expect(markdownPreview("## Goal\nFix the build\n> quoted\n- [x] done\n* item\n12. step\n###### deep")).toBe(
      "Goal\nFix the build\nquoted\ndone\nitem\nstep\ndeep",
    );
  });

  it("drops bold, strike and code marks and keeps link text without the target", () => {
    expect(markdownPreview("**Bold** ~~old~~ `code` ```js [the docs](https://example.com) ![logo](a.png)")).toBe("Bold old code js the docs logo");
  });

  it("leaves what can be part of the words: single stars and underscores, hashes inside a line, numbers", () => {
    const text = "read_config(*.ts) uses #42 and __init__ in 3.5 steps";
    expect(markdownPreview(text)).toBe(text);
    expect(markdownPreview("#hashtag is no heading")).toBe("#hashtag is no heading");
  });

  it("reads only the start of a long text", () => {
    expect(markdownPreview("## A\n" + "x".repeat(10_000), 100)).toHaveLength(100 - 3);
  });

  it("makes a compaction card read as prose", () => {
    const entry = {
      type: "compaction",
      id: "c1",
      parentId: null,
      timestamp: "2026-01-01T00:00:00.000Z",
      summary: "## Goal\nGoal: fix **loadConfig** in `users.test.ts`.\n\n## Progress\n- [x] validation",
      firstKeptEntryId: "a",
      tokensBefore: 1000,
    };
    expect(describeEntry(entry).text).toBe("Goal Goal: fix loadConfig in users.test.ts. Progress validation");
  });
});
