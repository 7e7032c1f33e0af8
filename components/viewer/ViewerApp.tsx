"use client";

// The viewer page: loads the session named by the URL (a library file, a URL, or a file from disk) through the
// parse worker, then lays out the graph, the inspector and the leaf timeline around the store.
import { useCallback, useEffect, useRef, useState } from "react";
import { LeafTimeline } from "@/components/graph/LeafTimeline";
import { SessionGraph } from "@/components/graph/SessionGraph";
import { Inspector } from "@/components/inspector/Inspector";
import { DropOverlay } from "@/components/ui/DropOverlay";
import { useFileDrop } from "@/components/ui/use-file-drop";
import { DiagnosticsBanner } from "./DiagnosticsBanner";
import { DiagnosticsList } from "./DiagnosticsList";
import { CANCELLED, loadSession, type LoadJob, type LoadTarget } from "./load-session";
import { LoadingView } from "./LoadingView";
import { pendingUpload } from "./pending-upload";
import { SplitView } from "./SplitView";
import { useViewer, viewer } from "./store";
import { TopBar } from "./TopBar";
import { useUrlSync } from "./url-sync";
import type { ViewParams } from "./view-params";
import { ViewerMessage } from "./ViewerMessage";

type Plan = { kind: "load"; target: LoadTarget } | { kind: "upload-lost"; name: string } | { kind: "nothing" };

interface Props {
  params: ViewParams;
  /** the library is the bundled samples (their paths are served from public/samples) */
  samples: boolean;
  /** the sessions directory on the server's disk, for a fork's parentSession */
  sessionsDir: string | null;
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1) || path;
}

function uploadTarget(file: File): LoadTarget {
  return { request: { kind: "file", file }, source: { kind: "upload", name: file.name, size: file.size }, fileName: file.name, entryId: null, tab: null };
}

function planFor({ params, samples, sessionsDir }: Props): Plan {
  const restore = { entryId: params.entry, tab: params.tab };
  if (params.upload) {
    const file = pendingUpload(params.upload);
    return file ? { kind: "load", target: { ...uploadTarget(file), ...restore } } : { kind: "upload-lost", name: params.upload };
  }
  if (params.file) {
    const url = `/api/sessions/raw?path=${encodeURIComponent(params.file)}`;
    const source = samples
      ? { kind: "sample" as const, path: params.file }
      : { kind: "server" as const, path: params.file, ...(sessionsDir ? { absolutePath: `${sessionsDir}/${params.file}` } : {}) };
    return { kind: "load", target: { request: { kind: "url", url }, source, fileName: baseName(params.file), ...restore } };
  }
  if (params.src) {
    return { kind: "load", target: { request: { kind: "url", url: params.src }, source: { kind: "url", url: params.src }, fileName: baseName(params.src.split(/[?#]/)[0]!), ...restore } };
  }
  return { kind: "nothing" };
}

export function ViewerApp(props: Props) {
  const [plan, setPlan] = useState<Plan>(() => planFor(props));
  const job = useRef<LoadJob | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const phase = useViewer((s) => s.load.phase);
  const error = useViewer((s) => s.load.error);
  const session = useViewer((s) => s.session);
  const fileName = useViewer((s) => s.fileName);

  useEffect(() => {
    if (plan.kind !== "load") {
      viewer.reset();
      return;
    }
    const started = loadSession(plan.target);
    job.current = started;
    return () => started.dispose();
  }, [plan]);

  const openFile = useCallback((file: File) => setPlan({ kind: "load", target: uploadTarget(file) }), []);
  const pickFile = useCallback(() => fileInput.current?.click(), []);
  const dragging = useFileDrop(openFile);
  useUrlSync();

  let body;
  if (plan.kind === "upload-lost") {
    body = (
      <ViewerMessage icon="upload" title={`Open ${plan.name} again`} onOpenFile={pickFile}>
        Files opened from your computer are read in the browser and not kept, so a reload loses them. Drop the file here or choose it again.
      </ViewerMessage>
    );
  } else if (plan.kind === "nothing") {
    body = (
      <ViewerMessage icon="file" title="No session chosen" onOpenFile={pickFile}>
        Pick a session in the library, drop a <code className="font-mono">.jsonl</code> file here, or open one from your computer.
      </ViewerMessage>
    );
  } else if (phase === "error") {
    body =
      error === CANCELLED ? (
        <ViewerMessage icon="x" title="Loading cancelled" onOpenFile={pickFile}>
          {fileName} was not opened.
        </ViewerMessage>
      ) : (
        <ViewerMessage icon="error" tone="danger" title="Could not open the session" onOpenFile={pickFile}>
          <span data-testid="load-error">{error}</span>
        </ViewerMessage>
      );
  } else if (phase !== "ready" || !session) {
    body = <LoadingView onCancel={() => job.current?.cancel()} />;
  } else if (session.tree.size === 0) {
    const diagnostics = session.diagnostics();
    const problem = diagnostics.some((d) => d.severity === "error");
    body = (
      <ViewerMessage icon={problem ? "error" : "entries"} tone={problem ? "danger" : "neutral"} title={problem ? "Not a session pi can read" : "This session has no entries yet"} onOpenFile={pickFile}>
        {diagnostics.length > 0 && (
          <div className="mt-2 overflow-hidden rounded-md border border-border">
            <DiagnosticsList diagnostics={diagnostics} fileName={fileName} />
          </div>
        )}
      </ViewerMessage>
    );
  } else {
    body = (
      <>
        <DiagnosticsBanner />
        <SplitView
          main={
            <>
              <div className="min-h-0 flex-1">
                <SessionGraph />
              </div>
              <LeafTimeline className="shrink-0 border-t border-border" />
            </>
          }
          side={<Inspector />}
        />
      </>
    );
  }

  return (
    <div className="flex h-screen flex-col overflow-hidden" data-testid="dropzone" data-load-phase={plan.kind === "load" ? phase : plan.kind}>
      <TopBar onOpenFile={pickFile} />
      {body}
      <input
        ref={fileInput}
        type="file"
        accept=".jsonl,application/x-ndjson,application/jsonl,text/plain"
        className="hidden"
        data-testid="file-input"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = "";
          if (file) openFile(file);
        }}
      />
      <DropOverlay visible={dragging} title="Drop to open this session instead" detail="The file is read in your browser; nothing is uploaded." />
    </div>
  );
}
