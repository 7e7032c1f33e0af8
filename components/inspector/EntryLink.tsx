"use client";

/** An entry id that selects the entry when clicked; ids not in the file are shown, but not as links. */
import { viewer, useViewer } from "@/components/viewer/store";

export function EntryLink({ id, title }: { id: unknown; title?: string }) {
  const exists = useViewer((s) => typeof id === "string" && !!s.doc?.session.tree.get(id));
  if (typeof id !== "string") return <span className="font-mono text-[12px] text-muted">{JSON.stringify(id) ?? "undefined"}</span>;
  if (!exists) {
    return (
      <span className="font-mono text-[12px] text-muted" title="not in the file">
        {id} <span className="font-sans">(not in the file)</span>
      </span>
    );
  }
  return (
    <button
      type="button"
      data-link-entry-id={id}
      title={title ?? `Select ${id}`}
      onClick={() => viewer.select(id)}
      className="rounded font-mono text-[12px] text-accent underline decoration-dotted underline-offset-2 hover:decoration-solid focus-visible:outline focus-visible:outline-2 focus-visible:outline-accent"
    >
      {id}
    </button>
  );
}
