"use client";

/** One of the context diff's three lists ("Only in A", "Only in B", "Shared"): the messages, each tagged with the entry it comes from. */
import { messageKind, messageSnippet } from "@/components/inspector/entry-kind";
import { VirtualList } from "@/components/inspector/VirtualList";
import type { ComparedMessage, LabelState } from "@/lib/session";
import { EntryRow, ROW_HEIGHT } from "./EntryRow";

interface Props {
  title: string;
  testId: string;
  items: readonly ComparedMessage[];
  labels: ReadonlyMap<string, LabelState>;
  selectedId: string | null;
  empty: string;
  tone: string;
}

export function MessageList({ title, testId, items, labels, selectedId, empty, tone }: Props) {
  const headingId = `${testId}-title`;
  return (
    <section aria-labelledby={headingId} data-testid={testId} className="flex min-h-0 flex-col border-t border-border">
      <h3 id={headingId} className="flex items-center gap-2 px-3 pt-2 pb-1 text-[12px] font-semibold">
        <span aria-hidden="true" className={`h-2.5 w-2.5 rounded-sm ${tone}`} />
        <span>{title}</span>
        <span className="font-normal text-muted tabular-nums">
          {items.length} {items.length === 1 ? "message" : "messages"}
        </span>
      </h3>
      {items.length === 0 ? (
        <p className="px-3 pb-2 text-[12px] text-muted">{empty}</p>
      ) : (
        <VirtualList
          label={title}
          className="max-h-72"
          count={items.length}
          estimateSize={() => ROW_HEIGHT}
          getKey={(i) => items[i]!.key}
          rowProps={(i) => ({ "data-entry-id": items[i]!.entryId, "data-message-key": items[i]!.key })}
          renderRow={(i) => {
            const item = items[i]!;
            return (
              <EntryRow
                id={item.entryId}
                kind={messageKind(item.message.message)}
                text={messageSnippet(item.message.message)}
                label={labels.get(item.entryId)?.label ?? null}
                n={i + 1}
                selected={item.entryId === selectedId}
              />
            );
          }}
        />
      )}
    </section>
  );
}
