"use client";

// The home page: every session of the sessions directory (or the bundled samples), a filter over their names, a
// search through their contents (kept in the URL: ?q=…), and ways to open a file.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { Kbd } from "@/components/ui/Badge";
import { cn } from "@/components/ui/cn";
import { DropOverlay } from "@/components/ui/DropOverlay";
import { Icon, Logo } from "@/components/ui/Icon";
import { ThemeToggle } from "@/components/ui/ThemeToggle";
import { useFileDrop } from "@/components/ui/use-file-drop";
import { setPendingUpload } from "@/lib/client/pending-upload";
import { ContentSearchPanel } from "./ContentSearchPanel";
import { contentSearchParams, EMPTY_SEARCH, type ContentSearch } from "./content-search";
import { filterSessions, groupByProject, machinesOf } from "./group-sessions";
import type { LibrarySession, LibrarySource } from "./library-types";
import { OpenPanel } from "./OpenPanel";
import { SessionList } from "./SessionList";

interface Props {
  sessions: LibrarySession[];
  source: LibrarySource;
  /** the configured sessions directory, as shown to the user */
  configuredDir: string;
  /** the content search the URL asks for, or null to list sessions */
  initialSearch?: ContentSearch | null;
  /** the machine the URL lists the sessions of (an archive's library), or null for all */
  initialMachine?: string | null;
}

/** The page's own state in its URL (not a navigation: the list stays as the server rendered it). */
function showInUrl(search: ContentSearch | null, machine: string | null): void {
  const params = search ? contentSearchParams(search) : new URLSearchParams();
  if (machine !== null) params.set("machine", machine);
  const text = params.toString();
  window.history.replaceState(window.history.state, "", text ? `/?${text}` : "/");
}

