import { describe, expect, it } from "vitest";
import { ansiLines, stripAnsi, withoutEscapes, type AnsiRun } from "./ansi";

const runs = (text: string) => ansiLines(text).map((line) => line.map((run) => pick(run)));
const pick = (run: AnsiRun) => Object.fromEntries(Object.entries(run).filter(([, v]) => v !== null && v !== false));

describe("ansiLines", () => {
  it("reads the 16 colours, bold and reset as a terminal does", () => {
    expect(runs("\x1b[31mred\x1b[0m plain \x1b[1;32mbold green\x1b[22m green")).toEqual([
      [{ text: "red", fg: "red" }, { text: " plain " }, { text: "bold green", fg: "green", bold: true }, { text: " green", fg: "green" }],
    ]);
    expect(runs("\x1b[91;44mx\x1b[7my")).toEqual([
      [
        { text: "x", fg: "bright-red", bg: "blue" },
        { text: "y", fg: "blue", bg: "bright-red" },
      ],
    ]);
  });

  it("gives the 256-colour palette and 24-bit colours as rgb, the first 16 of the palette by name", () => {
    expect(runs("\x1b[38;5;196ma\x1b[38;5;9mb\x1b[38;5;244mc\x1b[48;2;1;2;3md")).toEqual([
      [
        { text: "a", fgRgb: "rgb(255, 0, 0)" },
        { text: "b", fg: "bright-red" },
        { text: "c", fgRgb: "rgb(128, 128, 128)" },
        { text: "d", fgRgb: "rgb(128, 128, 128)", bgRgb: "rgb(1, 2, 3)" },
      ],
    ]);
  });

  it("keeps the style across lines and across an OSC 8 link, which becomes the runs' link", () => {
    expect(runs("\x1b[32mgo \x1b]8;;https://a.example/x\x07link\x1b]8;;\x07 on\nnext")).toEqual([
      [
        { text: "go ", fg: "green" },
        { text: "link", fg: "green", href: "https://a.example/x" },
        { text: " on", fg: "green" },
      ],
      [{ text: "next", fg: "green" }],
    ]);
    // ST (ESC \) ends an OSC as BEL does
    expect(runs("\x1b]8;id=1;https://a.example/\x1b\\doc\x1b]8;;\x1b\\")).toEqual([[{ text: "doc", href: "https://a.example/" }]]);
  });

  it("makes no link of any target but http(s), and shows the text", () => {
    for (const target of [
      "javascript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "file:///etc/passwd",
      "vbscript:x",
      " javascript:x",
      "https://a b.example/",
    ])
      expect(runs(`\x1b]8;;${target}\x07click\x1b]8;;\x07`), target).toEqual([[{ text: "click" }]]);
  });

  it("drops what a terminal does not print: cursor moves, erases, titles (an erase is not read as dim)", () => {
    expect(runs("a\x1b[2Kb\x1b[1A\x1b[?25lc\x1b]0;title\x07d\x1b(Be")).toEqual([[{ text: "abcde" }]]);
  });

  it("rewrites a line at a carriage return, as a progress bar does; CRLF ends a line", () => {
    expect(ansiLines("10%\r50%\r100%\ndone\r\nnext").map((line) => line.map((run) => run.text).join(""))).toEqual(["100%", "done", "next"]);
  });

  it("holds markup in a session's output as text: runs are data", () => {
    expect(runs("\x1b[31m<img src=x onerror=alert(1)></span>")).toEqual([[{ text: "<img src=x onerror=alert(1)></span>", fg: "red" }]]);
  });
});

describe("stripAnsi and withoutEscapes", () => {
  it("leave the printed text", () => {
    expect(stripAnsi("\x1b[1mok\x1b[0m \x1b]8;;https://a.example/\x07x\x1b]8;;\x07")).toBe("ok x");
    expect(withoutEscapes("\x1b[1mok\x1b[0m \x1b]8;;https://a.example/\x07x\x1b]8;;\x07\x1b[2K")).toBe("ok x");
    expect(stripAnsi("plain\ntext")).toBe("plain\ntext");
  });
});
