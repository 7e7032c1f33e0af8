"use client";

/**
 * Rendering for a file, not a page: the exported HTML transcript is markup with no script, drawn once by
 * react-dom/server. Inside `StaticRendering` the renderers highlight at once (no worker, no effect runs), fold
 * with <details> (no button could open them) and draw every line (nothing to scroll a virtual list).
 */
import { createContext, useContext, type ReactNode } from "react";
import type { CodeLine } from "@/lib/render/code-lines";

/** The lines of `code` highlighted in `language`, or null to leave them plain. */
export type SyncHighlight = (code: string, language: string) => CodeLine[] | null;

interface Static {
  highlight: SyncHighlight;
}

const StaticContext = createContext<Static | null>(null);

export function StaticRendering({ highlight, children }: { highlight: SyncHighlight; children?: ReactNode }) {
  return <StaticContext.Provider value={{ highlight }}>{children}</StaticContext.Provider>;
}

/** How to render for a file, or null in the app. */
export function useStaticRendering(): Static | null {
  return useContext(StaticContext);
}
