"use client";

// The viewer's top bar: where the session comes from, what it is called, how it is read, and the way back.
import { useEffect } from "react";
import { Badge } from "@/components/ui/Badge";
import { ButtonLink, IconButton } from "@/components/ui/Button";
import { formatCount } from "@/components/ui/format";
import { Icon } from "@/components/ui/Icon";
import { LabelsMenu } from "@/components/labels/LabelsMenu";
import { ShareBadge } from "@/components/share/ShareBadge";
import { ShareButton } from "@/components/share/ShareButton";
import { FilterMenu } from "@/components/search/FilterMenu";
import { SearchBox } from "@/components/search/SearchBox";
import { ThemeToggle } from "@/components/ui/ThemeToggle";
import { LiveIndicator } from "./LiveIndicator";
import { useViewerHost } from "./host";
import { entryCountOf, readerBadge } from "./reader-badge";
import { sessionTitle } from "@/lib/session";
import { sessionOf, useViewer, viewer } from "./store";
import { useSessionMemo } from "@/components/viewer/use-session-memo";

export function TopBar({ onOpenFile }: { onOpenFile: () => void }) {
  const session = useViewer(sessionOf);
  const fileName = useViewer((s) => s.fileName);
  const source = useViewer((s) => s.source);
  const title = useSessionMemo(sessionTitle, []);
  // a v4 log has no coding-agent header; its own header names the cwd
  const cwd = typeof session?.header?.cwd === "string" ? session.header.cwd : (session?.v4?.header.cwd ?? null);
  const leafId = session?.leafId ?? null;
  const choice = session?.rulesChoice;
  const badge = useSessionMemo(readerBadge, []);
  const label = title ?? fileName;
  const host = useViewerHost();

  useEffect(() => {
    document.title = label ? `${label} · pi session viewer` : "pi session viewer";
  }, [label]);

  return (
    <header className="flex h-11 shrink-0 items-center gap-3 border-b border-border bg-background px-2">
      {host === "server" ? (
        <>
          <ButtonLink href="/" variant="ghost" size="sm" aria-label="Back to the library" title="Back to the library">
            <Icon name="arrow-left" size={15} /> Library
          </ButtonLink>
          <div className="h-5 w-px bg-border" />
        </>
      ) : (
        <span className="pl-1 text-[12px] font-semibold whitespace-nowrap text-muted">pi session viewer</span>
      )}
      <div className="flex min-w-0 flex-1 items-baseline gap-2.5">
        <h1 className="max-w-[55%] truncate text-[13px] font-semibold" data-testid="session-title" title={title ?? undefined}>
          {title ?? fileName ?? (host === "server" ? "pi session viewer" : "")}
        </h1>
        {cwd && (
          <span
            className="hidden max-w-[40%] shrink-0 truncate font-mono text-xs text-muted md:inline"
            data-testid="session-cwd"
            title={`Working directory (header cwd): ${cwd}`}
          >
            {cwd}
          </span>
        )}
        {fileName && title && (
          <span
            className="hidden min-w-0 items-center gap-1 truncate text-xs text-subtle lg:inline-flex"
            title={source?.kind === "url" ? source.url : fileName}
          >
            <Icon name="file" size={12} className="shrink-0" />
            <span className="truncate font-mono">{fileName}</span>
          </span>
        )}
      </div>
      {session && session.tree.size > 0 && (
        <>
          <SearchBox />
          <FilterMenu />
        </>
      )}
      <LiveIndicator />
      <ShareBadge />
      {session && choice && (
        <div className="flex shrink-0 items-center gap-2 text-xs text-muted">
          <Badge tone={badge?.tone} title={badge?.title} data-testid="reader-chip" data-rules={choice.id} className="min-w-0 max-w-[15rem]">
            <span className="truncate">{badge?.text}</span>
          </Badge>
          <span className="tabular-nums" data-testid="entry-count" title="Entries in the file">
            {formatCount(entryCountOf(session))} entries
          </span>
          <LabelsMenu />
          {host !== "share" && session.tree.size > 0 && <ShareButton />}
          {leafId && (
            <button
              type="button"
              onClick={() => viewer.select(leafId)}
              className="flex items-center gap-1 rounded px-1 font-mono hover:bg-surface-2 hover:text-foreground"
              title="Current leaf: where pi would continue the session. Select it."
              data-testid="leaf-id"
            >
              <Icon name="leaf" size={13} /> {leafId}
            </button>
          )}
        </div>
      )}
      <div className="flex shrink-0 items-center">
        <IconButton label="Open another session file" onClick={onOpenFile}>
          <Icon name="upload" size={15} />
        </IconButton>
        <ThemeToggle />
      </div>
    </header>
  );
}
