"use client";

// The library's search through every session's contents: the filters, how far the index has come, and the hits
// by session, each a link to the viewer at its entry with the same words searched there.
import Link from "next/link";
import { useMemo, useState } from "react";
import { Badge } from "@/components/ui/Badge";
import { cn } from "@/components/ui/cn";
import { formatCount } from "@/components/ui/format";
import { Icon } from "@/components/ui/Icon";
import { LocalTime } from "@/components/ui/LocalTime";
import type { IndexProgress, UnreadableLine } from "@/lib/library/search-api";
import { IndexingProgress } from "./IndexingProgress";
import { groupHits, hitHref, markSnippet, sessionHref, unreadableSummary, type ContentHit, type ContentSearch } from "./content-search";
import type { LibrarySession, ProjectGroup } from "./library-types";
import { useIndexProgress } from "./search-status";
import { useContentSearch, useSearchFacets } from "./use-content-search";

const FIRST_PAGE = 50;
const PAGE = 100;
const MOST = 500;
const HITS_PER_SESSION = 5;
// what an entry is, before the index has said which roles the library holds
const KNOWN_ROLES = ["user", "assistant", "toolResult", "bashExecution", "custom", "compaction", "branch_summary", "label", "session_info"];

interface Props {
  search: ContentSearch;
  onChange: (search: ContentSearch) => void;
  projects: readonly ProjectGroup[];
  sessions: ReadonlyMap<string, LibrarySession>;
}

export function ContentSearchPanel({ search, onChange, projects, sessions }: Props) {
  const [limit, setLimit] = useState({ key: "", value: FIRST_PAGE });
  const key = JSON.stringify({ ...search });
  const shown = limit.key === key ? limit.value : FIRST_PAGE;
  const result = useContentSearch(search, shown);
  const progress = useIndexProgress(result.state === "searching");
  const facets = useSearchFacets(true);
  const set = (patch: Partial<ContentSearch>) => onChange({ ...search, ...patch });

  const hits = result.state === "done" ? result.hits : result.state === "searching" ? (result.previous?.hits ?? null) : null;
  const total = result.state === "done" ? result.total : result.state === "searching" ? (result.previous?.total ?? 0) : 0;
  const capped = result.state === "done" ? result.capped : result.state === "searching" ? (result.previous?.capped ?? false) : false;
  const groups = useMemo(() => (hits ? groupHits(hits) : []), [hits]);
  const filtered = search.project || search.since || search.to || search.role || search.tool || search.model || search.active;

  return (
    <section aria-label="Search results" data-testid="content-search" className="mt-3">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-xs" data-testid="search-filters">
        <FilterSelect label="Project" value={search.project} onChange={(project) => set({ project })} testId="filter-project" width="w-44">
          {[...new Map(projects.map((group) => [group.cwd ?? (group.project || "(top level)"), group])).entries()].map(([key, group]) => (
            <option key={key} value={key}>
              {group.cwd ?? group.project}
            </option>
          ))}
        </FilterSelect>
        <label className="flex items-center gap-1 text-muted">
          From
          <input
            type="date"
            value={search.since}
            onChange={(event) => set({ since: event.target.value })}
            data-testid="filter-since"
            className="h-7 rounded-md border border-border-strong bg-background px-1.5 text-xs text-foreground"
          />
        </label>
        <label className="flex items-center gap-1 text-muted">
          to
          <input
            type="date"
            value={search.to}
            onChange={(event) => set({ to: event.target.value })}
            data-testid="filter-to"
            className="h-7 rounded-md border border-border-strong bg-background px-1.5 text-xs text-foreground"
          />
        </label>
        <FilterSelect label="Role" value={search.role} onChange={(role) => set({ role })} testId="filter-role" width="w-32">
          {(facets?.roles ?? KNOWN_ROLES).map((role) => (
            <option key={role}>{role}</option>
          ))}
        </FilterSelect>
        <FilterSelect label="Tool" value={search.tool} onChange={(tool) => set({ tool })} testId="filter-tool" width="w-24">
          {(facets?.tools ?? (search.tool ? [search.tool] : [])).map((tool) => (
            <option key={tool}>{tool}</option>
          ))}
        </FilterSelect>
        <FilterSelect label="Model" value={search.model} onChange={(model) => set({ model })} testId="filter-model" width="w-48">
          {(facets?.models ?? (search.model ? [search.model] : [])).map((model) => (
            <option key={model}>{model}</option>
          ))}
        </FilterSelect>
        <label className="flex items-center gap-1.5 text-muted">
          <input type="checkbox" checked={search.active} onChange={(event) => set({ active: event.target.checked })} data-testid="filter-active" />
          Active path only
        </label>
        {filtered && (
          <button
            type="button"
            onClick={() => onChange({ ...search, project: "", since: "", to: "", role: "", tool: "", model: "", active: false })}
            className="text-accent hover:underline"
          >
            Clear filters
          </button>
        )}
      </div>

      <SearchStatusLine result={result} progress={progress} total={total} capped={capped} sessionCount={groups.length} shown={hits?.length ?? 0} />

      {result.state === "done" && result.unreadable.length > 0 && <UnreadableNotice lines={result.unreadable} />}

      <ol className={cn("mt-3 space-y-3", result.state === "searching" && "opacity-60")} data-testid="search-results">
        {groups.map((group) => (
          <HitGroupCard key={group.file} file={group.file} hits={group.hits} session={sessions.get(group.file)} q={search.q} />
        ))}
      </ol>

      {hits && total > hits.length && shown < MOST && (
        <button
          type="button"
          data-testid="more-hits"
          onClick={() => setLimit({ key, value: Math.min(MOST, shown + PAGE) })}
          className="mt-3 h-8 w-full rounded-md border border-border text-xs text-muted hover:bg-surface-2 hover:text-foreground"
        >
          Show {formatCount(Math.min(PAGE, total - hits.length))} more of {formatCount(total)}
          {capped ? "+" : ""} hits
        </button>
      )}
    </section>
  );
}

