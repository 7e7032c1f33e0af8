"use client";

/**
 * A custom message pi does not display (`display: false`: an extension's note to the model) is folded away as
 * pi's export folds it, with a line saying so, until "h" shows such messages.
 */
import type { ReactNode } from "react";
import { useViewer } from "@/components/viewer/store";

export function NotDisplayed({ display, children }: { display: unknown; children: ReactNode }) {
  const shown = useViewer((s) => s.reading.hidden);
  if (display !== false || shown) return children;
  return (
    <p className="text-[12px] text-subtle" data-not-displayed="true">
      pi does not display this message (display: false); the model is sent it. Press <kbd className="font-mono">h</kbd> to show it.
    </p>
  );
}
