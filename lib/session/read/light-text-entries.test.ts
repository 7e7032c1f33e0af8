import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { listFixtures } from "../testing/golden";
import { LightReader, newlinesOf } from "./light-lines";
import { LightTextEntries } from "./light-text-entries";

describe("LightTextEntries", () => {
  it.each(listFixtures().map((f) => [f.name, f.file] as const))(
    "%s: finds each line's entry the same whether its newlines are found by it or given (the worker's newlinesOf)",
    (_name, file) => {
      const bytes = readFileSync(file);
      const scanned = new LightTextEntries();
      const given = new LightTextEntries();
      const reader = new LightReader(1 << 10);
      const lineTexts: string[] = [];
      const take = (light: Uint8Array) => {
        scanned.add(light);
        given.add(light, newlinesOf(light));
        lineTexts.push(...new TextDecoder("utf-8", { ignoreBOM: true }).decode(light).split("\n").slice(0, -1));
      };
      for (let at = 0; at < bytes.length; at += 777) {
        const chunk = reader.push(bytes.subarray(at, at + 777));
        if (chunk) take(chunk.light);
      }
      const rest = reader.flush();
      if (rest) take(rest.light);
      const last = reader.end();
      scanned.end(last);
      given.end(last);
      if (last) lineTexts.push(last);
      lineTexts.forEach((text, i) => {
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch {
          return; // a line that is not JSON is never read as an entry
        }
        expect(given.entry(0, i + 1)).toEqual(value);
        expect(scanned.entry(0, i + 1)).toEqual(value);
      });
    },
  );

  it("newlinesOf finds every newline, none at the ends included", () => {
    const bytes = new TextEncoder().encode("\nab\n\ncd\n");
    expect([...newlinesOf(bytes)]).toEqual([0, 3, 4, 7]);
    expect([...newlinesOf(new Uint8Array(0))]).toEqual([]);
    expect([...newlinesOf(bytes.subarray(1, 3))]).toEqual([]);
    const many = new TextEncoder().encode("x\n".repeat(5000));
    expect([...newlinesOf(many)]).toEqual(Array.from({ length: 5000 }, (_, i) => 2 * i + 1));
  });
});
