// One session in the library list: a link to the viewer with its name and cheap stats.
import Link from "next/link";
import { Badge } from "@/components/ui/Badge";
import { cn } from "@/components/ui/cn";
import { formatBytes, formatCount } from "@/components/ui/format";
import { Icon } from "@/components/ui/Icon";
import { LocalTime } from "@/components/ui/LocalTime";
import type { LibrarySession } from "./library-types";

export const ROW_GRID = "grid grid-cols-[minmax(0,1fr)_4.5rem_4.5rem_4.5rem_8.5rem] items-center gap-x-3";

const fileName = (p: string) => p.slice(p.lastIndexOf("/") + 1);

interface Props {
  session: LibrarySession;
  /** place in its family tree: forks are indented under their source */
  depth?: number;
  /** where the fork left its source, once the server has compared the two files */
  forkPoint?: string;
}

export function SessionRow({ session, depth = 0, forkPoint }: Props) {
  const file = fileName(session.path);
  const source = session.forkOf;
  const forkCount = session.forks?.length ?? 0;
  return (
    <Link
      href={`/view?file=${encodeURIComponent(session.path)}`}
      data-testid="session-row"
      data-path={session.path}
      data-depth={depth}
      data-session-row=""
      title={session.path}
      className={cn(ROW_GRID, "h-8 rounded-md px-3 text-[13px] hover:bg-surface-2 focus-visible:bg-accent-soft focus-visible:outline-none")}
    >
      <span className="flex min-w-0 items-center gap-2" style={depth ? { paddingLeft: `${(depth - 1) * 1.25 + 0.25}rem` } : undefined}>
        {(source || session.forkOfMissing) && <Icon name="branch" size={13} className="shrink-0 text-subtle" data-testid="fork-icon" />}
        <span
          data-testid="session-name"
          className={cn(
            "truncate",
            (source || session.forkOfMissing) && "max-w-[60%] shrink-0",
            session.named ? "font-medium" : session.name ? "" : "text-subtle italic",
          )}
        >
          {session.name ?? file}
        </span>
        {forkCount > 0 && (
          <Badge data-testid="fork-count" title={`${forkCount} session${forkCount === 1 ? " was" : "s were"} forked from this one`}>
            {forkCount} fork{forkCount === 1 ? "" : "s"}
          </Badge>
        )}
        {source && (
          <span
            data-testid="fork-of"
            data-source={source.path}
            title={`Forked from ${source.name ?? source.path}${forkPoint ? ` at ${forkPoint}` : ""}`}
            className="min-w-0 flex-1 truncate text-xs text-muted"
          >
            forked from <span className="text-foreground/80">{source.name ?? fileName(source.path)}</span>
            {forkPoint && (
              <>
                {" "}
                at <span data-testid="fork-point">{forkPoint}</span>
              </>
            )}
          </span>
        )}
        {!source && session.forkOfMissing && (
          <span data-testid="fork-of-missing" title={session.forkOfMissing} className="min-w-0 flex-1 truncate text-xs text-subtle">
            forked from {fileName(session.forkOfMissing)} (not in this library)
          </span>
        )}
        {!session.hasHeader && <Badge tone="danger">no header</Badge>}
      </span>
      <span
        data-testid="entry-count"
        data-estimated={session.entryCountEstimated ? "" : undefined}
        title={session.entryCountEstimated ? "Estimated: only the start and end of this large file were read" : undefined}
        className="text-right text-muted tabular-nums"
      >
        {session.entryCountEstimated ? `≈${formatCount(session.entryCount)}` : formatCount(session.entryCount)}
      </span>
      <span data-testid="branch-count" className="text-right text-muted tabular-nums">
        {session.branchCount === undefined ? "–" : session.branchCount === 0 ? <span className="text-subtle">0</span> : formatCount(session.branchCount)}
      </span>
      <span className="text-right text-muted tabular-nums">{formatBytes(session.size)}</span>
      <LocalTime iso={session.timestamp ?? session.mtime} className="text-right text-muted tabular-nums" />
    </Link>
  );
}
