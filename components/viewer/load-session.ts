// Loads a session into the viewer store through parse.worker.ts, with progress; the page parses and indexes
// the text as it arrives. The user-timing measures session:read and session:ready say where a load's time went.
import { Session, SessionParser, type SchemaChecked } from "@/lib/session";
import type { LoadError, ParseReply, ParseRequest } from "./parse-protocol";
import { viewer, type InspectorTab, type SessionSource } from "./store";

export interface LoadJob {
  /** the user gave up: stop, and say so in the store */
  cancel(): void;
  /** the page went away or started another load: stop quietly */
  dispose(): void;
}

export interface LoadTarget {
  request: ParseRequest;
  source: SessionSource;
  fileName: string;
  /** deep-linked entry and tab to restore once the session is ready */
  entryId: string | null;
  tab: InspectorTab | null;
  /** why the file is not read at all (too large): shown as the load error */
  refusal?: string;
}

export const CANCELLED = "Loading was cancelled.";

export function describeLoadError(error: LoadError): string {
  if (error.kind === "http") {
    if (error.status === 404) return `${error.message.charAt(0).toUpperCase()}${error.message.slice(1)}.`;
    if (error.status === 400 || error.status === 403) return `This path cannot be opened: ${error.message}.`;
    return `The server answered ${error.status}: ${error.message}.`;
  }
  return error.message;
}

/** What a finished load read: the session, and the bytes of the file up to its last newline (a live tail goes on there). */
export interface LoadedSession {
  session: Session;
  complete: number;
}

/** Starts loading; call `cancel()` to stop (the worker is terminated, the store keeps what it had). */
export function loadSession(target: LoadTarget, onLoaded?: (loaded: LoadedSession) => void): LoadJob {
  const total = target.request.kind === "file" ? target.request.file.size : 0;
  viewer.startLoading(target.source, target.fileName, total);
  if (target.refusal) {
    viewer.failLoading(target.refusal);
    return { cancel() {}, dispose() {} };
  }
  if (target.tab) viewer.setTab(target.tab);
  const parser = new SessionParser();
  const started = performance.now();
  const worker = new Worker(new URL("./parse.worker.ts", import.meta.url), { type: "module" });
  let finished = false;
  const stop = () => {
    finished = true;
    worker.terminate();
  };
  // the session is made once the page has parsed the text and the worker has checked it (whichever comes last)
  let schemaChecked: SchemaChecked | null = null;
  let parsed: { complete: number } | null = null;
  const ready = () => {
    if (!parsed || !schemaChecked) return;
    stop();
    const session = new Session(parser, { schemaChecked });
    performance.measure("session:read", { start: started });
    viewer.sessionReady(session, target.entryId);
    performance.measure("session:ready", { start: started });
    onLoaded?.({ session, complete: parsed.complete });
  };
  worker.onmessage = (event: MessageEvent<ParseReply>) => {
    if (finished) return;
    const reply = event.data;
    if (reply.type === "error") {
      stop();
      viewer.failLoading(describeLoadError(reply.error));
      return;
    }
    try {
      if (reply.type === "schema") {
        schemaChecked = { lines: reply.lines, issues: reply.issues };
        performance.measure("session:schema", { start: started });
        return ready();
      }
      // one slice per task: the page stays responsive (progress moves, Cancel is heard) while a big file is read
      parser.push(reply.text);
      viewer.progress(reply.done, reply.total);
      if (reply.type === "text") return;
      parser.end();
      performance.measure("session:parsed", { start: started });
      parsed = { complete: reply.complete };
      ready();
    } catch (error) {
      // the core reports bad input as diagnostics; reaching this is a bug, shown rather than swallowed
      stop();
      viewer.failLoading(`The session could not be indexed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  worker.onerror = (event) => {
    if (finished) return;
    stop();
    viewer.failLoading(`The file could not be read: ${event.message || "the reader stopped"}.`);
  };
  const request = target.request.kind === "url" ? { kind: "url" as const, url: new URL(target.request.url, window.location.href).href } : target.request;
  worker.postMessage(request);
  return {
    cancel() {
      if (finished) return;
      stop();
      viewer.failLoading(CANCELLED);
    },
    dispose() {
      if (!finished) stop();
    },
  };
}
