"use client";

/**
 * A block of code: highlighted in its language (data-language), with line numbers where the lines have them,
 * folded past the first lines. Only the lines shown are highlighted until the fold opens.
 */
import type { ReactNode } from "react";
import type { CodeLine } from "@/lib/render/code-lines";
import { FoldedLines, useTextFold } from "./FoldedLines";
import { marked } from "./search-terms";
import { useHighlighted } from "./use-highlighted";

interface Props {
  code: string;
  /** a grammar name (languages.ts), or null for plain text */
  language: string | null;
  /** the first line's number in its file; no numbers when null */
  firstLine?: number | null;
  label: string;
  open?: boolean;
}

export function CodeBlock({ code, language, firstLine = null, label, open: openAtFirst = false }: Props) {
  const { terms, fold, shown, total, cut, focusLine } = useTextFold(code, openAtFirst);
  const lines = useHighlighted(shown, language);
  const width = firstLine === null ? 0 : String(firstLine + total - 1).length;
  return (
    <div data-language={language ?? undefined} className="min-w-0">
      <FoldedLines
        count={total}
        cut={cut}
        fold={fold}
        focusLine={focusLine}
        label={label}
        renderLine={(i) => <CodeRow key={i} line={lines[i]} number={firstLine === null ? null : firstLine + i} width={width} terms={terms} />}
      />
    </div>
  );
}

/** A line's tokens with their highlight classes, the search's terms marked; a zero-width space keeps an empty line's height. */
export function codeTokens(line: CodeLine | undefined, terms: readonly string[]): ReactNode {
  if (!line?.length) return "\u200b";
  return line.map((token, i) =>
    token.className ? (
      <span key={i} className={token.className}>
        {marked(token.text, terms)}
      </span>
    ) : terms.length ? (
      <span key={i}>{marked(token.text, terms)}</span>
    ) : (
      token.text
    ),
  );
}

export function CodeRow({ line, number, width, terms }: { line: CodeLine | undefined; number: number | null; width: number; terms: readonly string[] }) {
  const tokens = codeTokens(line, terms);
  // a line without a number is a plain block: a flex row per line is layout work a reply with 200 blocks pays for
  if (number === null) return <div className="px-2">{tokens}</div>;
  return (
    <div className="flex px-2">
      <span aria-hidden className="box-content shrink-0 pr-3 text-right text-subtle select-none" style={{ width: `${width}ch` }}>
        {number}
      </span>
      <span className="min-w-0 flex-1">{tokens}</span>
    </div>
  );
}
