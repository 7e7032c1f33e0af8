import { describe, expect, it } from "vitest";
import { LIBRARY_INDEX_TUNING, libraryIndexTuning } from "./library-index-tuning";

describe("libraryIndexTuning", () => {
  it("is the defaults, with the settings given over them", () => {
    expect(libraryIndexTuning()).toEqual(LIBRARY_INDEX_TUNING);
    expect(libraryIndexTuning({ rankedHits: 7, checkedBytes: undefined })).toEqual({ ...LIBRARY_INDEX_TUNING, rankedHits: 7 });
  });

  it("refuses a setting it does not have, one that is not a number above 0, and a share past 100 %", () => {
    expect(() => libraryIndexTuning({ rankedHit: 7 } as never)).toThrow(/no setting rankedHit/);
    for (const value of [0, -1, Number.NaN]) expect(() => libraryIndexTuning({ batchEntries: value })).toThrow(/batchEntries is a number above 0/);
    expect(() => libraryIndexTuning({ sampledPercent: 101 })).toThrow(/sampledPercent is a share of its pages, at most 100/);
    expect(libraryIndexTuning({ sampledPercent: 100 }).sampledPercent).toBe(100);
  });
});
