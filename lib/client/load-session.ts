// Loads a session through parse.worker.ts, telling a LoadSink (the viewer's store) how it goes. The load is a state
// machine (load-machine.ts: what each event leads to); this is its driver: it starts the worker, turns its replies
// and the reading's findings (session-reading.ts) into events, and runs the commands each step gives.
// The user-timing measures session:read and session:ready say where a load's time went.
import { Session, type SchemaChecked, type SessionParser } from "@/lib/session";
import type { InspectorTab, ShareManifest } from "@/lib/share/manifest";
import { contentSource } from "./content-source";
import { hearing, idleLoad, nextLoadState, type LoadCommand, type LoadEvent, type LoadState } from "./load-machine";
import type { LoadError, ParseReply, ParseRequest } from "./parse-protocol";
import { SessionReading } from "./session-reading";
import type { SessionSource } from "./session-source";

/** What hears about a load, in order: started, then progress, then ready (or failed); a share's manifest early. */
export interface LoadSink {
  startLoading(source: SessionSource, fileName: string, total: number): void;
  setTab(tab: InspectorTab): void;
  shareOpened(share: ShareManifest): void;
  progress(done: number, total: number): void;
  failLoading(error: string): void;
  /** the session can be shown: select `entryId` if it is there */
  sessionReady(session: Session, entryId: string | null): void;
  /** the schema check arrived after the session was shown and added notes to it */
  diagnosticsChanged(): void;
}

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

/** What a finished load read: the session, and the bytes of the file up to its last newline (a live tail goes on there). */
export interface LoadedSession {
  session: Session;
  complete: number;
}

/** A sealed share file the worker could not open: what the page must ask for. */
export type LockedShare = Extract<LoadError, { kind: "locked" }>;

/** a parse worker started ahead of the next load (see prepareParser) */
let spare: Worker | null = null;

let makeWorker = (): Worker => new Worker(new URL("./parse.worker.ts", import.meta.url), { type: "module" });

/** The standalone viewer has no worker file to load: it starts the worker from its own bundled source. */
export function setParseWorkerFactory(factory: () => Worker): void {
  makeWorker = factory;
}

/**
 * Starts a parse worker ahead of the next load, so that its scripts are fetched and compiled (pi's
 * schemas included) while the user picks a file: a few hundred milliseconds off the load.
 */
export function prepareParser(): void {
  if (!spare && typeof Worker !== "undefined") spare = makeWorker();
}

/** The request with its URLs absolute: the worker resolves none against the page. */
function absolute(request: ParseRequest): ParseRequest {
  if (request.kind !== "url") return request;
  const at = (url: string) => new URL(url, window.location.href).href;
  return { ...request, url: at(request.url), ...(request.light ? { light: at(request.light) } : {}) };
}

/** The kept light index's frames, by range: the light index's URL with the index's id (null: none can be read). */
function framesUrl(request: ParseRequest, index: string | null): string | null {
  if (index === null || request.kind !== "url" || !request.light) return null;
  const url = new URL(request.light);
  url.searchParams.set("index", index);
  return url.href;
}

