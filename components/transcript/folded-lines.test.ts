import { describe, expect, it } from "vitest";
import { foldCase } from "@/lib/session/features/search";
import { FOLD_LINES, LONG_LINE, foldedText, headOf, hiddenHit } from "./FoldedLines";
import { markPieces } from "./search-terms";

describe("headOf", () => {
  it("gives the first lines and the count of all, as split would", () => {
    for (const text of ["", "a", "a\n", "a\nb\nc", "\n\n\n", Array.from({ length: 50 }, (_, i) => `l${i}`).join("\n")]) {
      const lines = text.split("\n");
      expect(headOf(text, 3)).toEqual({ head: lines.slice(0, 3).join("\n"), total: lines.length });
    }
  });
});

describe("foldedText", () => {
  it("shows the first lines while folded, all of them open", () => {
    const text = Array.from({ length: 30 }, (_, i) => `line ${i}`).join("\n");
    expect(foldedText(text, false)).toEqual({ shown: text.split("\n").slice(0, FOLD_LINES).join("\n"), total: 30, cut: false });
    expect(foldedText(text, true)).toEqual({ shown: text, total: 30, cut: false });
  });

  it("cuts a line of megabytes while folded, saying how much it left out", () => {
    const long = "x".repeat(2 * 1024 * 1024);
    const folded = foldedText(`short\n${long}`, false);
    expect(folded.cut).toBe(true);
    expect(folded.total).toBe(2);
    expect(folded.shown).toBe(`short\n${"x".repeat(LONG_LINE)} … (${(long.length - LONG_LINE).toLocaleString("en-US")} more characters)`);
    expect(foldedText(`short\n${long}`, true).shown).toBe(`short\n${long}`);
  });
});

describe("hiddenHit", () => {
  const lines = Array.from({ length: 60 }, (_, i) => `line ${i} ${i % 7 === 3 ? "Needle" : "hay"}`);
  const text = lines.join("\n");

  it("finds the first line a fold hides a term on, as foldedText hides it", () => {
    // "needle" shows on lines 3, 10, 17 while folded: no hidden hit before line 24
    expect(hiddenHit(text, ["needle"])).toEqual({ line: 24 });
    for (const term of ["needle", "line 45", "hay"]) {
      const hit = hiddenHit(text, [term]);
      const shown = foldCase(foldedText(text, false).shown);
      const hiddenLines = lines
        .map((line, i) => (foldCase(line).includes(term) && !(i < FOLD_LINES && shown.includes(foldCase(line))) ? i : -1))
        .filter((i) => i >= 0);
      expect(hit, term).toEqual(hiddenLines.length ? { line: hiddenLines[0] } : null);
    }
  });

  it("is null with no terms, no occurrence, or every occurrence in view", () => {
    expect(hiddenHit(text, [])).toBeNull();
    expect(hiddenHit(text, ["absent"])).toBeNull();
    expect(hiddenHit(text, ["line 1 "])).toBeNull();
    expect(hiddenHit("short\nneedle", ["needle"])).toBeNull();
  });

  it("sees a hit past the cut of a long line, and the earliest line over all terms", () => {
    const long = `${"x".repeat(LONG_LINE + 10)}needle`;
    expect(hiddenHit(`a\n${long}`, ["needle"])).toEqual({ line: 1 });
    expect(hiddenHit(`${"x".repeat(LONG_LINE - 20)}needle`, ["needle"])).toBeNull();
    expect(hiddenHit(text, ["line 50", "line 30"])).toEqual({ line: 30 });
  });
});

describe("markPieces", () => {
  it("cuts a text where the terms occur, case-folded, overlaps merged, losing no character", () => {
    const text = "Error: the ERROR handler erred";
    const pieces = markPieces(text, ["error", "err", "handler e"]);
    expect(pieces.map((p) => p.text).join("")).toBe(text);
    expect(pieces.filter((p) => p.hit).map((p) => p.text)).toEqual(["Error", "ERROR", "handler err"]);
    expect(markPieces("nothing here", ["x"])).toEqual([{ text: "nothing here", hit: false }]);
  });
});
