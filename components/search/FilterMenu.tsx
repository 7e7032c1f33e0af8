"use client";

/**
 * The graph's filter, in the top bar: pi's `/tree` modes (default, no-tools,
 * user-only, labeled-only, all) or none, plus entry types and message roles
 * to hide. The button says how many entries are drawn.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import { Button } from "@/components/ui/Button";
import { Icon } from "@/components/graph/icons";
import { sessionOf, useViewer, viewer } from "@/components/viewer/store";
import { filterChoices, isFiltering, NO_FILTER, TREE_FILTER_MODES, visibilityOf, type TreeFilter, type TreeFilterMode } from "@/lib/layout/tree-filter";
import { useSessionMemo } from "@/components/viewer/use-session-memo";

const MODE_HELP: Record<TreeFilterMode, string> = {
  default: "pi's default: hides labels, custom entries, model and thinking-level changes, session info, and assistant messages that only call tools",
  "no-tools": "pi's default, and tool results hidden too",
  "user-only": "only your messages",
  "labeled-only": "only labelled entries",
  all: "every entry but assistant messages that only call tools (pi keeps the leaf, errors and aborts)",
};

function toggled(set: ReadonlySet<string>, key: string): Set<string> {
  const next = new Set(set);
  if (next.has(key)) next.delete(key);
  else next.add(key);
  return next;
}

function Chip({ on, count, onClick, children, testId }: { on: boolean; count: number; onClick(): void; children: string; testId: string }) {
  return (
    <button
      type="button"
      aria-pressed={on}
      onClick={onClick}
      data-testid={testId}
      title={on ? `Shown: click to hide ${children}` : `Hidden: click to show ${children}`}
      className={`inline-flex h-6 items-center gap-1 rounded-full border px-2 font-mono text-[11px] ${on ? "border-border-strong bg-background text-foreground" : "border-dashed border-border text-subtle line-through"}`}
    >
      {children}
      <span className="text-subtle tabular-nums no-underline">{count.toLocaleString("en-US")}</span>
    </button>
  );
}

function FilterPanel({ filter, choices, onClose }: { filter: TreeFilter; choices: ReturnType<typeof filterChoices>; onClose(): void }) {
  const set = (patch: Partial<TreeFilter>) => viewer.setTreeFilter({ ...filter, ...patch });
  const modes: (TreeFilterMode | null)[] = [null, ...TREE_FILTER_MODES];
  return (
    <div
      role="dialog"
      aria-label="Filter the graph"
      className="absolute top-full right-0 z-50 mt-1 flex w-[26rem] max-w-[92vw] flex-col gap-3 rounded-md border border-border-strong bg-background p-3 text-xs shadow-lg"
      data-testid="filter-panel"
      onKeyDown={(e) => e.key === "Escape" && onClose()}
    >
      <fieldset>
        <legend className="mb-1.5 text-[11px] font-semibold tracking-wide text-muted uppercase">pi /tree mode</legend>
        <div role="radiogroup" aria-label="pi /tree filter mode" className="flex flex-wrap gap-0.5 rounded-md border border-border bg-surface p-0.5">
          {modes.map((mode) => {
            const on = filter.mode === mode;
            return (
              <button
                key={mode ?? "none"}
                type="button"
                role="radio"
                aria-checked={on}
                title={mode ? MODE_HELP[mode] : "No mode: every entry, as the viewer draws by default"}
                onClick={() => set({ mode })}
                data-testid={`filter-mode-${mode ?? "none"}`}
                className={`h-6 rounded px-2 font-mono text-[11px] ${on ? "bg-background text-foreground shadow-sm ring-1 ring-border-strong" : "text-muted hover:text-foreground"}`}
              >
                {mode ?? "off"}
              </button>
            );
          })}
        </div>
        <p className="mt-1.5 text-[11px] leading-4 text-muted">
          {filter.mode ? MODE_HELP[filter.mode] : "Every entry is drawn."} Hidden entries’ children hang from their nearest shown ancestor, as in pi.
        </p>
      </fieldset>
      <fieldset>
        <legend className="mb-1.5 text-[11px] font-semibold tracking-wide text-muted uppercase">Entry types</legend>
        <div className="flex flex-wrap gap-1">
          {choices.types.map(([type, count]) => (
            <Chip
              key={type}
              on={!filter.hiddenTypes.has(type)}
              count={count}
              onClick={() => set({ hiddenTypes: toggled(filter.hiddenTypes, type) })}
              testId={`filter-type-${type}`}
            >
              {type}
            </Chip>
          ))}
        </div>
      </fieldset>
      {choices.roles.length > 0 && (
        <fieldset>
          <legend className="mb-1.5 text-[11px] font-semibold tracking-wide text-muted uppercase">Message roles</legend>
          <div className="flex flex-wrap gap-1">
            {choices.roles.map(([role, count]) => (
              <Chip
                key={role}
                on={!filter.hiddenRoles.has(role)}
                count={count}
                onClick={() => set({ hiddenRoles: toggled(filter.hiddenRoles, role) })}
                testId={`filter-role-${role}`}
              >
                {role}
              </Chip>
            ))}
          </div>
        </fieldset>
      )}
      <div className="flex justify-end gap-2">
        <Button size="sm" variant="ghost" onClick={() => viewer.setTreeFilter(NO_FILTER)} disabled={!isFiltering(filter)} data-testid="filter-reset">
          Show everything
        </Button>
        <Button size="sm" onClick={onClose}>
          Done
        </Button>
      </div>
    </div>
  );
}

const NO_CHOICES: ReturnType<typeof filterChoices> = { types: [], roles: [] };

export function FilterMenu() {
  const session = useViewer(sessionOf);
  const filter = useViewer((s) => s.treeFilter);
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);

  // each a pass over every entry: made when the panel opens, and when a filter is on to count what it shows
  const choices = useSessionMemo((session) => (open ? filterChoices(session) : null), [open], { light: true }) ?? NO_CHOICES;
  const active = isFiltering(filter);
  const visible = useSessionMemo((session) => (active ? visibilityOf(session, filter) : null), [filter, active], { light: true });
  const shown = useMemo(() => {
    if (!session || !visible) return null;
    let n = 0;
    for (const id of session.tree.ids()) if (visible(id)) n++;
    return n;
  }, [session, visible]);

  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("mousedown", close);
    return () => document.removeEventListener("mousedown", close);
  }, [open]);

  if (!session) return null;
  const summary = [filter.mode, filter.hiddenTypes.size + filter.hiddenRoles.size > 0 ? `−${filter.hiddenTypes.size + filter.hiddenRoles.size}` : null]
    .filter(Boolean)
    .join(" ");

  return (
    <div ref={root} className="relative flex shrink-0 items-center gap-1.5">
      <button
        type="button"
        aria-expanded={open}
        aria-haspopup="dialog"
        onClick={() => setOpen((o) => !o)}
        data-testid="filter-button"
        data-filter-mode={filter.mode ?? "none"}
        title="Filter the graph: pi's /tree modes, entry types, message roles"
        className={`flex h-7 items-center gap-1.5 rounded-md border px-2 text-xs ${active ? "border-accent/40 bg-accent-soft text-accent" : "border-border-strong text-muted hover:bg-surface-2 hover:text-foreground"}`}
      >
        <Icon name="filter" className="h-3.5 w-3.5" />
        {active ? (
          <>
            <span className="font-mono">{summary}</span>
            <span className="tabular-nums" data-testid="filter-shown">
              {shown?.toLocaleString("en-US")}/{session.tree.size.toLocaleString("en-US")}
            </span>
          </>
        ) : (
          "Filter"
        )}
      </button>
      {open && <FilterPanel filter={filter} choices={choices} onClose={() => setOpen(false)} />}
    </div>
  );
}
