"use client";

/**
 * A command's output as its terminal showed it: colours and styles from its ANSI codes, OSC 8 hyperlinks and
 * plain http(s) URLs as links, folded past the first lines. Only the lines shown are parsed until the fold opens.
 */
import { useMemo, type CSSProperties } from "react";
import { ansiLines, hasAnsi, type AnsiLine, type AnsiRun } from "@/lib/render/ansi";
import { linkPieces } from "@/lib/render/links";
import { FOLD_LINES, FoldedLines, useTextFold } from "./FoldedLines";
import { NO_TERMS, marked } from "./search-terms";

export function AnsiBlock({ text, label, open: openAtFirst = false }: { text: string; label: string; open?: boolean }) {
  const { terms, fold, open, shown, total, cut, focusLine } = useTextFold(text, openAtFirst);
  const lines = useMemo(() => linesOf(shown), [shown]);
  return (
    <FoldedLines
      count={open || total <= FOLD_LINES ? lines.length : total}
      cut={cut}
      fold={fold}
      focusLine={focusLine}
      label={label}
      renderLine={(i) => <AnsiRow key={i} line={lines[i]} terms={terms} />}
    />
  );
}

/** Lines of runs; a text with no escape in it is split, not parsed. */
function linesOf(text: string): AnsiLine[] {
  if (hasAnsi(text) || text.includes("\r")) return ansiLines(text);
  return text.split("\n").map((line) => (line ? [plainRun(line)] : []));
}

function plainRun(text: string): AnsiRun {
  return { text, fg: null, bg: null, fgRgb: null, bgRgb: null, bold: false, dim: false, italic: false, underline: false, strike: false, href: null };
}

function AnsiRow({ line, terms }: { line: AnsiLine | undefined; terms: readonly string[] }) {
  return <div className="px-2">{line?.length ? line.map((run, i) => <Run key={i} run={run} terms={terms} />) : "\u200b"}</div>;
}

function Run({ run, terms }: { run: AnsiRun; terms: readonly string[] }) {
  const classes = [
    run.fg ? `ansi-${run.fg}` : "",
    run.bg ? `ansi-bg-${run.bg}` : "",
    run.bold ? "font-bold" : "",
    run.dim ? "opacity-60" : "",
    run.italic ? "italic" : "",
    run.underline ? "underline" : "",
    run.strike ? "line-through" : "",
  ]
    .filter(Boolean)
    .join(" ");
  const style: CSSProperties | undefined = run.fgRgb || run.bgRgb ? { color: run.fgRgb ?? undefined, backgroundColor: run.bgRgb ?? undefined } : undefined;
  const content = run.href ? (
    <a href={run.href} rel="noopener noreferrer nofollow" target="_blank" className="underline decoration-dotted underline-offset-2">
      {marked(run.text, terms)}
    </a>
  ) : (
    <Linked text={run.text} terms={terms} />
  );
  return classes || style ? (
    <span className={classes || undefined} style={style}>
      {content}
    </span>
  ) : (
    content
  );
}

/** Plain text with its http(s) URLs as links, and the search's terms marked. */
export function Linked({ text, terms = NO_TERMS }: { text: string; terms?: readonly string[] }) {
  if (!text.includes("http")) return marked(text, terms);
  return linkPieces(text).map((piece, i) =>
    piece.href ? (
      <a key={i} href={piece.href} rel="noopener noreferrer nofollow" target="_blank" className="text-accent underline underline-offset-2">
        {marked(piece.text, terms)}
      </a>
    ) : (
      <span key={i}>{marked(piece.text, terms)}</span>
    ),
  );
}
