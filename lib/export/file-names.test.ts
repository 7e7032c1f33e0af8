import { describe, expect, it } from "vitest";
import { shareFileName, transcriptFileName } from "./file-names";

describe("transcriptFileName", () => {
  it("slugs the session name and appends the entry id", () => {
    expect(transcriptFileName("Review server.ts", "019b", "1c22d256")).toBe("review-server-ts_1c22d256.md");
  });

  it("falls back to the session id, then to a fixed word", () => {
    expect(transcriptFileName(null, "019B97E6-2100", "ab")).toBe("019b97e6-2100_ab.md");
    expect(transcriptFileName("  ", null, "ab")).toBe("session_ab.md");
  });

  it("drops path separators, accents and overlong tails", () => {
    const name = transcriptFileName(`../../etc/Crème brûlée ${"x".repeat(100)}`, null, "a/b");
    expect(name).toMatch(/^[a-z0-9-]+_[a-z0-9-]+\.md$/);
    expect(name.startsWith("etc-creme-brulee-")).toBe(true);
    expect(name.split("_")[0]!.length).toBeLessThanOrEqual(48);
    expect(name.endsWith("_a-b.md")).toBe(true);
  });
});

describe("shareFileName", () => {
  it("keeps the session's name, and makes what Windows refuses (a redacted name's colon) a dash", () => {
    expect(shareFileName("2026-01-02T10-00-00_abc.jsonl")).toBe("2026-01-02T10-00-00_abc.share.html");
    expect(shareFileName("[REDACTED:literal-1]-audit.jsonl")).toBe("[REDACTED-literal-1]-audit.share.html");
    expect(shareFileName('a<b>c"d/e\\f|g?h*i\u0001.jsonl')).toBe("a-b-c-d-e-f-g-h-i-.share.html");
    expect(shareFileName(".jsonl")).toBe("session.share.html");
  });
});