function FilterSelect({
  label,
  value,
  onChange,
  testId,
  width,
  children,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  testId: string;
  /** a fixed width, so the row does not jump when the index's values arrive */
  width: string;
  children: React.ReactNode;
}) {
  return (
    <label className="flex items-center gap-1 text-muted">
      {label}
      <select
        value={value}
        onChange={(event) => onChange(event.target.value)}
        data-testid={testId}
        className={cn("h-7 rounded-md border border-border-strong bg-background px-1 text-xs text-foreground", width)}
      >
        <option value="">any</option>
        {children}
      </select>
    </label>
  );
}

function SearchStatusLine({
  result,
  progress,
  total,
  capped,
  sessionCount,
  shown,
}: {
  result: ReturnType<typeof useContentSearch>;
  /** the index update the search waits on */
  progress: IndexProgress | null;
  total: number;
  /** more hits than the index ranks: the newest are shown, and total counts only those */
  capped: boolean;
  sessionCount: number;
  shown: number;
}) {
  if (result.state === "idle")
    return (
      <p className="mt-3 text-xs text-muted" data-testid="search-status">
        Every session’s messages, thinking, tool calls and results, labels and names. Words match whole words, the last one as a prefix; “quotes” keep words
        together.
      </p>
    );
  if (result.state === "failed")
    return (
      <p role="alert" className="mt-3 flex items-center gap-1.5 text-xs text-danger" data-testid="search-status">
        <Icon name="error" size={14} /> {result.error}
      </p>
    );
  if (result.state === "searching")
    return (
      <div className="mt-3" data-testid="search-status" data-state="searching">
        <IndexingProgress progress={progress} idle="Searching…" />
      </div>
    );
  return (
    <p className="mt-3 text-xs text-muted tabular-nums" data-testid="search-status" data-state="done">
      {total === 0
        ? "No entry holds every word of the query."
        : capped
          ? `${formatCount(total)}+ hits: the newest ${formatCount(shown)} shown, in ${formatCount(sessionCount)} ${sessionCount === 1 ? "session" : "sessions"} (add words or filters to rank them all)`
          : `${formatCount(total)} ${total === 1 ? "hit" : "hits"}${shown < total ? ` (first ${formatCount(shown)} shown)` : ""} in ${formatCount(sessionCount)} ${sessionCount === 1 ? "session" : "sessions"}, best first`}
    </p>
  );
}

