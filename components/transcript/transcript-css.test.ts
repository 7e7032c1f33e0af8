// The export's stylesheet is made from app/globals.css and the classes its components use; a class added to a
// renderer, or a token changed, makes this fail until `node scripts/transcript-css.mjs` is run again.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { TRANSCRIPT_CSS_FILE, exportInput, transcriptCssModule } from "../../scripts/transcript-css.mjs";

describe("transcript-css.ts", () => {
  it("is what scripts/transcript-css.mjs makes now", async () => {
    expect(readFileSync(TRANSCRIPT_CSS_FILE, "utf8")).toBe(await transcriptCssModule());
  });

  it("follows the system's dark preference where the app follows its .dark class, and scans only the transcript's files", () => {
    const input = exportInput(readFileSync("app/globals.css", "utf8")) as string;
    expect(input).not.toMatch(/^\.dark|html\.dark|&:where\(\.dark/m);
    expect(input).toContain("@custom-variant dark (@media (prefers-color-scheme: dark));");
    expect(input).toContain('@import "tailwindcss" source(none);');
    expect(input).not.toContain(".react-flow");
  });
});
