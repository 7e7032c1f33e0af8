"use client";

// The lines of a block of code: plain at once, highlighted when the highlighter answers (in the page or a worker).
import { useEffect, useMemo, useState } from "react";
import { highlightCode } from "@/lib/client/highlight-client";
import { plainLines, type CodeLine } from "@/lib/render/code-lines";

export function useHighlighted(code: string, language: string | null): CodeLine[] {
  const plain = useMemo(() => plainLines(code), [code]);
  const [done, setDone] = useState<{ code: string; language: string; lines: CodeLine[] } | null>(null);
  useEffect(() => {
    if (!language) return;
    let live = true;
    void highlightCode(code, language).then((lines) => {
      if (live && lines) setDone({ code, language, lines });
    });
    return () => {
      live = false;
    };
  }, [code, language]);
  return done && done.code === code && done.language === language ? done.lines : plain;
}