function UnreadableNotice({ lines }: { lines: readonly UnreadableLine[] }) {
  return (
    <details className="mt-2 rounded-md border border-warning/30 bg-warning-soft px-3 py-1.5 text-xs" data-testid="search-unreadable">
      <summary className="cursor-pointer text-warning">{unreadableSummary(lines)}</summary>
      <ul className="mt-1 space-y-0.5 font-mono text-[11px] text-muted">
        {lines.map((line) => (
          <li key={`${line.file}:${line.line}`}>
            {line.line ? `${line.file}:${line.line}` : line.file} — {line.message}
            {line.indexed && " (searched all the same)"}
          </li>
        ))}
      </ul>
    </details>
  );
}

function HitGroupCard({ file, hits, session, q }: { file: string; hits: readonly ContentHit[]; session?: LibrarySession; q: string }) {
  const [open, setOpen] = useState(false);
  const visible = open ? hits : hits.slice(0, HITS_PER_SESSION);
  const fileName = file.slice(file.lastIndexOf("/") + 1);
  return (
    <li className="rounded-lg border border-border" data-testid="hit-group" data-path={file}>
      <div className="flex items-center gap-2 border-b border-border px-3 py-1.5 text-[13px]">
        {session?.forkOf && <Icon name="branch" size={13} className="shrink-0 text-subtle" />}
        <Link href={sessionHref(file, q)} className="truncate font-medium hover:underline">
          {session?.name ?? fileName}
        </Link>
        <span className="truncate text-xs text-subtle" title={file}>
          {session?.cwd ?? file.slice(0, file.indexOf("/"))}
        </span>
        <span className="ml-auto shrink-0 text-xs text-muted tabular-nums">
          {hits.length} {hits.length === 1 ? "hit" : "hits"}
        </span>
      </div>
      <ul>
        {visible.map((hit) => (
          <HitRow key={hit.entryId} hit={hit} q={q} />
        ))}
      </ul>
      {hits.length > HITS_PER_SESSION && (
        <button type="button" onClick={() => setOpen(!open)} className="w-full px-3 py-1 text-left text-xs text-accent hover:underline">
          {open ? "Show fewer" : `Show ${hits.length - HITS_PER_SESSION} more in this session`}
        </button>
      )}
    </li>
  );
}

function HitRow({ hit, q }: { hit: ContentHit; q: string }) {
  const parts = useMemo(() => markSnippet(hit.snippet, q), [hit.snippet, q]);
  return (
    <li>
      <Link
        href={hitHref(hit, q)}
        data-testid="search-hit"
        data-entry={hit.entryId}
        className="flex items-start gap-2 px-3 py-1.5 text-[13px] hover:bg-surface-2 focus-visible:bg-accent-soft focus-visible:outline-none"
      >
        {hit.role && <Badge className="mt-px w-[5.5rem] justify-center">{hit.role}</Badge>}
        <span className="min-w-0 flex-1 break-words text-foreground/90" data-testid="hit-snippet">
          {parts.length ? (
            parts.map((part, i) =>
              part.mark ? (
                <mark key={i} className="rounded-sm bg-accent-soft px-0.5 text-accent">
                  {part.text}
                </mark>
              ) : (
                <span key={i}>{part.text}</span>
              ),
            )
          ) : (
            <span className="text-subtle italic">(the file changed since it was indexed)</span>
          )}
        </span>
        <span className="flex shrink-0 items-center gap-1.5">
          {hit.time !== null && <LocalTime iso={new Date(hit.time).toISOString()} className="text-xs text-subtle tabular-nums" />}
          {hit.alsoIn > 0 && (
            <Badge data-testid="hit-also-in" title="The same entry, copied by forks of this session">
              also in {hit.alsoIn} {hit.alsoIn === 1 ? "fork" : "forks"}
            </Badge>
          )}
          <Badge
            tone={hit.onActivePath ? "accent" : "neutral"}
            data-testid="hit-branch"
            title={hit.onActivePath ? "On the path to the session’s leaf" : "On a branch the session left"}
          >
            {hit.onActivePath ? "active path" : "other branch"}
          </Badge>
        </span>
      </Link>
    </li>
  );
}
