"use client";

/** The first lines of the Entry tab: what the entry is, where it sits (time, file line, parent, children), its label and model. */
import type { Session, TreeEntry } from "@/lib/session";
import { modelOf } from "@/lib/layout/describe";
import { EntryLink } from "./EntryLink";
import { entryKind } from "./entry-kind";
import { Chip } from "./Fields";
import { KindBadge } from "./KindBadge";

const MAX_CHILD_LINKS = 6;

/** ISO text as pi writes it in v3 files; a v4 log writes epoch milliseconds. */
function isoOf(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value) && Math.abs(value) <= 8.64e15) return new Date(value).toISOString();
  return undefined;
}

export function formatTime(value: unknown): string {
  return isoOf(value)?.replace("T", " ") ?? "(no timestamp)";
}

export function EntryHeader({ session, entry }: { session: Session; entry: TreeEntry }) {
  const kind = entryKind(entry);
  const node = session.tree.node(entry.id);
  const label = session.labels().get(entry.id);
  const children = session.tree.children(entry.id);
  const model = modelOf(entry);
  const isLeaf = session.leafId === entry.id;
  return (
    <header className="flex flex-col gap-1 border-b border-border pb-2">
      <div className="flex min-w-0 flex-wrap items-center gap-2">
        <KindBadge kind={kind} />
        <h2 className="text-[13px] font-semibold">{kind.label}</h2>
        <span className="font-mono text-[12px] text-muted select-all">{entry.id}</span>
        {isLeaf ? (
          <Chip tone="accent" title={`the file's leaf (${session.rules.label} rules)`}>
            leaf
          </Chip>
        ) : null}
        {label ? (
          <Chip tone="warn" title={`set on line ${label.line} by ${label.entryId}`}>
            # {label.label}
          </Chip>
        ) : null}
      </div>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-0.5 text-[12px] text-muted">
        <time dateTime={isoOf(entry.timestamp)} className="font-mono tabular-nums">
          {formatTime(entry.timestamp)}
        </time>
        {node ? <span>line {node.line}</span> : null}
        {model ? <span className="font-mono">{model}</span> : null}
        <span>
          parent{" "}
          {node?.parentId ? (
            <EntryLink id={node.parentId} />
          ) : entry.parentId ? (
            <EntryLink id={entry.parentId} />
          ) : (
            <span className="font-mono">none (root)</span>
          )}
        </span>
        <span className="flex flex-wrap items-center gap-1">
          {children.length === 0 ? "no children" : children.length === 1 ? "child" : `${children.length} children`}
          {children.slice(0, MAX_CHILD_LINKS).map((id) => (
            <EntryLink key={id} id={id} />
          ))}
          {children.length > MAX_CHILD_LINKS ? <span>…</span> : null}
        </span>
      </div>
    </header>
  );
}
