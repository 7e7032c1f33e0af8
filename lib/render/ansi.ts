/**
 * Terminal output as lines of styled runs: what a command's output looked like in the terminal pi ran it in.
 * ansi-sequence-parser (the Shiki project's) reads the SGR codes and hands back data; the escapes it would
 * misread are cut out first: OSC sequences (an OSC 8 hyperlink becomes the runs' link) and every CSI that is not
 * SGR (cursor moves, erases: it takes `ESC[2K` for "dim"). Nothing here builds HTML.
 */
import { createAnsiSequenceParser, type Color } from "ansi-sequence-parser";
import { safeLinkTarget } from "./links";

export interface AnsiRun {
  text: string;
  /** one of the 16 named colours (`red`, `bright-blue`): themed, so it reads in light and dark */
  fg: string | null;
  bg: string | null;
  /** a 256-palette or 24-bit colour: fixed, as the program chose it */
  fgRgb: string | null;
  bgRgb: string | null;
  bold: boolean;
  dim: boolean;
  italic: boolean;
  underline: boolean;
  strike: boolean;
  /** an OSC 8 hyperlink's target when it is http(s); any other target leaves the text plain */
  href: string | null;
}

export type AnsiLine = AnsiRun[];

/** `ESC ] code ; … ` ended by BEL or ST: OSC 8 is a hyperlink, the rest (window titles…) print nothing */
const OSC = /\x1b\](\d*);?([^\x07\x1b]*)(?:\x07|\x1b\\)/g;
/** CSI sequences other than SGR (final byte `m`), and the two-byte escapes a terminal does not print */
const NOT_SGR = /\x1b\[[0-?]*[ -/]*[@-ln-~]|\x1b[()][0-9A-Za-z]|\x1b[=>78]/g;

const ANY_ESCAPE = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[=>78]/g;

/** The text with its escape sequences cut out and nothing else done (no carriage returns, no parse): for a preview. */
export function withoutEscapes(text: string): string {
  return hasAnsi(text) ? text.replace(ANY_ESCAPE, "") : text;
}

export function hasAnsi(text: string): boolean {
  return text.includes("\x1b");
}

/** The text a terminal shows, without any escape: what a search, a copy or a line count sees. */
export function stripAnsi(text: string): string {
  if (!hasAnsi(text) && !text.includes("\r")) return text;
  return ansiLines(text)
    .map((line) => line.map((run) => run.text).join(""))
    .join("\n");
}

/** The output as lines of runs. A bare carriage return starts its line again, as a terminal's progress bar does. */
export function ansiLines(text: string): AnsiLine[] {
  const parser = createAnsiSequenceParser();
  const lines: AnsiLine[] = [[]];
  let href: string | null = null;
  const add = (chunk: string) => {
    if (!chunk) return;
    // (parsed even without an escape in it: the style an earlier piece set goes on)
    const tokens = parser.parse(hasAnsi(chunk) ? chunk.replace(NOT_SGR, "") : chunk);
    for (const token of tokens) {
      token.value.split("\n").forEach((piece, i) => {
        if (i > 0) lines.push([]);
        const line = lines[lines.length - 1]!;
        const parts = piece.split("\r");
        parts.forEach((part, j) => {
          if (j > 0 && (part || j < parts.length - 1)) line.length = 0; // "\r\n" ends the line; a bare "\r" rewrites it
          if (!part) return;
          const run = runOf(part, token.foreground, token.background, token.decorations, href);
          const last = line[line.length - 1];
          // pieces split only by an escape that changed nothing (an erase, a link's end) are one run
          if (last && sameStyle(last, run)) last.text += run.text;
          else line.push(run);
        });
      });
    }
  };
  let at = 0;
  for (const match of text.matchAll(OSC)) {
    add(text.slice(at, match.index));
    at = match.index + match[0].length;
    if (match[1] === "8") {
      // params ; uri — an empty uri ends the link
      const target = match[2]!.slice(match[2]!.indexOf(";") + 1);
      href = target ? (safeLinkTarget(target) ?? "") : null;
    }
  }
  add(text.slice(at));
  return lines;
}

function runOf(text: string, foreground: Color | null, background: Color | null, decorations: ReadonlySet<string>, href: string | null): AnsiRun {
  const [front, back] = decorations.has("reverse") ? [background, foreground] : [foreground, background];
  return {
    text: decorations.has("hidden") ? " ".repeat(text.length) : text,
    fg: named(front),
    bg: named(back),
    fgRgb: rgb(front),
    bgRgb: rgb(back),
    bold: decorations.has("bold"),
    dim: decorations.has("dim"),
    italic: decorations.has("italic"),
    underline: decorations.has("underline"),
    strike: decorations.has("strikethrough"),
    href: href || null, // "" is a link whose target was refused: its text shows as text
  };
}

function sameStyle(a: AnsiRun, b: AnsiRun): boolean {
  return (
    a.fg === b.fg &&
    a.bg === b.bg &&
    a.fgRgb === b.fgRgb &&
    a.bgRgb === b.bgRgb &&
    a.bold === b.bold &&
    a.dim === b.dim &&
    a.italic === b.italic &&
    a.underline === b.underline &&
    a.strike === b.strike &&
    a.href === b.href
  );
}

const NAMES = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"];

/** the 16 named colours, by the parser's name or by their palette index */
function named(color: Color | null): string | null {
  if (!color) return null;
  if (color.type === "named") return color.name.replace(/^bright([A-Z])/, (_, c: string) => `bright-${c.toLowerCase()}`);
  if (color.type === "table" && color.index < 16) return `${color.index >= 8 ? "bright-" : ""}${NAMES[color.index % 8]}`;
  return null;
}

/** xterm's 256-colour palette beyond the 16 (a 6×6×6 cube, then 24 greys), and 24-bit colours */
function rgb(color: Color | null): string | null {
  if (!color) return null;
  if (color.type === "rgb") return `rgb(${color.rgb.map((v) => Math.max(0, Math.min(255, v | 0))).join(", ")})`;
  if (color.type !== "table" || color.index < 16 || color.index > 255) return null;
  if (color.index >= 232) {
    const level = 8 + (color.index - 232) * 10;
    return `rgb(${level}, ${level}, ${level})`;
  }
  const cube = color.index - 16;
  const step = (v: number) => (v === 0 ? 0 : 55 + v * 40);
  return `rgb(${step(Math.floor(cube / 36))}, ${step(Math.floor(cube / 6) % 6)}, ${step(cube % 6)})`;
}
