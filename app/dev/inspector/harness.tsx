"use client";

// Loads a session from the server into the viewer store and shows a plain entry list beside the inspector.
import { useEffect, useState } from "react";
import { Inspector } from "@/components/inspector/Inspector";
import { entryKind, entrySnippet } from "@/components/inspector/entry-kind";
import { KindBadge } from "@/components/inspector/KindBadge";
import { useViewer, viewer } from "@/components/viewer/store";
import { Session } from "@/lib/session";

export function Harness() {
  const session = useViewer((s) => s.session);
  const selectedId = useViewer((s) => s.selectedId);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    const file = params.get("file");
    if (!file) return;
    if (params.get("dark")) document.documentElement.classList.add("dark");
    viewer.startLoading({ kind: "server", path: file }, file, 0);
    fetch(`/api/sessions/raw?path=${encodeURIComponent(file)}`)
      .then(async (res) => {
        if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
        const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await res.arrayBuffer());
        viewer.sessionReady(Session.fromText(text), params.get("entry"));
      })
      .catch((e: unknown) => setError(String(e)));
  }, []);
  return (
    <div className="flex h-screen">
      <nav className="w-[40%] overflow-auto border-r border-border text-[12px]">
        {error ? <p className="p-2 text-red-600">{error}</p> : null}
        {session?.tree.entries.map((e, i) =>
          typeof e.id === "string" ? (
            <button key={i} type="button" data-harness-id={e.id} onClick={() => viewer.select(e.id as string)} className={`flex w-full items-center gap-2 px-2 py-0.5 text-left ${selectedId === e.id ? "bg-accent/15" : ""}`}>
              <KindBadge kind={entryKind(e)} />
              <span className="truncate">{entrySnippet(e)}</span>
              <span className="ml-auto font-mono text-muted">{e.id}</span>
            </button>
          ) : null,
        )}
      </nav>
      <aside id="inspector" className="h-full min-w-0 flex-1">
        <Inspector />
      </aside>
    </div>
  );
}
