"use client";

// The viewer page: loads the session named by the URL (a library file, a URL, or a file from disk) through the
// parse worker, then lays out the graph, the inspector and the leaf timeline around the store.
import "../../lib/client/zod-jitless"; // first: the core's schemas are built when it is imported, and must see this setting
import { useCallback, useDeferredValue, useEffect, useRef, useState } from "react";
import { ComparePickBanner } from "@/components/compare/ComparePickBanner";
import { CompareView } from "@/components/compare/CompareView";
import { LeafTimeline } from "@/components/graph/LeafTimeline";
import { SessionGraph } from "@/components/graph/SessionGraph";
import { HiddenSelectionNotice } from "@/components/search/HiddenSelectionNotice";
import { Inspector } from "@/components/inspector/Inspector";
import { DropOverlay } from "@/components/ui/DropOverlay";
import { SessionFileInput } from "@/components/ui/SessionFileInput";
import { useFileDrop } from "@/components/ui/use-file-drop";
import { DiagnosticsBanner } from "./DiagnosticsBanner";
import { ForkBanner } from "./ForkBanner";
import { DiagnosticsList } from "./DiagnosticsList";
import { warmGraph } from "@/components/graph/warm-graph";
import { CANCELLED, loadSession, prepareParser, type LoadJob } from "@/lib/client/load-session";
import { startLiveTail, type LiveTail } from "@/lib/client/live-tail";
import { LoadingView } from "./LoadingView";
import { planFor, uploadTarget, type Plan, type PlanInput } from "./load-plan";
import type { ShareSecret } from "../../lib/client/parse-protocol";
import { SplitView } from "./SplitView";
import { compareB, sessionOf, useViewer, viewer } from "./store";
import { TopBar } from "./TopBar";
import { UnlockForm } from "./UnlockForm";
import { useUrlSync } from "./url-sync";
import { useReadingKeys } from "./reading-keys";
import { warmingSink } from "./warming-sink";
import { ViewerMessage } from "./ViewerMessage";
import { useSearchRunner } from "@/components/search/search-runner";

// the page loads the session its link names once it is hydrated: the parse worker it reads with starts now, while
// the page's scripts still run, and is ready by then
if (typeof window !== "undefined") prepareParser();

export function ViewerApp(props: PlanInput) {
  const [plan, setPlan] = useState<Plan>(() => planFor(props));
  const job = useRef<LoadJob | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const phase = useViewer((s) => s.load.phase);
  const error = useViewer((s) => s.load.error);
  const session = useViewer(sessionOf);
  // the viewer mounts in a render React may pause (a deferred value renders at a transition's priority): at a
  // large session's first render, the graph, inspector and timeline otherwise made one task of a quarter second
  const shown = useDeferredValue(phase === "ready" ? session : null);
  const fileName = useViewer((s) => s.fileName);
  useViewer((s) => s.doc); // a live session that had no entries gets its graph once they come
  const comparing = useViewer((s) => compareB(s) !== null);
  useSearchRunner();

  useEffect(() => {
    if (plan.kind !== "load") {
      viewer.reset();
      prepareParser();
      return;
    }
    const target = plan.target;
    let live: LiveTail | null = null;
    // the session is shown once the graph's first drawing is made, a step per task (warm-graph.ts)
    const warming = warmingSink(viewer, (session, entryId, cancelled) => warmGraph(session, viewer.get(), entryId, cancelled));
    const started = loadSession(
      target,
      warming.sink,
      ({ session, complete }) => {
        if (target.source.kind !== "server") return;
        // a file that no longer continues what the page read is read again, keeping the selection and tab
        const reload = () => setPlan({ kind: "load", target: { ...target, entryId: viewer.get().selectedId, tab: viewer.get().tab } });
        live = startLiveTail(target.source.path, session, complete, viewer, reload);
      },
      (locked) => setPlan({ kind: "locked", target, locked }),
    );
    job.current = {
      cancel() {
        if (!warming.cancel()) return started.cancel();
        started.dispose();
        live?.stop();
      },
      dispose: () => started.dispose(),
    };
    return () => {
      warming.dispose();
      started.dispose();
      live?.stop();
    };
  }, [plan]);

  const openFile = useCallback((file: File) => setPlan({ kind: "load", target: uploadTarget(file, props.maxFileBytes) }), [props.maxFileBytes]);
  const pickFile = useCallback(() => fileInput.current?.click(), []);
  const dragging = useFileDrop(openFile);
  useUrlSync();
  useReadingKeys();

  let body;
  if (plan.kind === "locked") {
    const { target } = plan;
    const unlock = (secret: ShareSecret) => {
      if (target.request.kind === "share" || target.request.kind === "url")
        setPlan({ kind: "load", target: { ...target, request: { ...target.request, secret } } });
    };
    body = <UnlockForm key={`${plan.locked.lock}:${plan.locked.wrong}`} locked={plan.locked} onUnlock={unlock} />;
  } else if (plan.kind === "upload-lost") {
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
  } else if (phase !== "ready" || !session || shown !== session) {
    body = <LoadingView onCancel={() => job.current?.cancel()} />;
  } else if (session.tree.size === 0) {
    const diagnostics = session.diagnostics();
    const problem = diagnostics.some((d) => d.severity === "error");
    body = (
      <ViewerMessage
        icon={problem ? "error" : "entries"}
        tone={problem ? "danger" : "neutral"}
        title={problem ? "Not a session pi can read" : "This session has no entries yet"}
        onOpenFile={pickFile}
      >
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
        <ForkBanner />
        <SplitView
          wide={comparing}
          main={
            <>
              <ComparePickBanner />
              <HiddenSelectionNotice />
              <div className="min-h-0 flex-1">
                <SessionGraph />
              </div>
              <LeafTimeline className="shrink-0 border-t border-border" />
            </>
          }
          side={comparing ? <CompareView /> : <Inspector />}
        />
      </>
    );
  }

  return (
    <div className="flex h-screen flex-col overflow-hidden" data-testid="dropzone" data-load-phase={plan.kind === "load" ? phase : plan.kind}>
      <TopBar onOpenFile={pickFile} />
      {body}
      <SessionFileInput ref={fileInput} onFile={openFile} />
      <DropOverlay visible={dragging} title="Drop to open this session instead" detail="The file is read in your browser; nothing is uploaded." />
    </div>
  );
}
