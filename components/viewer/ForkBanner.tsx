"use client";

// A strip under the top bar for a library file with a fork family: where it was forked from (a link to the source
// at the fork point) and how much it inherited, or which sessions were forked from it.
import Link from "next/link";
import { useEffect } from "react";
import { Icon } from "@/components/ui/Icon";
import { formatCount } from "@/components/ui/format";
import type { SessionFamily } from "@/lib/library/session-family";
import { libraryPathOf, sessionOf, useViewer, viewer } from "./store";

const fileName = (p: string) => p.slice(Math.max(p.lastIndexOf("/"), p.lastIndexOf("\\")) + 1);

function viewHref(path: string, entry?: string | null): string {
  const q = new URLSearchParams({ file: path });
  if (entry) q.set("entry", entry);
  return `/view?${q}`;
}

/** The fork and its source as one session (GET /api/sessions/with-source), comparing their leaves. */
function compareHref(path: string, sourceLeaf: string, forkLeaf: string): string {
  const src = `/api/sessions/with-source?${new URLSearchParams({ path })}`;
  return `/view?${new URLSearchParams({ src, entry: sourceLeaf, compare: forkLeaf })}`;
}

/** Asks the server for the open library file's family once it is shown. */
function useFamilyOf(path: string | null): void {
  useEffect(() => {
    if (path === null) return;
    const abort = new AbortController();
    fetch(`/api/sessions/family?${new URLSearchParams({ path })}`, { signal: abort.signal })
      .then((response): Promise<SessionFamily | null> => (response.ok ? response.json() : Promise.resolve(null)))
      .then((json) => {
        if (!json) return;
        viewer.familyLoaded(path, {
          source: json.source && {
            path: json.source.path,
            name: json.source.name,
            fromEntryId: json.source.fromEntryId,
            fromEntry: json.source.fromEntry,
            leafId: json.source.leafId,
          },
          missingSource: json.missingSource,
          forks: json.forks,
          inherited: new Set(json.inherited),
        });
      })
      .catch(() => {}); // no banner: the session reads the same without it
    return () => abort.abort();
  }, [path]);
}

const WITH_SOURCE = "/api/sessions/with-source?";

/** The fork whose "with source" view is open (its path), or null. */
function withSourceOf(url: string): string | null {
  const at = url.indexOf(WITH_SOURCE);
  return at === -1 ? null : new URLSearchParams(url.slice(at + WITH_SOURCE.length)).get("path");
}

export function ForkBanner() {
  const merged = useViewer((s) => (s.source?.kind === "url" ? withSourceOf(s.source.url) : null));
  return merged === null ? <FamilyBanner /> : <WithSourceBanner fork={merged} />;
}

/** Over the fork-and-source view: what it is, and the way back to the fork alone. */
function WithSourceBanner({ fork }: { fork: string }) {
  return (
    <div role="status" data-testid="with-source-banner" className="shrink-0 border-b border-border bg-surface">
      <div className="flex h-8 items-center gap-2 px-3 text-xs">
        <Icon name="branch" size={14} className="shrink-0 text-accent" />
        <span className="min-w-0 truncate text-muted">
          The fork <span className="font-mono text-foreground">{fileName(fork)}</span> and the session it was forked from, in one tree: every entry of the
          source, then the fork&apos;s own.
        </span>
        <Link href={viewHref(fork)} className="ml-auto shrink-0 font-medium text-accent hover:underline">
          Open the fork alone
        </Link>
      </div>
    </div>
  );
}

function FamilyBanner() {
  const path = useViewer((s) => libraryPathOf(s.source));
  const family = useViewer((s) => s.family);
  const leafId = useViewer((s) => sessionOf(s)?.leafId ?? null);
  useFamilyOf(path);
  if (!family || (!family.source && !family.missingSource && family.forks.length === 0)) return null;
  const { source, forks } = family;
  return (
    <div role="status" data-testid="fork-banner" className="shrink-0 border-b border-border bg-surface">
      <div className="flex min-h-8 flex-wrap items-center gap-x-3 gap-y-1 px-3 py-1 text-xs">
        {source && (
          <span className="flex min-w-0 items-center gap-1.5" data-testid="fork-source">
            <Icon name="branch" size={14} className="shrink-0 text-accent" />
            <span className="text-muted">Forked from</span>
            <Link
              href={viewHref(source.path, source.fromEntryId)}
              data-testid="fork-source-link"
              className="truncate font-medium text-accent hover:underline"
              title={`Open ${source.path} at the entry this session was forked from`}
            >
              {source.name ?? fileName(source.path)}
            </Link>
            {source.fromEntry && (
              <span className="min-w-0 truncate text-muted">
                at <span data-testid="fork-source-entry">{source.fromEntry}</span>
              </span>
            )}
            <span className="shrink-0 text-subtle" data-testid="inherited-count">
              · {formatCount(family.inherited.size)} {family.inherited.size === 1 ? "entry" : "entries"} inherited
            </span>
          </span>
        )}
        {source && path && source.leafId && leafId && source.leafId !== leafId && (
          // a whole page load: the comparison in the link opens when its session is ready, not in the old one's
          <a
            href={compareHref(path, source.leafId, leafId)}
            data-testid="compare-with-source"
            className="inline-flex h-6 shrink-0 items-center rounded border border-border bg-background px-2 text-[12px] font-medium hover:bg-surface-2"
            title="Open this session and its source as one tree, comparing the source's last entry with this session's leaf"
          >
            Compare with source
          </a>
        )}
        {!source && family.missingSource && (
          <span className="flex min-w-0 items-center gap-1.5 text-muted" data-testid="fork-source-missing" title={family.missingSource}>
            <Icon name="branch" size={14} className="shrink-0 text-subtle" />
            Forked from <span className="truncate font-mono">{fileName(family.missingSource)}</span>, which is not in this library
          </span>
        )}
        {forks.length > 0 && (
          <span className="flex min-w-0 items-center gap-1.5" data-testid="fork-children">
            <span className="text-muted">
              {forks.length} {forks.length === 1 ? "fork" : "forks"}:
            </span>
            {forks.map((fork, i) => (
              <span key={fork.path} className="min-w-0 truncate">
                <Link href={viewHref(fork.path)} className="text-accent hover:underline" data-testid="fork-child-link">
                  {fork.name ?? fileName(fork.path)}
                </Link>
                {i < forks.length - 1 && <span className="text-subtle">,</span>}
              </span>
            ))}
          </span>
        )}
      </div>
    </div>
  );
}
