import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { listFixtures } from "@/lib/session/testing/golden";
import { hasDuplicateKeys } from "./duplicate-keys";

describe("hasDuplicateKeys", () => {
  it.each([
    ['{"a":1,"a":2}', "at the root"],
    ['{"x":[1,{"b":{"c":1,"c":1}}]}', "deep inside arrays and objects"],
    ['{"a":1,"\\u0061":2}', "spelled two ways"],
    ['{ "a" : 1 , "b" : { } , "a" : 3 }', "with whitespace"],
    ['{"q\\"":1,"q\\"":2}', "with an escaped quote in it"],
  ])("finds %s (%s)", (line) => {
    expect(hasDuplicateKeys(line)).toBe(true);
  });

  it.each([
    ['{"a":1,"b":{"a":2},"c":[{"a":3},{"a":4}]}', "the same key in different objects"],
    ['{"a":"\\"a\\":1,\\"a\\":2","b":["a","a"]}', "keys written inside a string, strings in an array"],
    ['{"a\\\\":1,"a":2}', "a key ending in a backslash"],
    ["[1,2,3]", "an array"],
    ['"a"', "a string"],
  ])("finds none in %s (%s)", (line) => {
    expect(hasDuplicateKeys(line)).toBe(false);
  });

  it("finds none in a fixture line that parses", () => {
    let lines = 0;
    for (const fixture of listFixtures().filter((f) => !f.name.includes("large"))) {
      for (const line of readFileSync(fixture.file, "utf8").split("\n")) {
        try {
          JSON.parse(line);
        } catch {
          continue;
        }
        lines++;
        expect(hasDuplicateKeys(line), `${fixture.name}: ${line.slice(0, 80)}`).toBe(false);
      }
    }
    expect(lines).toBeGreaterThan(500);
  });
});
