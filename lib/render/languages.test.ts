import { describe, expect, it } from "vitest";
import { piExportRenderer } from "../session/testing/pi-export-template";
import { highlightLines, registeredGrammars } from "./highlight";
import { GRAMMAR_NAMES, knownLanguage, languageOfPath } from "./languages";

describe("the grammars named without loading the highlighter", () => {
  it("are exactly the ones the highlighter holds, each alias resolving to its grammar", () => {
    expect([...GRAMMAR_NAMES].sort()).toEqual(registeredGrammars().sort());
  });

  it("pick for a file what pi 1.6.0's export picks, where we hold that grammar", () => {
    const pi = piExportRenderer([]);
    const extensions = [
      "ts",
      "tsx",
      "js",
      "jsx",
      "py",
      "rb",
      "rs",
      "go",
      "java",
      "c",
      "cpp",
      "h",
      "hpp",
      "cs",
      "php",
      "sh",
      "bash",
      "zsh",
      "sql",
      "html",
      "css",
      "scss",
      "json",
      "yaml",
      "yml",
      "xml",
      "md",
      "dockerfile",
      "txt",
      "lock",
      "toml",
    ];
    let checked = 0;
    for (const extension of extensions) {
      const theirs = pi.getLanguageFromPath(`src/file.${extension}`);
      if (theirs === undefined) continue;
      expect(languageOfPath(`src/file.${extension}`), extension).toBe(knownLanguage(theirs));
      checked++;
    }
    expect(checked).toBeGreaterThan(25);
  });

  it("take no markup for a language name", () => {
    for (const name of ['"><img src=x onerror=alert(1)>', "<script>", "ts onmouseover=x", "../../etc"]) {
      expect(knownLanguage(name), name).toBeNull();
      expect(languageOfPath(`a.${name}`), name).toBeNull();
    }
  });
});

describe("highlightLines", () => {
  it("tokens code with highlight.js's classes and loses no character of any line", () => {
    const code = 'import { Pool } from "pg";\n\n// the cap\nconst max = Math.min(options.max, 10);\n\tclient.release();';
    const lines = highlightLines(code, "ts");
    expect(lines.map((line) => line.map((token) => token.text).join(""))).toEqual(code.split("\n"));
    expect(lines[0]).toContainEqual({ text: "import", className: "hljs-keyword" });
    expect(lines[0]).toContainEqual({ text: '"pg"', className: "hljs-string" });
    expect(lines[2]).toEqual([{ text: "// the cap", className: "hljs-comment" }]);
  });

  it("leaves plain the code of a language it does not hold, and markup as text", () => {
    expect(highlightLines("<b>x</b>\ny", "no-such-language")).toEqual([[{ text: "<b>x</b>", className: null }], [{ text: "y", className: null }]]);
    const html = highlightLines('<img src=x onerror="alert(1)">', "html");
    expect(html[0]!.map((token) => token.text).join("")).toBe('<img src=x onerror="alert(1)">');
  });
});
