"use client";

import type { Ref } from "react";

/** The hidden picker for a session file; a visible button opens it through `ref`. */
export function SessionFileInput({ ref, onFile }: { ref: Ref<HTMLInputElement>; onFile: (file: File) => void }) {
  return (
    <input
      ref={ref}
      type="file"
      accept=".jsonl,application/x-ndjson,application/jsonl,text/plain"
      className="hidden"
      data-testid="file-input"
      onChange={(event) => {
        const file = event.target.files?.[0];
        event.target.value = ""; // picking the same file again still fires
        if (file) onFile(file);
      }}
    />
  );
}
