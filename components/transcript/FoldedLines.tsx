"use client";

/**
 * Lines of output or code, folded: the first lines show, a button shows the rest. Past a few hundred lines the
 * unfolded lines are virtualized (only those in view are in the DOM, at a fixed line height, not wrapped), so a
 * multi-megabyte output opens as fast as a short one.
 */
import { useVirtualizer } from "@tanstack/react-virtual";
import { createContext, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { foldCase } from "@/lib/session/features/search";
import { useSearchTerms } from "./search-terms";
import { useStaticRendering } from "./static-render";

/** lines shown while folded: about a screenful of the inspector */
export const FOLD_LINES = 20;
/** characters of a line shown while folded: a minified bundle or a base64 blob is one line of megabytes */
export const LONG_LINE = 2000;
/** unfolded outputs longer than this are virtualized */
export const VIRTUAL_LINES = 400;
const LINE_PX = 18;

const OpenAll = createContext(false);

/** Every fold inside starts open (the "o" toggle: tool outputs expanded). */
export function FoldsOpen({ open, children }: { open: boolean; children?: ReactNode }) {
  return <OpenAll.Provider value={open}>{children}</OpenAll.Provider>;
}

/** Whether folds are open here; code and output blocks prepare all their lines then. */
export function useFoldsOpen(): boolean {
  return useContext(OpenAll);
}

/**
 * A fold's state: open at first when asked or when every fold is (FoldsOpen), opened and closed by its button,
 * and set again whenever the "o" toggle changes (state adjusted while rendering, as React advises for props).
 * `reveal`: a key for a search hit the fold hides (hiddenHit); a new one opens the fold.
 */
export function useFold(openAtFirst = false, reveal: string | null = null): [boolean, (open: boolean) => void] {
  // rendered for a file, every line is prepared: the fold is a <details> the reader opens (StaticFold)
  const rendering = useStaticRendering();
  const allOpen = useFoldsOpen() || rendering !== null;
  const [open, setOpen] = useState(openAtFirst || allOpen || reveal !== null);
  const [seen, setSeen] = useState(allOpen);
  const [revealed, setRevealed] = useState(reveal);
  if (seen !== allOpen) {
    setSeen(allOpen);
    setOpen(allOpen);
  }
  if (revealed !== reveal) {
    setRevealed(reveal);
    if (reveal !== null) setOpen(true);
  }
  return [open, setOpen];
}

/**
 * A block of text's fold, as CodeBlock and AnsiBlock hold it: its state (useFold), opened by a search hit it
 * would hide, and what it shows (foldedText). Each scan of the whole text runs once per text and query or fold,
 * not per render.
 */
export function useTextFold(text: string, openAtFirst: boolean) {
  const terms = useSearchTerms();
  const hit = useMemo(() => hiddenHit(text, terms), [text, terms]);
  const fold = useFold(openAtFirst, hit && `${terms.join(" ")}@${hit.line}`);
  const [open] = fold;
  const { shown, total, cut } = useMemo(() => foldedText(text, open), [text, open]);
  return { terms, fold, open, shown, total, cut, focusLine: hit?.line ?? null };
}

interface Props {
  count: number;
  renderLine: (index: number) => ReactNode;
  /** said to screen readers: "output of bash", "src/a.ts" */
  label: string;
  className?: string;
  /** the fold's state, when the parent holds it (useFold) to prepare all the lines once it opens */
  fold?: [boolean, (open: boolean) => void];
  /** lines cut at LONG_LINE while folded (foldedText): the fold has a button however few lines there are */
  cut?: boolean;
  /** a line to bring into view once open (a search hit the fold hid) */
  focusLine?: number | null;
}

export function FoldedLines({ count, renderLine, label, className = "", fold, cut = false, focusLine = null }: Props) {
  const rendering = useStaticRendering();
  const own = useFold();
  const [open, setOpen] = fold ?? own;
  const foldable = count > FOLD_LINES || cut;
  const folded = foldable && !open;
  const toggle = () => setOpen(!open);
  const box = `overflow-x-auto rounded border border-border bg-surface font-mono text-[12px] leading-[18px] ${className}`;
  if (rendering) return <StaticFold count={count} renderLine={renderLine} label={label} className={box} />;
  return (
    <div className="min-w-0" data-folded={folded ? "true" : undefined}>
      {open && count > VIRTUAL_LINES ? (
        <VirtualLines count={count} renderLine={renderLine} label={label} className={box} focusLine={focusLine} />
      ) : (
        <div role="group" aria-label={label} className={`${box} py-1 whitespace-pre-wrap break-words`}>
          {Array.from({ length: folded ? FOLD_LINES : count }, (_, i) => renderLine(i))}
        </div>
      )}
      {foldable ? (
        <button type="button" onClick={toggle} aria-expanded={open} className="mt-0.5 text-[12px] text-accent hover:underline">
          {open
            ? "Show fewer lines"
            : count > FOLD_LINES
              ? `Show ${count - FOLD_LINES} more ${count - FOLD_LINES === 1 ? "line" : "lines"}`
              : "Show whole lines"}
        </button>
      ) : null}
    </div>
  );
}

/** Folded in a file: the first lines, then the rest in a <details> whose summary says how many it holds. */
function StaticFold({ count, renderLine, label, className }: { count: number; renderLine: (index: number) => ReactNode; label: string; className: string }) {
  const rest = count - FOLD_LINES;
  const lines = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => renderLine(from + i));
  return (
    <div className="min-w-0" data-folded={rest > 0 ? "true" : undefined}>
      <div role="group" aria-label={label} className={`${className} py-1 whitespace-pre-wrap break-words`}>
        {lines(0, Math.min(count, FOLD_LINES))}
        {rest > 0 ? (
          <details className="group">
            <summary className="cursor-pointer list-none px-2 font-sans text-accent hover:underline">
              <span className="group-open:hidden">
                Show {rest} more {rest === 1 ? "line" : "lines"}
              </span>
              <span className="hidden group-open:inline">Hide the {rest} lines below</span>
            </summary>
            {lines(FOLD_LINES, count)}
          </details>
        ) : null}
      </div>
    </div>
  );
}

