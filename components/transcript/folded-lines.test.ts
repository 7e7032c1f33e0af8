import { describe, expect, it } from "vitest";
import { FOLD_LINES, LONG_LINE, foldedText, headOf } from "./FoldedLines";

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
