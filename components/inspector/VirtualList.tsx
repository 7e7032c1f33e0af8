"use client";

/**
 * A scrolling list that renders only the rows in view (thousands of path
 * entries or context messages stay cheap), with rows measured as they render
 * so expanded rows can grow. Arrow keys, Home and End move focus between the
 * rows' `[data-row-focus]` elements, scrolling as needed.
 */
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useRef, useState, type HTMLAttributes, type KeyboardEvent, type ReactNode } from "react";

interface Props {
  count: number;
  estimateSize: (index: number) => number;
  getKey: (index: number) => string;
  renderRow: (index: number) => ReactNode;
  /** attributes of each row element (data-entry-id and the like) */
  rowProps?: (index: number) => HTMLAttributes<HTMLDivElement> & Record<`data-${string}`, string | undefined>;
  /** scrolled into view when it changes (the selected entry) */
  revealIndex?: number | null;
  label: string;
  testId?: string;
  className?: string;
}

export function VirtualList({ count, estimateSize, getKey, renderRow, rowProps, revealIndex = null, label, testId, className = "" }: Props) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const [pendingFocus, setPendingFocus] = useState<number | null>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer's methods are used only in handlers and this render
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize,
    getItemKey: getKey,
    overscan: 8,
    useFlushSync: false,
  });

  useEffect(() => {
    if (revealIndex !== null && revealIndex >= 0 && revealIndex < count) virtualizer.scrollToIndex(revealIndex, { align: "auto" });
  }, [revealIndex, count, virtualizer]);

  const items = virtualizer.getVirtualItems();
  useEffect(() => {
    if (pendingFocus === null) return;
    const target = scrollRef.current?.querySelector<HTMLElement>(`[data-index="${pendingFocus}"] [data-row-focus]`);
    if (target) {
      target.focus({ preventScroll: true });
      setPendingFocus(null);
    }
  }, [pendingFocus, items]);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const row = (event.target as HTMLElement).closest<HTMLElement>("[data-index]");
    const current = row ? Number(row.dataset.index) : -1;
    const next =
      event.key === "ArrowDown"
        ? Math.min(count - 1, current + 1)
        : event.key === "ArrowUp"
          ? Math.max(0, current - 1)
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? count - 1
              : null;
    if (next === null || count === 0) return;
    event.preventDefault();
    virtualizer.scrollToIndex(next, { align: "auto" });
    setPendingFocus(next);
  }

  return (
    <div ref={scrollRef} onKeyDown={onKeyDown} data-testid={testId} className={`min-h-0 overflow-auto overscroll-contain ${className}`}>
      <div role="list" aria-label={label} style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
        {items.map((item) => (
          <div
            key={item.key}
            ref={virtualizer.measureElement}
            data-index={item.index}
            role="listitem"
            {...rowProps?.(item.index)}
            style={{ position: "absolute", top: 0, left: 0, width: "100%", transform: `translateY(${item.start}px)` }}
          >
            {renderRow(item.index)}
          </div>
        ))}
      </div>
    </div>
  );
}
