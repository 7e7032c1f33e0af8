"use client";

/** The Entry tab: the selected entry, rendered, with its exact JSON one click away. */
import { useMemo, useState } from "react";
import type { Session, TreeEntry } from "@/lib/session";
import { EntryBody } from "./EntryBody";
import { EntryHeader } from "./EntryHeader";
import { CodeBlock } from "@/components/transcript/CodeBlock";

const KNOWN_TYPES = new Set([
  "message",
  "custom_message",
  "custom",
  "compaction",
  "branch_summary",
  "model_change",
  "thinking_level_change",
  "active_tools_change",
  "label",
  "session_info",
  "leaf",
]);

export function EntryTab({ session, entry }: { session: Session; entry: TreeEntry }) {
  const known = typeof entry.type === "string" && KNOWN_TYPES.has(entry.type);
  return (
    <div className="flex flex-col gap-3 p-3">
      <EntryHeader session={session} entry={entry} />
      <EntryBody entry={entry} />
      <RawJson key={String(entry.id)} entry={entry} openAtFirst={!known} />
    </div>
  );
}

/**
 * The entry as written, highlighted as JSON and folded like any block, made only once opened: an entry with a
 * 5 MB output is 5 MB of JSON to lay out (highlighted off the page thread; virtualized once unfolded).
 */
function RawJson({ entry, openAtFirst }: { entry: TreeEntry; openAtFirst: boolean }) {
  const [open, setOpen] = useState(openAtFirst);
  const text = useMemo(() => (open ? JSON.stringify(entry, null, 2) : ""), [open, entry]);
  return (
    <details open={open} onToggle={(event) => setOpen(event.currentTarget.open)} className="border-t border-border pt-2">
      <summary className="cursor-pointer text-[12px] font-medium text-muted select-none">Raw JSON</summary>
      {open ? (
        <div className="mt-1">
          <CodeBlock code={text} language="json" label="raw JSON" />
        </div>
      ) : null}
    </details>
  );
}
