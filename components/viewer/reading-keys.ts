"use client";

// The reading toggles' keys (t, o, h), as pi's own HTML export has them: anywhere in the viewer but in a field.
import { useEffect } from "react";
import { viewer } from "./store";
import type { ReadingToggles } from "./view-params";

export interface ReadingKey {
  key: string;
  toggle: keyof ReadingToggles;
  help: string;
}

export const READING_KEYS: readonly ReadingKey[] = [
  { key: "t", toggle: "thinking", help: "Show / hide thinking" },
  { key: "o", toggle: "outputs", help: "Unfold / fold tool outputs and long code" },
  { key: "h", toggle: "hidden", help: "Show / hide custom messages pi does not display" },
];

/** true when the key goes to a field (or a menu that reads letters), not to the viewer */
export function typingInto(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return (
    !!el &&
    (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT" || el.isContentEditable || !!el.closest?.("[role=menu], [role=dialog]"))
  );
}

export function useReadingKeys(): void {
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented || typingInto(event.target)) return;
      const binding = READING_KEYS.find((b) => b.key === event.key);
      if (!binding) return;
      event.preventDefault();
      viewer.setReading({ [binding.toggle]: !viewer.get().reading[binding.toggle] });
    }
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);
}
