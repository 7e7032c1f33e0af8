"use client";

/**
 * Reads the selected entry's context content while the page is idle, before
 * the Context tab asks for it. A session read on demand (an upload, a library
 * file) shows a tab first from its light entries and again once the content
 * is read; read ahead, the Context tab opens in one render, with its content.
 */
import { useEffect } from "react";
import type { Session } from "@/lib/session";
import { contextModel } from "./context-model";

/** How long an idle callback may wait: a selection the user stays on is read ahead soon, even on a busy page. */
const WAIT_MS = 300;

export function useContextAhead(session: Session | null, id: string | null, shown: boolean): void {
  useEffect(() => {
    if (!session || id === null || shown || !session.tree.readsOnDemand || typeof requestIdleCallback !== "function") return;
    const handle = requestIdleCallback(
      () => {
        let lines: number[];
        try {
          lines = session.tree.readLightly(() => contextModel(session, id)).lines;
        } catch {
          return; // pi cannot answer here: the tab says why when it is opened
        }
        // a failed read is said where the content is shown, when it is asked for again
        session.tree.readContent(lines).catch(() => undefined);
      },
      { timeout: WAIT_MS },
    );
    return () => cancelIdleCallback(handle);
  }, [session, id, shown]);
}