export function LibraryView({ sessions, source, configuredDir, initialSearch = null, initialMachine = null }: Props) {
  const router = useRouter();
  const [query, setQuery] = useState("");
  const [search, setSearchState] = useState<ContentSearch | null>(initialSearch);
  const machines = useMemo(() => machinesOf(sessions), [sessions]);
  const [machine, setMachineState] = useState<string | null>(initialMachine !== null && machines.includes(initialMachine) ? initialMachine : null);
  const searchOf = useCallback((q: string): ContentSearch => ({ ...EMPTY_SEARCH, q, machine: machine ?? "" }), [machine]);
  const setSearch = useCallback(
    (next: ContentSearch | null) => {
      setSearchState(next);
      showInUrl(next, machine);
    },
    [machine],
  );
  const setMachine = useCallback(
    (next: string | null) => {
      setMachineState(next);
      // a search under way is narrowed (or widened) with the list
      const narrowed = search && { ...search, machine: next ?? "" };
      if (narrowed) setSearchState(narrowed);
      showInUrl(narrowed, next);
    },
    [search],
  );
  const sessionsByPath = useMemo(() => new Map(sessions.map((session) => [session.path, session])), [sessions]);
  const filterInput = useRef<HTMLInputElement>(null);

  const openFile = useCallback(
    (file: File) => {
      setPendingUpload(file);
      router.push(`/view?upload=${encodeURIComponent(file.name)}`);
    },
    [router],
  );
  const openUrl = useCallback((url: string) => router.push(`/view?src=${encodeURIComponent(url)}`), [router]);
  const dragging = useFileDrop(openFile);

  const onMachine = useMemo(() => (machine === null ? sessions : sessions.filter((session) => session.machine === machine)), [sessions, machine]);
  const visible = useMemo(() => filterSessions(onMachine, query), [onMachine, query]);
  const groups = useMemo(() => groupByProject(visible), [visible]);
  const allGroups = useMemo(() => groupByProject(sessions), [sessions]);
  const projectCount = useMemo(() => new Set(groupByProject(onMachine).map((group) => group.cwd ?? group.key)).size, [onMachine]);
  const forkPoints = useForkPoints(sessions);

  // before paint: "/" pressed as soon as the list shows must already reach the filter
  useLayoutEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (event.key !== "/" || target?.closest("input, textarea, [contenteditable]")) return;
      event.preventDefault();
      filterInput.current?.focus();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  return (
    <div data-testid="dropzone" className="min-h-screen">
      <header className="sticky top-0 z-20 border-b border-border bg-background/90 backdrop-blur">
        <div className="mx-auto flex h-12 max-w-5xl items-center gap-3 px-6">
          <Logo />
          <h1 className="text-sm font-semibold tracking-tight">pi session viewer</h1>
          <Link href="/usage" prefetch={false} className="ml-4 text-xs font-medium text-muted hover:text-foreground" data-testid="usage-link">
            Usage
          </Link>
          <span
            className="ml-auto flex min-w-0 items-center gap-1.5 text-xs text-muted"
            title={source === "archive" ? "Archive (PI_VIEWER_DATABASE_URL)" : "Sessions directory (PI_SESSIONS_DIR)"}
          >
            <Icon name={source === "archive" ? "database" : "folder"} size={14} className="shrink-0 text-subtle" />
            <span className="truncate font-mono" data-testid="sessions-dir">
              {configuredDir}
            </span>
          </span>
          <ThemeToggle />
        </div>
      </header>

      <main className="mx-auto max-w-5xl px-6 pt-5 pb-16">
        <OpenPanel onFile={openFile} onUrl={openUrl} />

        {source === "samples" && (
          <p
            role="status"
            data-testid="samples-notice"
            className="mt-4 flex items-start gap-2 rounded-lg border border-accent/25 bg-accent-soft px-3 py-2 text-xs text-foreground"
          >
            <Icon name="info" size={15} className="mt-px shrink-0 text-accent" />
            <span>
              Showing bundled sample sessions — no sessions found in <code className="font-mono">{configuredDir}</code>. Set{" "}
              <code className="font-mono">PI_SESSIONS_DIR</code> to read another directory.
            </span>
          </p>
        )}

        <div className="mt-6 flex items-center gap-3">
          <div className="relative max-w-md flex-1">
            <Icon name="search" size={14} className="pointer-events-none absolute top-1/2 left-2.5 -translate-y-1/2 text-subtle" />
            <input
              ref={filterInput}
              type="search"
              value={search ? search.q : query}
              onChange={(event) => (search ? setSearch({ ...search, q: event.target.value }) : setQuery(event.target.value))}
              onKeyDown={(event) => {
                if (event.key === "Escape") {
                  if (search) setSearch({ ...search, q: "" });
                  else setQuery("");
                }
                if (event.key === "ArrowDown") {
                  event.preventDefault();
                  document.querySelector<HTMLElement>(search ? "[data-testid=search-hit]" : "#session-list [data-session-row]")?.focus();
                }
              }}
              placeholder={search ? "Search every session: words, “phrases”" : "Filter by name, folder or path"}
              aria-label={search ? "Search every session's contents" : "Filter sessions"}
              data-testid="filter"
              className="h-8 w-full rounded-md border border-border-strong bg-background pr-8 pl-8 text-[13px] placeholder:text-subtle focus:border-accent focus:outline-none"
            />
            <Kbd className="pointer-events-none absolute top-1/2 right-2 -translate-y-1/2">/</Kbd>
          </div>
          <div role="radiogroup" aria-label="What the box searches" className="flex shrink-0 rounded-md border border-border-strong p-0.5 text-xs">
            {(
              [
                ["sessions", "Sessions", "Filter the list by name, folder or path"],
                ["contents", "Contents", "Search inside every session"],
              ] as const
            ).map(([mode, label, title]) => {
              const checked = (mode === "contents") === (search !== null);
              return (
                <button
                  key={mode}
                  type="button"
                  role="radio"
                  aria-checked={checked}
                  title={title}
                  data-testid={`search-mode-${mode}`}
                  onClick={() => {
                    if (checked) return;
                    // the words typed carry over: a name not found in the list may be in a session's text
                    if (mode === "contents") setSearch(searchOf(query));
                    else {
                      setQuery(search?.q ?? "");
                      setSearch(null);
                    }
                    filterInput.current?.focus();
                  }}
                  className={cn("h-6 rounded px-2", checked ? "bg-accent-soft font-medium text-accent" : "text-muted hover:text-foreground")}
                >
                  {label}
                </button>
              );
            })}
          </div>
          {machines.length > 1 && (
            <label className="flex shrink-0 items-center gap-1.5 text-xs text-muted">
              <Icon name="machine" size={14} className="text-subtle" />
              <select
                value={machine ?? ""}
                onChange={(event) => setMachine(event.target.value === "" ? null : event.target.value)}
                aria-label="Machine"
                data-testid="machine-filter"
                className="h-8 rounded-md border border-border-strong bg-background px-2 text-xs text-foreground focus:border-accent focus:outline-none"
              >
                <option value="">All {machines.length} machines</option>
                {machines.map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>
            </label>
          )}
          {!search && (
            <p className="ml-auto text-xs text-muted tabular-nums" data-testid="session-count">
              {query || machine !== null
                ? `${visible.length} of ${sessions.length} sessions`
                : `${sessions.length} sessions in ${projectCount} ${projectCount === 1 ? "project" : "projects"}${machines.length > 1 ? ` on ${machines.length} machines` : ""}`}
            </p>
          )}
        </div>

        {search ? (
          <ContentSearchPanel search={search} onChange={setSearch} projects={allGroups} sessions={sessionsByPath} />
        ) : (
          <div className="mt-3">
            {sessions.length === 0 && source === "archive" ? (
              <p className="rounded-lg border border-border px-4 py-10 text-center text-muted" data-testid="archive-empty">
                The archive at <code className="font-mono">{configuredDir}</code> holds no sessions yet. Send a machine&apos;s with{" "}
                <code className="font-mono">pi-session-viewer push --to URL</code>.
              </p>
            ) : sessions.length === 0 ? (
              <p className="rounded-lg border border-border px-4 py-10 text-center text-muted">
                No sessions found in <code className="font-mono">{configuredDir}</code>. Open a file above, or run pi to create one.
              </p>
            ) : visible.length === 0 ? (
              <p className="px-3 py-10 text-center text-muted">
                No sessions match “{query}”.{" "}
                <button type="button" className="text-accent hover:underline" onClick={() => setSearch(searchOf(query))}>
                  Search their contents
                </button>
              </p>
            ) : (
              <SessionList groups={groups} forkPoints={forkPoints} />
            )}
          </div>
        )}
      </main>

      <DropOverlay visible={dragging} title="Drop to open this session" detail="The file is read in your browser; nothing is uploaded." />
    </div>
  );
}

/**
 * Where each fork left its source, described: the server compares the two files' entries, which costs a read of
 * both, so the list shows first and the fork points join it.
 */
function useForkPoints(sessions: readonly LibrarySession[]): ReadonlyMap<string, string> | undefined {
  const [points, setPoints] = useState<ReadonlyMap<string, string>>();
  const hasForks = sessions.some((session) => session.forkOf);
  useEffect(() => {
    if (!hasForks) return;
    const abort = new AbortController();
    fetch("/api/sessions/forks", { signal: abort.signal })
      .then((response): Promise<Record<string, { fromEntry: string | null }>> => (response.ok ? response.json() : Promise.resolve({})))
      .then((json) => {
        const map = new Map<string, string>();
        for (const [file, point] of Object.entries(json)) if (point.fromEntry) map.set(file, point.fromEntry);
        setPoints(map);
      })
      .catch(() => {}); // the rows say "forked from" without the entry
    return () => abort.abort();
  }, [hasForks, sessions]);
  return points;
}
