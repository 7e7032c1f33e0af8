"use client";

/**
 * The calls and results near what is shown (ToolLinks), for the tool views inside it: a call finds its result
 * here, a result its call. `separate`: the calls and their results are shown as messages of their own (the
 * Context tab), so a call draws what it asked and a result what came back, each once.
 */
import { createContext, useContext, type ReactNode } from "react";
import { NO_TOOL_LINKS, type ToolLinks } from "@/lib/session/features/tool-links";

interface Shown {
  links: ToolLinks;
  separate: boolean;
}

const Links = createContext<Shown>({ links: NO_TOOL_LINKS, separate: false });

export function ToolLinksProvider({ links, separate = false, children }: { links: ToolLinks; separate?: boolean; children: ReactNode }) {
  return <Links.Provider value={{ links, separate }}>{children}</Links.Provider>;
}

export function useToolLinks(): Shown {
  return useContext(Links);
}
