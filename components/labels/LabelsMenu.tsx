"use client";

/**
 * "Labels": a top-bar button opening the list of every label in the session;
 * choosing one selects its entry, and the graph reveals and centres it.
 * Keyboard: the button opens it, ↑/↓/Home/End move, Enter jumps, Esc closes.
 */
import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { KindBadge } from "@/components/inspector/KindBadge";
import { sessionOf, useViewer, viewer } from "@/components/viewer/store";
import { labelItems } from "./label-items";
import { labelText } from "./LabelChip";
import { useSessionMemo } from "@/components/viewer/use-session-memo";

export function LabelsMenu() {
  const session = useViewer(sessionOf);
  const selectedId = useViewer((s) => s.selectedId);
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  // (the list itself is made only while it is open: it reads every label's target)
  const count = useSessionMemo((current) => current.labels().size, []) ?? 0;

  useEffect(() => {
    if (!open) return;
    panel.current?.querySelector<HTMLElement>("[data-label-item]:not(:disabled)")?.focus();
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!panel.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointer);
    return () => document.removeEventListener("pointerdown", onPointer);
  }, [open]);

  if (!session) return null;

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const jump = (id: string) => {
    viewer.select(id);
    setOpen(false);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      close();
      return;
    }
    const all = Array.from(panel.current?.querySelectorAll<HTMLElement>("[data-label-item]:not(:disabled)") ?? []);
    const at = all.indexOf(document.activeElement as HTMLElement);
    const next =
      event.key === "ArrowDown"
        ? Math.min(all.length - 1, at + 1)
        : event.key === "ArrowUp"
          ? Math.max(0, at - 1)
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? all.length - 1
              : null;
    if (next === null || all.length === 0) return;
    event.preventDefault();
    all[next]?.focus();
  };

  return (
    <div className="relative">
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-haspopup="dialog"
        aria-controls={open ? "labels-panel" : undefined}
        onClick={() => setOpen(!open)}
        title="Labels in this session: jump to one"
        data-testid="labels-button"
        className="flex items-center gap-1 rounded px-1.5 py-0.5 text-xs text-muted hover:bg-surface-2 hover:text-foreground focus-visible:outline focus-visible:outline-2 focus-visible:outline-accent"
      >
        <span aria-hidden="true" className="font-semibold text-pink-600 dark:text-pink-400">
          #
        </span>
        Labels <span className="tabular-nums">{count}</span>
      </button>
      {open ? (
        <div
          ref={panel}
          id="labels-panel"
          role="dialog"
          aria-label="Labels"
          onKeyDown={onKeyDown}
          className="absolute top-full right-0 z-50 mt-1 flex max-h-[60vh] w-[380px] flex-col overflow-hidden rounded-md border border-border bg-background text-[12.5px] shadow-lg"
        >
          <p className="border-b border-border px-3 py-1.5 text-[11px] font-semibold tracking-wide text-muted uppercase">Labels · {count}</p>
          <LabelsList selectedId={selectedId} jump={jump} />
        </div>
      ) : null}
    </div>
  );
}

/** The labels, each with its target's kind and first words (read only while the list is open). */
function LabelsList({ selectedId, jump }: { selectedId: string | null; jump: (id: string) => void }) {
  const items = useSessionMemo(labelItems, []) ?? [];
  return (
    <>
      {items.length === 0 ? (
        <p className="px-3 py-3 text-muted">No labels in this session. pi sets them with /label (or an extension&apos;s label entries).</p>
      ) : (
        <ul className="min-h-0 overflow-auto py-1" data-testid="labels-list">
          {items.map((item) => (
            <li key={item.targetId}>
              <button
                type="button"
                data-label-item
                data-entry-id={item.targetId}
                disabled={item.target === null}
                aria-current={item.targetId === selectedId ? "true" : undefined}
                onClick={() => jump(item.targetId)}
                title={
                  item.target
                    ? `Select ${item.targetId} (line ${item.target.line}); set on line ${item.labelLine}`
                    : `${item.targetId} is not in the file (pi keeps the label)`
                }
                className={`flex w-full min-w-0 flex-col gap-0.5 px-3 py-1.5 text-left hover:bg-surface focus-visible:bg-surface focus-visible:outline-none focus-visible:ring-1 focus-visible:ring-accent focus-visible:ring-inset disabled:cursor-not-allowed disabled:opacity-60 ${item.targetId === selectedId ? "bg-accent/10" : ""}`}
              >
                <span className="flex min-w-0 items-center gap-2">
                  <span className="min-w-0 truncate font-medium text-pink-700 dark:text-pink-300"># {labelText(item.label)}</span>
                  <span className="ml-auto shrink-0 font-mono text-[11px] text-muted">{item.targetId}</span>
                </span>
                <span className="flex min-w-0 items-center gap-1.5 text-[12px] text-muted">
                  {item.target ? (
                    <>
                      <KindBadge kind={item.target.kind} />
                      <span className="shrink-0">{item.target.kind.label}</span>
                      <span className="min-w-0 truncate">· {item.target.snippet}</span>
                    </>
                  ) : (
                    <span>not in the file</span>
                  )}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
