"use client";

/**
 * An edit as a diff: unified, or side by side where the pane is wide. Each line says what it is in its sign and
 * in text for screen readers (`data-diff` for tools), not by colour alone; numbers are the file's lines where the
 * diff records them. Lines are highlighted in the file's language, as one text in the diff's order (a comment or
 * string across lines reads as it does in the file, mostly: old and new lines interleave).
 */
import { useLayoutEffect, useMemo, useRef, useState } from "react";
import type { CodeLine } from "@/lib/render/code-lines";
import { sideBySide, type DiffLine } from "@/lib/session/features/tool-view";
import { codeTokens } from "./CodeBlock";
import { FoldedLines } from "./FoldedLines";
import { marked, useSearchTerms } from "./search-terms";
import { useStaticRendering } from "./static-render";
import { useHighlighted } from "./use-highlighted";

/** wide enough for two columns of code */
const SIDE_BY_SIDE_PX = 880;
const SAID = { "+": "added", "-": "removed", " ": "unchanged" } as const;

export function DiffBlock({ lines, label, language = null }: { lines: readonly DiffLine[]; label: string; language?: string | null }) {
  const ref = useRef<HTMLDivElement>(null);
  const code = useMemo(() => lines.map((line) => (line.gap ? "" : line.text)).join("\n"), [lines]);
  const highlighted = useHighlighted(code, language);
  const tokens = useMemo(() => new Map(lines.map((line, i) => [line, line.gap ? undefined : highlighted[i]])), [lines, highlighted]);
  const rendering = useStaticRendering();
  const [chosen, setChosen] = useState<"unified" | "split" | null>(null);
  const [wide, setWide] = useState(false);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(([entry]) => setWide((entry?.contentRect.width ?? 0) >= SIDE_BY_SIDE_PX));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const mode = chosen ?? (wide ? "split" : "unified");
  const width = Math.max(1, ...lines.map((line) => (line.line === null ? 0 : String(line.line).length)));
  const added = lines.filter((line) => line.sign === "+").length;
  const removed = lines.filter((line) => line.sign === "-").length;
  return (
    <div ref={ref} data-language={language ?? undefined} className="flex min-w-0 flex-col gap-0.5">
      <div className="flex items-center gap-2 text-[11.5px] text-muted">
        <span className="text-success">+{added}</span>
        <span className="text-danger">−{removed}</span>
        {rendering ? null : (
          <button
            type="button"
            onClick={() => setChosen(mode === "split" ? "unified" : "split")}
            className="ml-auto rounded px-1 hover:bg-surface-2 hover:text-foreground"
            aria-pressed={mode === "split"}
          >
            Side by side
          </button>
        )}
      </div>
      {mode === "split" ? (
        <SplitDiff lines={lines} width={width} label={label} tokens={tokens} />
      ) : (
        <FoldedLines
          count={lines.length}
          label={label}
          renderLine={(i) => <UnifiedRow key={i} line={lines[i]!} width={width} tokens={tokens.get(lines[i]!)} />}
        />
      )}
    </div>
  );
}

const TONE = {
  "+": "bg-success-soft",
  "-": "bg-danger-soft",
  " ": "",
} as const;

function UnifiedRow({ line, width, tokens }: { line: DiffLine; width: number; tokens: CodeLine | undefined }) {
  const terms = useSearchTerms();
  return (
    <div data-diff={line.sign} className={`flex px-1 ${TONE[line.sign]}`}>
      <span className="sr-only">{line.gap ? "unchanged lines left out" : `${SAID[line.sign]} line${line.line === null ? "" : ` ${line.line}`}: `}</span>
      <span aria-hidden className="box-content shrink-0 pr-2 text-right text-subtle select-none" style={{ width: `${width}ch` }}>
        {line.line ?? ""}
      </span>
      <span aria-hidden className={`w-[2ch] shrink-0 select-none ${line.sign === "+" ? "text-success" : line.sign === "-" ? "text-danger" : "text-subtle"}`}>
        {line.sign}
      </span>
      <span className={`min-w-0 flex-1 ${line.gap ? "text-subtle" : ""}`}>
        {line.gap || !tokens ? marked(line.text, terms) || "\u200b" : codeTokens(tokens, terms)}
      </span>
    </div>
  );
}

function SplitDiff({ lines, width, label, tokens }: { lines: readonly DiffLine[]; width: number; label: string; tokens: Map<DiffLine, CodeLine | undefined> }) {
  const rows = sideBySide(lines);
  return (
    <FoldedLines
      count={rows.length}
      label={`${label}, side by side`}
      renderLine={(i) => {
        const row = rows[i]!;
        return (
          <div key={i} className="grid grid-cols-2 gap-px">
            <Half line={row.left} width={width} tokens={tokens} />
            <Half line={row.right} width={width} tokens={tokens} same={row.right === row.left} />
          </div>
        );
      }}
    />
  );
}

function Half({ line, width, tokens, same = false }: { line: DiffLine | null; width: number; tokens: Map<DiffLine, CodeLine | undefined>; same?: boolean }) {
  if (!line) return <div aria-hidden className="bg-surface-2/60" />;
  // an unchanged line is one line of the diff: its right half repeats it for the eye only
  if (same)
    return (
      <div aria-hidden className="min-w-0 px-1 text-muted">
        {line.text || "\u200b"}
      </div>
    );
  return <UnifiedRow line={line} width={width} tokens={tokens.get(line)} />;
}
