"use client";

/**
 * The top bar's search: a combobox over the session's text. Typing (debounced)
 * sets the store's query, which also rings the matching graph cards; the list
 * under the box shows each hit with its match marked. ↑↓ move, Enter (or a
 * click) selects the entry and brings the graph to it; Ctrl/Cmd+K or "/"
 * focuses the box from anywhere, Escape closes the list, then clears.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { Icon as UiIcon } from "@/components/ui/Icon";
import { Kbd } from "@/components/ui/Badge";
import { sessionOf, useViewer, viewer } from "@/components/viewer/store";
import { prepareSearch } from "@/lib/session";
import { SearchResults } from "./SearchResults";
import { useSearchResult } from "./use-search";

const DEBOUNCE_MS = 150;
/** work per step while the index is built ahead of the first query: short enough that typing stays smooth */
const PREPARE_SLICE_MS = 12;

function typingElsewhere(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT" || el.isContentEditable);
}

export function SearchBox() {
  const query = useViewer((s) => s.searchQuery);
  const [text, setText] = useState(query);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const listId = useId();
  const result = useSearchResult();
  const session = useViewer(sessionOf);
  const preparing = useRef<ReturnType<typeof setTimeout> | null>(null);

  // a big session's index takes about a second to build: build it in steps from the moment the box is focused,
  // so that the first query does not stop the page for all of it
  const prepare = () => {
    if (!session || preparing.current !== null) return;
    const step = () => {
      preparing.current = null;
      if (!prepareSearch(session, PREPARE_SLICE_MS)) preparing.current = setTimeout(step, 0);
    };
    step();
  };
  useEffect(
    () => () => {
      if (preparing.current !== null) clearTimeout(preparing.current);
      preparing.current = null;
    },
    [session],
  );

  // the store can change the query too (a deep link, a new session): follow it, during render
  const [seenQuery, setSeenQuery] = useState(query);
  if (query !== seenQuery) {
    setSeenQuery(query);
    if (text.trim() !== query.trim()) setText(query);
  }

  useEffect(() => {
    if (text === viewer.get().searchQuery) return;
    const timer = setTimeout(() => {
      viewer.setSearchQuery(text);
      setActive(0);
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  useEffect(() => {
    function onKeyDown(event: globalThis.KeyboardEvent) {
      const shortcut = (event.key === "k" || event.key === "K") && (event.ctrlKey || event.metaKey);
      if (!shortcut && !(event.key === "/" && !event.ctrlKey && !event.metaKey && !event.altKey && !typingElsewhere(event.target))) return;
      event.preventDefault();
      input.current?.focus();
      input.current?.select();
    }
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);

  const hits = result?.hits ?? [];
  const showList = open && text.trim() !== "" && result !== null;

  function choose(index: number) {
    const hit = hits[index];
    if (!hit) return;
    setActive(index);
    viewer.select(hit.entryId);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      setOpen(true);
      if (hits.length) setActive((i) => (event.key === "ArrowDown" ? (i + 1) % hits.length : (i - 1 + hits.length) % hits.length));
    } else if (event.key === "Enter") {
      event.preventDefault();
      if (text !== query) viewer.setSearchQuery(text);
      setOpen(true);
      choose(active);
    } else if (event.key === "Escape") {
      event.preventDefault();
      if (showList) setOpen(false);
      else {
        setText("");
        viewer.setSearchQuery("");
        input.current?.blur();
      }
    }
  }

  return (
    <div className="relative w-44 shrink-0 transition-[width] duration-150 focus-within:w-[clamp(11rem,24vw,20rem)]" data-testid="search">
      <div className="flex h-7 items-center gap-1.5 rounded-md border border-border-strong bg-surface px-2 focus-within:border-accent focus-within:ring-1 focus-within:ring-accent">
        <UiIcon name="search" size={13} className="shrink-0 text-muted" />
        <input
          ref={input}
          type="search"
          role="combobox"
          aria-label="Search the session"
          aria-expanded={showList}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={showList && hits[active] ? `${listId}-${active}` : undefined}
          placeholder="Search text, tools, labels"
          title={'Entries that hold every word, in any field; "quoted words" as a phrase'}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setOpen(true);
          }}
          onFocus={() => {
            setOpen(true);
            prepare();
          }}
          onBlur={() => setOpen(false)}
          onKeyDown={onKeyDown}
          spellCheck={false}
          style={{ outline: "none" }}
          className="h-full min-w-0 flex-1 bg-transparent text-xs text-foreground placeholder:text-subtle [&::-webkit-search-cancel-button]:hidden"
          data-testid="search-input"
        />
        {result ? (
          <span
            className={`shrink-0 rounded px-1 text-[10.5px] font-medium tabular-nums ${result.total ? "bg-yellow-200 text-yellow-950 dark:bg-yellow-300/25 dark:text-yellow-200" : "text-muted"}`}
            title={`${result.total.toLocaleString("en-US")} hits in ${result.entryIds.size.toLocaleString("en-US")} entries`}
            data-testid="search-badge"
          >
            {result.total.toLocaleString("en-US")}
          </span>
        ) : (
          <Kbd className="shrink-0" title="Ctrl+K or / focuses the search">
            /
          </Kbd>
        )}
      </div>
      {showList && <SearchResults id={listId} result={result} active={active} onChoose={choose} onHover={setActive} />}
    </div>
  );
}
