"use client";

// The lines of a block of code: plain at once, highlighted when the highlighter answers (in the page or a worker);
// highlighted at once when rendered for a file (StaticRendering).
import { useEffect, useMemo, useState } from "react";
import { highlightCode } from "@/lib/client/highlight-client";
import { plainLines, type CodeLine } from "@/lib/render/code-lines";
import { useStaticRendering } from "./static-render";

export function useHighlighted(code: string, language: string | null): CodeLine[] {
  const rendering = useStaticRendering();
  const first = useMemo(() => (rendering && language ? rendering.highlight(code, language) : null) ?? plainLines(code), [rendering, code, language]);
  const [done, setDone] = useState<{ code: string; language: string; lines: CodeLine[] } | null>(null);
  useEffect(() => {
    if (!language || rendering) return;
    let live = true;
    void highlightCode(code, language).then((lines) => {
      if (live && lines) setDone({ code, language, lines });
    });
    return () => {
      live = false;
    };
  }, [rendering, code, language]);
  return done && done.code === code && done.language === language ? done.lines : first;
}