function VirtualLines({
  count,
  renderLine,
  label,
  className,
  focusLine,
}: {
  count: number;
  renderLine: (index: number) => ReactNode;
  label: string;
  className: string;
  focusLine: number | null;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read only in this render
  const virtualizer = useVirtualizer({ count, getScrollElement: () => scrollRef.current, estimateSize: () => LINE_PX, overscan: 20, useFlushSync: false });
  useEffect(() => {
    if (focusLine !== null && focusLine < count) virtualizer.scrollToIndex(focusLine, { align: "center" });
  }, [virtualizer, focusLine, count]);
  return (
    <div ref={scrollRef} role="group" aria-label={label} className={`${className} max-h-[60vh] overflow-y-auto overscroll-contain whitespace-pre`}>
      <div style={{ height: virtualizer.getTotalSize(), position: "relative", minWidth: "100%", width: "max-content" }}>
        {virtualizer.getVirtualItems().map((item) => (
          <div key={item.key} style={{ position: "absolute", top: 0, left: 0, right: 0, height: LINE_PX, transform: `translateY(${item.start}px)` }}>
            {renderLine(item.index)}
          </div>
        ))}
      </div>
    </div>
  );
}

/**
 * What a block shows: all of its text when open; folded, its first lines, each cut at LONG_LINE characters.
 * `total` is how many lines the whole text has, `cut` whether a line was cut.
 */
export function foldedText(text: string, open: boolean): { shown: string; total: number; cut: boolean } {
  const { head, total } = headOf(text, FOLD_LINES);
  if (open) return { shown: text, total, cut: false };
  const base = total <= FOLD_LINES ? text : head;
  if (base.length <= LONG_LINE) return { shown: base, total, cut: false };
  let cut = false;
  const lines = base.split("\n").map((line) => {
    if (line.length <= LONG_LINE) return line;
    cut = true;
    return `${line.slice(0, LONG_LINE)} … (${(line.length - LONG_LINE).toLocaleString("en-US")} more characters)`;
  });
  return { shown: lines.join("\n"), total, cut };
}

/** The first `n` lines of a text and how many it has, without splitting all of it (a 5 MB output is one scan). */
export function headOf(text: string, n: number): { head: string; total: number } {
  let total = 1;
  let cut = -1;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) {
    if (total === n) cut = at;
    total++;
  }
  return { head: cut === -1 ? text : text.slice(0, cut), total };
}

/**
 * Where the first occurrence of a search term lies that the fold hides: past the first FOLD_LINES lines, or past
 * LONG_LINE characters into a line. Null when every occurrence shows while folded, or there is none. `terms`
 * are case-folded (queryTerms).
 */
export function hiddenHit(text: string, terms: readonly string[]): { line: number } | null {
  if (!terms.length) return null;
  const lower = foldCase(text);
  let first: number | null = null;
  for (const term of terms) {
    let line = 0;
    let lineStart = 0;
    let scanned = 0;
    for (let at = lower.indexOf(term); at >= 0; at = lower.indexOf(term, at + term.length)) {
      for (let nl = lower.indexOf("\n", scanned); nl !== -1 && nl < at; nl = lower.indexOf("\n", nl + 1)) {
        line++;
        lineStart = nl + 1;
      }
      scanned = at;
      if (first !== null && line >= first) break;
      if (line >= FOLD_LINES || at + term.length - lineStart > LONG_LINE) {
        first = line;
        break;
      }
    }
  }
  return first === null ? null : { line: first };
}
