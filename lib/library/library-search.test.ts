import { describe, expect, it } from "vitest";
import { Rng } from "@/lib/session/testing/rng";
import { entrySearchText, ftsQuery, isPrefixWord, librarySearchTerms, matchesTerms, searchWords, searchWordsText, termsChecker } from "./library-search";
import type { SessionEntry } from "@/lib/session/types";

describe("the prefix rule", () => {
  it("takes a last word of three characters or more as a prefix, a shorter one as a whole word", () => {
    expect(["a", "ab", "é", "日本"].map(isPrefixWord)).toEqual([false, false, false, false]);
    expect(["abc", "sess", "日本語", "😀😀😀"].map(isPrefixWord)).toEqual([true, true, true, true]);
    const words = searchWords("The session ab abc parse lines");
    expect(matchesTerms(words, librarySearchTerms("sess"))).toBe(true);
    expect(matchesTerms(words, librarySearchTerms("a"))).toBe(false);
    expect(matchesTerms(words, librarySearchTerms("ab"))).toBe(true);
    expect(matchesTerms(words, librarySearchTerms("th"))).toBe(false);
    expect(matchesTerms(words, librarySearchTerms("the"))).toBe(true);
    expect(matchesTerms(words, librarySearchTerms('"parse li"'))).toBe(false);
    expect(matchesTerms(words, librarySearchTerms('"parse lin"'))).toBe(true);
    // only the last word of a phrase is a prefix
    expect(matchesTerms(words, librarySearchTerms('"pars lines"'))).toBe(false);
  });

  it("asks FTS5 for a prefix only where the rule makes one", () => {
    expect(ftsQuery(librarySearchTerms('sess ab "parse li" "parse lin"'))).toBe('"sess" * AND "ab" AND "parse li" AND "parse lin" *');
  });
});

/** Random texts that stress word cutting: cases, accents, scripts, digits, JSON escapes, runs of separators. */
function randomText(rng: Rng): string {
  const pieces = ["the", "The", "THEN", "there", "a", "ab", "abc", "parse", "lines", "Élan", "élan", "İstanbul", "straße", "日本語", "x1", "1e5", "100000"];
  const separators = [" ", "  ", "\n", "\t", "-", ".", "/", "\\", '"', "\\n", "_", "", "😀", "\u00a0"];
  let out = "";
  for (let i = rng.int(12); i >= 0; i--) out += rng.pick(pieces) + rng.pick(separators);
  return out;
}

describe("searchWordsText", () => {
  it("is searchWords joined by spaces", () => {
    const rng = new Rng(5);
    for (let i = 0; i < 500; i++) {
      const text = randomText(rng);
      expect(searchWordsText(text), text).toBe(searchWords(text).join(" "));
    }
  });
});

describe("termsChecker", () => {
  it("says of an entry line what matchesTerms says of its words, for random entries and queries", () => {
    const rng = new Rng(9);
    let held = 0;
    for (let i = 0; i < 2000; i++) {
      const entry: SessionEntry =
        i % 3 === 0
          ? { type: "message", id: `e${i}`, message: { role: "user", content: randomText(rng) } }
          : i % 3 === 1
            ? {
                type: "message",
                id: `e${i}`,
                message: { role: "assistant", content: [{ type: "toolCall", id: "t", name: "bash", arguments: { command: randomText(rng), n: 1e5 } }] },
              }
            : { type: "compaction", id: `e${i}`, summary: randomText(rng) };
      // as pi writes it, and as another writer might: characters escaped as \u (even letters), numbers otherwise
      const json = JSON.stringify(entry);
      const line =
        i % 7 === 0
          ? json.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
          : i % 7 === 1
            ? json.replaceAll("the", "\\u0074he")
            : json.replace("100000", "1e5");
      const words = searchWords(entrySearchText(JSON.parse(line) as SessionEntry));
      const query = [randomText(rng).split(/\s/)[0] || "the", `"${randomText(rng).slice(0, 9)}"`, "1e5 the", "100000", "ab", "élan"][i % 6]!;
      const terms = librarySearchTerms(query);
      if (terms.length === 0) continue;
      const checker = termsChecker(terms);
      const expected = matchesTerms(words, terms);
      if (expected) held++;
      expect(checker.holds(line), `${query} in ${line}`).toBe(expected);
      expect(checker.each(line), `${query} in ${line}`).toEqual(terms.map((term) => matchesTerms(words, [term])));
    }
    expect(held).toBeGreaterThan(100);
  });

  it("refuses a line that is no entry", () => {
    const checker = termsChecker(librarySearchTerms("the"));
    expect(checker.holds("not json")).toBe(false);
    expect(checker.each("[1, 2]")).toBeNull();
  });
});
