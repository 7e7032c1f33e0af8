import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { listFixtures } from "@/lib/session/testing/golden";
import { utf8Length } from "./utf8-length";

const encoded = (text: string) => new TextEncoder().encode(text).byteLength;

describe("utf8Length", () => {
  it("is TextEncoder's byte count on every fixture", () => {
    for (const fixture of listFixtures()) {
      const text = readFileSync(fixture.file, "utf8");
      expect(utf8Length(text), fixture.name).toBe(encoded(text));
    }
  });

  it("counts 1-, 2-, 3- and 4-byte characters, and a lone surrogate as TextEncoder writes it (U+FFFD)", () => {
    for (const text of ["", "a", "é", "€", "😀", "a😀b€é", "\ud83d", "x\udc00y", "\ud83d\ud83d\ude00"])
      expect(utf8Length(text), JSON.stringify(text)).toBe(encoded(text));
  });
});
