"use client";

/**
 * The hits under the search box: one row per entry and field, with the
 * entry's kind, the field the text came from and the snippet with the match
 * marked. Rows of entries the graph's filter hides say so.
 */
import { useEffect, useRef } from "react";
import { Icon, KIND_TEXT } from "@/components/graph/icons";
import { sessionOf, useViewer } from "@/components/viewer/store";
import { describeEntry } from "@/lib/layout/describe";
import { visibilityOf } from "@/lib/layout/tree-filter";
import type { SearchField, SearchHit, SearchResult } from "@/lib/session";
import { useSessionMemo } from "@/components/viewer/use-session-memo";

const FIELD_NAME: Record<SearchField, string> = {
  text: "text",
  thinking: "thinking",
  toolCall: "tool call",
  toolResult: "tool result",
  bash: "bash",
  summary: "summary",
  custom: "custom",
  label: "label",
  name: "session name",
};

function Snippet({ hit }: { hit: SearchHit }) {
  return (
    <span className="line-clamp-2 text-[11.5px] leading-[16px] break-words text-muted">
      {hit.snippet.slice(0, hit.start)}
      <mark className="rounded-[2px] bg-yellow-200 px-px text-foreground dark:bg-yellow-400/30">{hit.snippet.slice(hit.start, hit.end)}</mark>
      {hit.snippet.slice(hit.end)}
    </span>
  );
}

interface Props {
  id: string;
  result: SearchResult;
  active: number;
  onChoose(index: number): void;
  onHover(index: number): void;
}

export function SearchResults({ id, result, active, onChoose, onHover }: Props) {
  const session = useViewer(sessionOf);
  const filter = useViewer((s) => s.treeFilter);
  const selectedId = useViewer((s) => s.selectedId);
  const visible = useSessionMemo((session) => visibilityOf(session, filter), [filter]);
  const list = useRef<HTMLUListElement>(null);

  useEffect(() => {
    list.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: "nearest" });
  }, [active]);

  const streamError = useViewer((s) => s.searchStream?.error ?? null);
  const more = result.total - result.hits.length;
  const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
  return (
    <div
      className="absolute top-full left-0 z-50 mt-1 w-[min(34rem,90vw)] overflow-hidden rounded-md border border-border-strong bg-background shadow-lg"
      data-testid="search-results"
    >
      <p className="flex items-center justify-between border-b border-border px-3 py-1.5 text-[11px] text-muted">
        <span data-testid="search-count" aria-live="polite">
          {result.total === 0
            ? result.complete
              ? `Nothing matches “${result.query}”`
              : "Searching…"
            : `${plural(result.total, "hit", "hits")} · ${plural(result.entryIds.size, "entry", "entries")}${result.complete ? "" : " so far"}`}
        </span>
        {streamError ? (
          <span role="alert" data-testid="search-error" className="min-w-0 flex-1 truncate px-2 text-red-700 dark:text-red-300" title={streamError}>
            The search stopped: {streamError}
          </span>
        ) : result.complete ? null : (
          <span data-testid="search-progress" className="min-w-0 flex-1 truncate px-2">
            reading the file: {plural(result.searched, "entry", "entries")} searched
          </span>
        )}
        <span className="text-subtle">↑↓ move · Enter selects · Esc closes</span>
      </p>
      {result.hits.length > 0 && (
        <ul
          ref={list}
          id={id}
          role="listbox"
          aria-label="Search hits"
          className="max-h-[min(60vh,28rem)] overflow-y-auto py-1"
          onMouseDown={(e) => e.preventDefault()}
        >
          {result.hits.map((hit, i) => {
            const entry = session?.tree.get(hit.entryId);
            const d = entry ? describeEntry(entry) : null;
            const hidden = visible !== null && !visible(hit.entryId);
            return (
              <li
                key={`${hit.entryId}:${hit.field}`}
                id={`${id}-${i}`}
                role="option"
                aria-selected={i === active}
                data-index={i}
                data-entry-id={hit.entryId}
                data-field={hit.field}
                onClick={() => onChoose(i)}
                onMouseMove={() => i !== active && onHover(i)}
                className={`flex cursor-pointer flex-col gap-0.5 border-l-2 px-3 py-1.5 ${i === active ? "border-accent bg-surface-2" : "border-transparent"} ${hidden ? "opacity-60" : ""}`}
              >
                <span className="flex items-center gap-1.5 text-[11px]">
                  {d && (
                    <span className={KIND_TEXT[d.kind]}>
                      <Icon name={d.kind} className="h-3 w-3" />
                    </span>
                  )}
                  <span className="font-medium text-foreground">{d?.title ?? "entry"}</span>
                  <span className="text-subtle">· {FIELD_NAME[hit.field]}</span>
                  {hit.count > 1 && <span className="text-subtle tabular-nums">· {hit.count}×</span>}
                  {hidden && <span className="rounded-sm bg-surface-2 px-1 text-[10px] text-muted">hidden by filter</span>}
                  {hit.entryId === selectedId && <span className="text-[10px] text-accent">selected</span>}
                  <span className="ml-auto font-mono text-[10px] text-subtle">{hit.entryId}</span>
                </span>
                <Snippet hit={hit} />
              </li>
            );
          })}
        </ul>
      )}
      {more > 0 && (
        <p className="border-t border-border px-3 py-1.5 text-[11px] text-muted">
          {more.toLocaleString("en-US")} more not listed; the graph marks them all. Refine the search to list them here.
        </p>
      )}
    </div>
  );
}
