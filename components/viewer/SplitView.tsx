"use client";

// The graph beside the inspector, with a draggable (and keyboard-operable) divider; the width is remembered.
import { useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from "react";

const KEY = "inspector-width";
const DEFAULT = 460;
const MIN = 320;
const MIN_MAIN = 360;
/** the compare pane puts two columns side by side: it asks for at least this much */
const WIDE = 680;

function storedWidth(): number {
  try {
    const value = Number(localStorage.getItem(KEY));
    return Number.isFinite(value) && value >= MIN ? value : DEFAULT;
  } catch {
    return DEFAULT; // storage disabled
  }
}

export function SplitView({ main, side, wide = false }: { main: ReactNode; side: ReactNode; wide?: boolean }) {
  // only ever rendered in the browser (after a session has loaded), so localStorage is there
  const [width, setWidth] = useState(storedWidth);
  const container = useRef<HTMLDivElement>(null);

  const clamp = (value: number) => {
    const total = container.current?.clientWidth ?? window.innerWidth;
    return Math.round(Math.max(MIN, Math.min(value, total - MIN_MAIN)));
  };
  const commit = (value: number) => {
    const next = clamp(value);
    setWidth(next);
    try {
      localStorage.setItem(KEY, String(next));
    } catch {
      // storage disabled: the width lasts until the page reloads
    }
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (!event.currentTarget.hasPointerCapture(event.pointerId)) return;
    const right = container.current?.getBoundingClientRect().right ?? window.innerWidth;
    commit(right - event.clientX);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.shiftKey ? 80 : 20;
    if (event.key === "ArrowLeft") commit(width + step);
    else if (event.key === "ArrowRight") commit(width - step);
    else return;
    event.preventDefault();
  };

  return (
    <div ref={container} className="flex min-h-0 flex-1">
      <div className="flex min-w-0 flex-1 flex-col">{main}</div>
      <div
        role="separator"
        aria-orientation="vertical"
        aria-label="Resize the inspector"
        aria-valuenow={width}
        aria-valuemin={MIN}
        tabIndex={0}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onKeyDown={onKeyDown}
        className="group relative w-px shrink-0 cursor-col-resize bg-border focus-visible:outline-none"
      >
        <span className="absolute inset-y-0 -right-1 -left-1 z-10 group-hover:bg-accent/40 group-focus-visible:bg-accent/60" />
      </div>
      <aside
        id="inspector"
        tabIndex={-1}
        aria-label="Inspector"
        style={{ width: wide ? Math.max(width, Math.min(WIDE, window.innerWidth - MIN_MAIN)) : width }}
        className="min-h-0 shrink-0 focus:outline-none"
      >
        {side}
      </aside>
    </div>
  );
}
