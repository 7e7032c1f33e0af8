// One session in the library list: a link to the viewer with its name and cheap stats.
import Link from "next/link";
import { Badge } from "@/components/ui/Badge";
import { cn } from "@/components/ui/cn";
import { formatBytes, formatCount } from "@/components/ui/format";
import { LocalTime } from "@/components/ui/LocalTime";
import type { LibrarySession } from "./library-types";

export const ROW_GRID = "grid grid-cols-[minmax(0,1fr)_4.5rem_4.5rem_4.5rem_8.5rem] items-center gap-x-3";

export function SessionRow({ session }: { session: LibrarySession }) {
  const file = session.path.slice(session.path.lastIndexOf("/") + 1);
  return (
    <Link
      href={`/view?file=${encodeURIComponent(session.path)}`}
      data-testid="session-row"
      data-path={session.path}
      data-session-row=""
      title={session.path}
      className={cn(ROW_GRID, "h-8 rounded-md px-3 text-[13px] hover:bg-surface-2 focus-visible:bg-accent-soft focus-visible:outline-none")}
    >
      <span className="flex min-w-0 items-center gap-2">
        <span data-testid="session-name" className={cn("truncate", session.named ? "font-medium" : session.name ? "" : "text-subtle italic")}>
          {session.name ?? file}
        </span>
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
