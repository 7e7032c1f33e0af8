"use client";

import { viewer } from "@/components/viewer/store";

/** An entry's id at the end of a row: selects the entry and shows it in the Entry tab. */
export function EntryIdLink({ entryId }: { entryId: string }) {
  return (
    <button
      type="button"
      onClick={() => {
        viewer.select(entryId);
        viewer.setTab("entry");
      }}
      title={`Open ${entryId} in the Entry tab`}
      className="shrink-0 font-mono text-[11px] text-accent hover:underline"
    >
      {entryId}
    </button>
  );
}
