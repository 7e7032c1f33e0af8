import type { CodeLine } from "@/lib/render/code-lines";

/** A block of code to highlight in a language (a name knownLanguage takes). */
export interface HighlightRequest {
  id: number;
  code: string;
  language: string;
}

export interface HighlightReply {
  id: number;
  lines: CodeLine[];
}
