"use client";

/**
 * The inspector pane: the selected entry (Entry), its path from the root
 * (Path) and what the model would see there (Context), plus the exports.
 * Reads only the viewer store; the page decides where the pane sits.
 */
import { useDeferredValue, useEffect, useRef, useState, type KeyboardEvent, type RefObject } from "react";
import { CompareWithButton } from "@/components/compare/CompareWithButton";
import { StatsTab } from "@/components/stats/StatsTab";
import { sessionOf, useViewer, viewer, type InspectorTab } from "@/components/viewer/store";
import { useSessionMemo } from "@/components/viewer/use-session-memo";
import { useContextAhead } from "./use-context-ahead";
import type { Session } from "@/lib/session";
import { ContextTab } from "./ContextTab";
import { EntryTab } from "./EntryTab";
import { ExportButtons } from "./ExportButtons";
import { PathTab } from "./PathTab";
import { QueryError } from "./QueryError";
import { ToolLinksProvider } from "@/components/transcript/tool-links";
import { FoldsOpen } from "@/components/transcript/FoldedLines";
import { SearchTermsProvider } from "@/components/transcript/search-terms";
import { NO_TOOL_LINKS, toolLinksNear } from "@/lib/session/features/tool-links";

const TABS: { id: InspectorTab; name: string }[] = [
  { id: "entry", name: "Entry" },
  { id: "path", name: "Path" },
  { id: "context", name: "Context" },
  { id: "stats", name: "Stats" },
];

function Tabs({ tab }: { tab: InspectorTab }) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const current = TABS.findIndex((t) => t.id === tab);
    const next =
      event.key === "ArrowRight"
        ? (current + 1) % TABS.length
        : event.key === "ArrowLeft"
          ? (current + TABS.length - 1) % TABS.length
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? TABS.length - 1
              : -1;
    if (next < 0) return;
    event.preventDefault();
    viewer.setTab(TABS[next]!.id);
    refs.current[next]?.focus();
  }
  return (
    <div role="tablist" aria-label="Inspector" onKeyDown={onKeyDown} className="flex shrink-0 gap-0.5 border-b border-border px-2">
      {TABS.map((t, i) => {
        const selected = t.id === tab;
        return (
          <button
            key={t.id}
            ref={(el) => {
              refs.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`inspector-tab-${t.id}`}
            aria-selected={selected}
            aria-controls={`inspector-panel-${t.id}`}
            tabIndex={selected ? 0 : -1}
            onClick={() => viewer.setTab(t.id)}
            className={`-mb-px border-b-2 px-2.5 py-1.5 text-[12.5px] font-medium focus-visible:outline-none focus-visible:ring-1 focus-visible:ring-accent ${selected ? "border-accent text-foreground" : "border-transparent text-muted hover:text-foreground"}`}
          >
            {t.name}
          </button>
        );
      })}
    </div>
  );
}

function Placeholder({ children }: { children: string }) {
  return <p className="p-4 text-[12.5px] text-muted">{children}</p>;
}

/** Says, beside the pane's title, while content is read from the session's file for what is shown; and when that failed. */
function ContentReadStatus() {
  const reads = useViewer((s) => s.contentReads);
  if (reads.error)
    return (
      <span role="alert" data-testid="content-read-error" className="min-w-0 flex-1 truncate text-[11.5px] text-red-700 dark:text-red-300" title={reads.error}>
        {reads.error}
      </span>
    );
  return (
    <span role="status" data-testid="content-reading" className="min-w-0 flex-1 truncate text-[11px] text-muted">
      {reads.pending > 0 ? "reading content…" : ""}
    </span>
  );
}

/** a line longer than this is shown light first: decoding and parsing it (a 5 MB output) is a long task */
const LIGHT_FIRST_BYTES = 512 * 1024;

/**
 * The Entry tab with the entry's content as written (read from the file first when the session reads it on
 * demand). An entry whose line is big and not parsed yet shows its light self (long strings cut) for a frame:
 * the click paints at once, and the whole entry follows in a task of its own.
 */
