import { describe, expect, it } from "vitest";
import { formatBytes, formatDateTime } from "./format";

describe("formatBytes", () => {
  it.each([
    [0, "0 B"],
    [1023, "1023 B"],
    [1536, "1.5 KB"],
    [35792, "35 KB"],
    [3578106, "3.4 MB"],
    [5 * 1024 ** 3, "5.0 GB"],
  ])("%i → %s", (bytes, text) => expect(formatBytes(bytes)).toBe(text));
});

describe("formatDateTime", () => {
  it("formats a parsable time and is empty for anything else", () => {
    expect(formatDateTime("2026-01-09T12:00:00.001Z")).toMatch(/^2026-01-(09|10) \d\d:\d\d$/);
    expect(formatDateTime("not a date")).toBe("");
    expect(formatDateTime(null)).toBe("");
  });
});
