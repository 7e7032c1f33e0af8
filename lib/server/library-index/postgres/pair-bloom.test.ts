// The pair filter never says "no" to a phrase that stands in the words (the search would miss a hit), and says
// "maybe" to few that do not (each would cost a line read).
import { describe, expect, it } from "vitest";
import { isPrefixWord, termAt } from "@/lib/library/library-search";
import { Rng } from "@/lib/session/testing/rng";
import { pairBloom, phraseBits } from "./pair-bloom";

/** Whether the filter holds every bit of the terms' phrases, as get_bit over it does in search-query.ts. */
const mayHold = (filter: Buffer | null, terms: string[][]) => {
  const bits = phraseBits(terms);
  if (bits.length === 0) return true;
  if (filter === null) return false;
  const size = filter.length * 8;
  return bits.every((bit) => (filter[(bit & (size - 1)) >> 3]! >> (bit & (size - 1) & 7)) & 1);
};

describe("pairBloom", () => {
  const rng = new Rng(7);
  const vocabulary = Array.from({ length: 300 }, (_, i) => `w${i.toString(36)}${"x".repeat(i % 5)}`).concat(["é", "😀😀", "ab", "abc", "abcdef", "中文字"]);
  const text = (n: number) => Array.from({ length: n }, () => rng.pick(vocabulary));

  it("holds every phrase of the words, a last word as a prefix too", () => {
    for (let round = 0; round < 300; round++) {
      const words = text(rng.range(2, 3000));
      const filter = pairBloom(words);
      for (let probe = 0; probe < 20; probe++) {
        const at = rng.range(0, words.length - 2);
        const length = rng.range(2, Math.min(4, words.length - at));
        const phrase = words.slice(at, at + length);
        const last = phrase[length - 1]!;
        if (rng.chance(0.5) && isPrefixWord(last.slice(0, 3))) phrase[length - 1] = last.slice(0, 3);
        expect(termAt(words, phrase)).toBeGreaterThanOrEqual(0);
        expect(mayHold(filter, [phrase])).toBeTruthy();
      }
    }
  });

  it("says maybe to few pairs that are not there, and has no filter for fewer than two words", () => {
    expect(pairBloom([])).toBeNull();
    expect(pairBloom(["one"])).toBeNull();
    let absent = 0;
    let maybe = 0;
    for (let round = 0; round < 200; round++) {
      const words = text(rng.range(2, 400));
      const filter = pairBloom(words);
      for (let probe = 0; probe < 50; probe++) {
        const phrase = [rng.pick(vocabulary), rng.pick(vocabulary)];
        if (termAt(words, phrase) >= 0) continue;
        absent++;
        if (mayHold(filter, [phrase])) maybe++;
      }
    }
    expect(absent).toBeGreaterThan(5000);
    expect(maybe / absent).toBeLessThan(0.1);
  });
});