function FullEntryTab({ session, id }: { session: Session; id: string }) {
  const heavy =
    useSessionMemo(
      (open) => {
        const light = open.tree.get(id);
        return light ? (open.tree.fullCost(light) ?? 0) > LIGHT_FIRST_BYTES : false;
      },
      [id],
      { light: true },
    ) ?? false;
  const [wholeFor, setWholeFor] = useState<string | null>(null);
  useEffect(() => {
    if (!heavy) return;
    // a frame first (its paint shows the light entry), then the whole one
    let timer = 0;
    const frame = requestAnimationFrame(() => {
      timer = window.setTimeout(() => setWholeFor(id), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [heavy, id]);
  const lightFirst = heavy && wholeFor !== id;
  const result = useSessionMemo(
    (open) => {
      const light = open.tree.get(id);
      try {
        return { entry: light ? (lightFirst ? light : open.tree.full(light)) : null, links: toolLinksNear(open.tree, id), error: null };
      } catch (error) {
        return { entry: null, links: NO_TOOL_LINKS, error };
      }
    },
    [id, lightFirst],
  );
  if (result?.error) return <QueryError error={result.error} what="entry" />;
  return result?.entry ? (
    <ToolLinksProvider links={result.links}>
      <div data-light-first={lightFirst ? "true" : undefined} className="contents">
        <EntryTab session={session} entry={result.entry} />
      </div>
    </ToolLinksProvider>
  ) : null;
}

/**
 * As a browser's find does: when the search or the entry changes, the first hit marked in the panel is scrolled
 * into view (a fold that hid it has opened by then; a virtual list has scrolled to it a frame before).
 */
function useFirstHitInView(panel: RefObject<HTMLDivElement | null>, query: string, selectedId: string | null, tab: string) {
  useEffect(() => {
    if (!query.trim()) return;
    let frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(() => panel.current?.querySelector("mark[data-search-hit]")?.scrollIntoView({ block: "center" }));
    });
    return () => cancelAnimationFrame(frame);
  }, [panel, query, selectedId, tab]);
}

export function Inspector() {
  const session = useViewer(sessionOf);
  const selectedId = useViewer((s) => s.selectedId);
  const tab = useViewer((s) => s.tab);
  const outputsOpen = useViewer((s) => s.reading.outputs);
  // (the inspector follows the search a step behind the box: a keystroke is not held up by a long output's scan)
  const query = useDeferredValue(useViewer((s) => s.searchQuery));
  const panelRef = useRef<HTMLDivElement>(null);
  useFirstHitInView(panelRef, query, selectedId, tab);
  useViewer((s) => s.doc); // drawn again as the session grows: the selected entry may just have arrived
  const entry = session && selectedId ? session.tree.get(selectedId) : undefined;
  useContextAhead(session, entry ? entry.id : null, tab === "context");

  let panel;
  if (!session) panel = <Placeholder>No session loaded.</Placeholder>;
  else if (tab === "stats") panel = <StatsTab selectedId={entry ? entry.id : null} />;
  else if (!selectedId || !entry)
    panel = <Placeholder>{selectedId ? `Entry ${selectedId} is not in this file.` : "Select an entry to inspect it."}</Placeholder>;
  else if (tab === "entry") panel = <FullEntryTab key={entry.id} session={session} id={entry.id} />;
  else if (tab === "path") panel = <PathTab key={entry.id} session={session} id={entry.id} />;
  else panel = <ContextTab key={entry.id} session={session} id={entry.id} />;

  return (
    <div className="flex h-full min-h-0 flex-col bg-background text-[13px] text-foreground">
      <div className="flex shrink-0 flex-wrap items-center justify-between gap-2 px-3 pt-2 pb-1.5">
        <h2 className="text-[11px] font-semibold tracking-wide text-muted uppercase">Inspector</h2>
        <ContentReadStatus />
        {session && entry ? (
          <div className="flex flex-wrap items-start gap-1.5">
            <CompareWithButton />
            <ExportButtons key={entry.id} session={session} id={entry.id} />
          </div>
        ) : null}
      </div>
      <Tabs tab={tab} />
      <div
        ref={panelRef}
        role="tabpanel"
        id={`inspector-panel-${tab}`}
        aria-labelledby={`inspector-tab-${tab}`}
        tabIndex={tab === "entry" || tab === "stats" ? 0 : -1}
        className={`min-h-0 flex-1 ${tab === "entry" || tab === "stats" ? "overflow-auto" : "flex flex-col overflow-hidden"}`}
      >
        <SearchTermsProvider query={query}>
          <FoldsOpen open={outputsOpen}>{panel}</FoldsOpen>
        </SearchTermsProvider>
      </div>
    </div>
  );
}