/** Starts loading; call `cancel()` to stop (the worker is terminated, the sink keeps what it had). */
export function loadSession(target: LoadTarget, sink: LoadSink, onLoaded?: (loaded: LoadedSession) => void, onLocked?: (locked: LockedShare) => void): LoadJob {
  const request = absolute(target.request);
  const started = performance.now();
  let state: LoadState = idleLoad({ ...target, shared: target.request.kind === "share" });
  let worker: Worker | null = null;
  let session: Session | null = null;
  /** the session made to read ahead what it shows first, shown once that is read */
  let early: Session | null = null;
  let schema: SchemaChecked | null = null;

  const pending: LoadEvent[] = [];
  let stepping = false;
  /** Moves the load on; an event that comes while a step's commands run is taken after them. */
  const dispatch = (event: LoadEvent): void => {
    pending.push(event);
    if (stepping) return;
    stepping = true;
    try {
      for (let next = pending.shift(); next; next = pending.shift()) {
        state = nextLoadState(state, next);
        for (const command of state.out) run(command);
      }
    } finally {
      stepping = false;
      pending.length = 0;
    }
  };

  const reading = new SessionReading(() => contentSource(target.request, target.fileName, state), {
    hearing: () => hearing(state),
    slice: (done, total) => dispatch({ type: "slice", done, total }),
    end: ({ done, total, complete }) => dispatch({ type: "end", done, total, complete }),
    indexed: (parser, restored) => dispatch({ type: "indexed", restored, checked: restored && parser.schemaCheckedAsRead !== null, entries: parser.tree.size }),
    schema: ({ lines, issues }) => {
      schema = { lines, issues };
      dispatch({ type: "schema" });
    },
    bug: (error) => dispatch({ type: "bug", message: error instanceof Error ? error.message : String(error) }),
    handBack: (light) => post({ kind: "read", light }, [light.buffer]),
  });

  const post = (message: ParseRequest, transfer: Transferable[] = []) => worker?.postMessage(message, transfer);

  const heard = (reply: ParseReply): void => {
    if (!hearing(state)) return;
    if (reply.type === "error") dispatch({ type: "error", error: reply.error, unlock: onLocked !== undefined });
    else if (reply.type === "ranges") dispatch({ type: "ranges", ranged: reply.ranged });
    else if (reply.type === "manifest") dispatch({ type: "manifest", manifest: reply.manifest });
    else if (reply.type === "progress") dispatch({ type: "progress", done: reply.done, total: reply.total });
    else if (reply.type === "batch") for (const lines of reply.replies) reading.add(lines);
    else if (reply.type === "snapshot") dispatch({ type: "snapshot", restore: reading.restore(reply.snapshot, framesUrl(request, reply.index)) });
    else reading.add(reply);
  };

  const ask = (): void => {
    const made = spare ?? makeWorker();
    spare = null;
    worker = made;
    made.onmessage = (event: MessageEvent<ParseReply>) => heard(event.data);
    made.onerror = (event) => dispatch({ type: "crash", message: event.message });
    if (request.kind === "file" && window.location.protocol === "file:") {
      // a page opened from disk: WebKit's workers may not read a File there, so the page reads it and hands it over
      request.file.arrayBuffer().then(
        (buffer) => {
          if (hearing(state)) post({ kind: "bytes", bytes: new Uint8Array(buffer) }, [buffer]);
        },
        (error: unknown) => dispatch({ type: "unreadable", message: error instanceof Error ? error.message : String(error) }),
      );
    } else post(request);
  };

  const show = (parser: SessionParser, entryId: string | null, notes: "as read" | "pending" | "from worker"): void => {
    const made =
      notes === "as read" && early?.parser === parser
        ? early
        : new Session(parser, notes === "pending" ? { schemaPending: true } : { schemaChecked: notes === "as read" ? parser.schemaCheckedAsRead! : schema! });
    session = made;
    performance.measure("session:read", { start: started });
    sink.sessionReady(made, entryId);
    performance.measure("session:ready", { start: started });
  };

  const run = (command: LoadCommand): void => {
    switch (command.do) {
      case "announce":
        return sink.startLoading(target.source, target.fileName, target.request.kind === "file" ? target.request.file.size : 0);
      case "ask":
        return ask();
      case "setTab":
        return sink.setTab(command.tab);
      case "shareOpened":
        return sink.shareOpened(command.manifest);
      case "progress":
        return sink.progress(command.done, command.total);
      case "makeIds":
        return reading.makeIds(() => dispatch({ type: "ids made" }));
      case "readAhead": {
        const parser = reading.index!;
        early = new Session(parser, { schemaChecked: parser.schemaCheckedAsRead! });
        void reading.readAhead(early, command.entryId).then(() => dispatch({ type: "read ahead" }));
        return;
      }
      case "resume":
        return post({ kind: "resume" });
      case "check": {
        const lights = reading.keptLights();
        return post(
          { kind: "check", lights },
          lights.map((light) => light.buffer),
        );
      }
      case "show":
        return show(reading.index!, command.entryId, command.notes);
      case "loaded":
        return onLoaded?.({ session: session!, complete: command.complete });
      case "acceptNotes":
        session!.acceptSchema(schema!);
        return sink.diagnosticsChanged();
      case "textStopped":
        return reading.textStopped();
      case "stop":
        worker?.terminate();
        // the next file opens as fast as this one, once the page has nothing else to do
        if (command.next && typeof requestIdleCallback === "function") requestIdleCallback(prepareParser);
        return;
      case "fail":
        return sink.failLoading(command.message);
      case "cancelled":
        return sink.failLoading(CANCELLED);
      case "locked":
        return onLocked?.(command.locked);
      case "measure":
        performance.measure(command.name, { start: started });
    }
  };

  dispatch({ type: "start", refusal: target.refusal });
  return {
    cancel: () => dispatch({ type: "cancel" }),
    dispose: () => dispatch({ type: "dispose" }),
  };
}
