"use client";

// The library's sessions, grouped by project, with arrow-key movement between rows.
import type { KeyboardEvent } from "react";
import { Icon } from "@/components/ui/Icon";
import type { ProjectGroup } from "./library-types";
import { ROW_GRID, SessionRow } from "./SessionRow";

function moveFocus(event: KeyboardEvent<HTMLElement>): void {
  if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
  const rows = Array.from(event.currentTarget.querySelectorAll<HTMLElement>("[data-session-row]"));
  const at = rows.indexOf(document.activeElement as HTMLElement);
  const next = rows[event.key === "ArrowDown" ? at + 1 : at - 1];
  if (next) {
    event.preventDefault();
    next.focus();
  }
}

/** `forkPoints`: a fork's path → the entry where it left its source, described (fetched after the list shows) */
export function SessionList({ groups, forkPoints }: { groups: ProjectGroup[]; forkPoints?: ReadonlyMap<string, string> }) {
  return (
    <div id="session-list" onKeyDown={moveFocus}>
      <div
        className={`${ROW_GRID} sticky top-0 z-10 h-8 border-b border-border bg-background/95 px-3 text-[11px] font-medium tracking-wide text-subtle uppercase backdrop-blur`}
      >
        <span>Session</span>
        <span className="text-right">Entries</span>
        <span className="text-right">Branches</span>
        <span className="text-right">Size</span>
        <span className="text-right">Created</span>
      </div>
      {groups.map((group) => (
        <section
          key={group.key}
          aria-label={`${group.machine === undefined ? "" : `${group.machine}: `}${group.cwd ?? (group.project || "top level")}`}
          data-testid="project-group"
          className="mt-3"
        >
          <h2 className="flex items-center gap-2 px-3 pb-1 text-xs text-muted">
            {group.machine !== undefined && (
              <span
                className="flex shrink-0 items-center gap-1 rounded border border-border px-1.5 py-px font-mono text-[11px] text-foreground"
                title="The machine that pushed these sessions"
                data-testid="group-machine"
              >
                <Icon name="machine" size={12} className="text-subtle" />
                {group.machine}
              </span>
            )}
            <Icon name="folder" size={14} className="text-subtle" />
            <span className="truncate font-mono font-medium text-foreground" data-testid="project-cwd">
              {group.cwd ?? (group.project || "(top level)")}
            </span>
            <span className="tabular-nums text-subtle">{group.sessions.length}</span>
          </h2>
          <div className="flex flex-col">
            {group.rows.map(({ session, depth }) => (
              <SessionRow key={session.path} session={session} depth={depth} forkPoint={forkPoints?.get(session.path)} />
            ))}
          </div>
        </section>
      ))}
    </div>
  );
}
