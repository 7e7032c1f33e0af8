// Loads a session through parse.worker.ts, telling a LoadSink (the viewer's store) how it goes; the page parses
// and indexes the light lines as they arrive (long strings cut: lib/session/read/light-lines.ts), keeping their
// bytes for the tree to read entries again from (LightSessionReader.keepLightText), or restores the index from
// the snapshot the server kept of it (a library file opened before); content is read again from the file when it
// is shown (contentSource).
// The user-timing measures session:read and session:ready say where a load's time went.
import { Session, type SchemaChecked, type SessionParser } from "@/lib/session";
import { ElidedLines } from "@/lib/session/read/elided-lines";
import { LightSessionReader } from "@/lib/session/read/light-session";
import type { LineTexts } from "@/lib/session/read/line-texts";
import { RangedLines } from "@/lib/session/read/ranged-lines";
import { blobSource, framesSource, rangeSource } from "./byte-sources";
import type { InspectorTab, ShareManifest } from "@/lib/share/manifest";
import type { LoadError, ParseReply, ParseRequest } from "./parse-protocol";
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

/**
 * How long a task reads light text for (a stream chunk can be megabytes). A slice of time, not of bytes: what a
 * byte costs depends on its lines and on what else the cores run (a first open shares them with the server
 * making the file's index, and a fixed slice of bytes then took up to half a second).
 */
const SLICE_MS = 30;

/** Runs `run` in a task of its own, after whatever input and rendering are waiting. */
function nextTask(run: () => void): void {
  const channel = new MessageChannel();
  channel.port1.onmessage = () => run();
  channel.port2.postMessage(null);
}

/** a parse worker started ahead of the next load (see prepareParser) */
let spare: Worker | null = null;

let makeWorker = (): Worker => new Worker(new URL("./parse.worker.ts", import.meta.url), { type: "module" });

/** The standalone viewer has no worker file to load: it starts the worker from its own bundled source. */
export function setParseWorkerFactory(factory: () => Worker): void {
  makeWorker = factory;
}

function parseWorker(): Worker {
  return makeWorker();
}

/** A sealed share file the worker could not open: what the page must ask for. */
export type LockedShare = Extract<LoadError, { kind: "locked" }>;

/**
 * Starts a parse worker ahead of the next load, so that its scripts are fetched and compiled (pi's
 * schemas included) while the user picks a file: a few hundred milliseconds off the load.
 */
export function prepareParser(): void {
  if (!spare && typeof Worker !== "undefined") spare = parseWorker();
}

/**
 * Where the session's content is read from when it is shown: a picked file, a library file and a URL whose
 * server serves byte ranges are read again by range, so the page keeps none of their content; a share file,
 * another URL and a file a page opened from disk reads are kept in memory (their bytes cannot be read again
 * by range).
 */
function contentSource(target: LoadTarget, shared: boolean, ranged: boolean): LineTexts {
  const { request } = target;
  if (shared) return new ElidedLines();
  if (request.kind === "file" && window.location.protocol !== "file:") return new RangedLines(blobSource(request.file), { name: target.fileName });
  if (request.kind === "url" && ranged) return new RangedLines(rangeSource(request.url), { name: target.fileName });
  return new ElidedLines();
}

/** Entries up each path a session opens on that are read ahead: those its first drawing and context read. */
const SHOWN_AHEAD = 1024;

/**
 * The lines of the entries a restored session's first view reads: up the path from the leaf and from the entry
 * a link names (its context reads back to the last compaction, its graph the cards around it). What else it
 * reads before the lines come is read a frame at a time.
 */
function shownFirstLines(session: Session, entryId: string | null): number[] {
  const tree = session.tree;
  const lines: number[] = [];
  for (const id of new Set([session.leafId, entryId])) {
    if (id === null) continue;
    for (let slot = tree.slotOf(id), n = 0; slot >= 0 && n < SHOWN_AHEAD; slot = tree.parentSlot(slot), n++) lines.push(tree.lineAt(slot));
  }
  return lines;
}

/** The kept light index's frames, by range: the light index's URL with the index's id. */
function framesUrl(light: string, index: string): string {
  const url = new URL(light);
  url.searchParams.set("index", index);
  return url.href;
}

/** Starts loading; call `cancel()` to stop (the worker is terminated, the sink keeps what it had). */
export function loadSession(target: LoadTarget, sink: LoadSink, onLoaded?: (loaded: LoadedSession) => void, onLocked?: (locked: LockedShare) => void): LoadJob {
  const total = target.request.kind === "file" ? target.request.file.size : 0;
  sink.startLoading(target.source, target.fileName, total);
  if (target.refusal) {
    sink.failLoading(target.refusal);
    return { cancel() {}, dispose() {} };
  }
  if (target.tab) sink.setTab(target.tab);
  // made at the first lines: a URL may turn out to be a share file, whose bytes are not the file's
  let reader: LightSessionReader | null = null;
  let shared = target.request.kind === "share";
  let ranged = false;
  const started = performance.now();
  const worker = spare ?? parseWorker();
  spare = null;
  /** the session is in the store (or the load failed): Cancel has nothing left to stop */
  let settled = false;
  let stopped = false;
  const stop = () => {
    stopped = true;
    worker.terminate();
  };
  const fail = (message: string) => {
    settled = true;
    stop();
    sink.failLoading(message);
  };
  let session: Session | null = null;
  let parser: SessionParser | null = null;
  let schema: SchemaChecked | null = null;
  /** `complete`: null for a session shown before its lines have all come (showEarly): it is loaded at their end */
  const ready = (made: Session, complete: number | null) => {
    settled = true;
    session = made;
    performance.measure("session:read", { start: started });
    sink.sessionReady(made, target.entryId);
    performance.measure("session:ready", { start: started });
    if (complete !== null) onLoaded?.({ session: made, complete });
  };
  /**
   * A restored index whose lines are still coming is shown once what its first view reads was read ahead: the
   * lines are kept as they come, and what is read before them is read from the server's index by frame.
   */
  const showEarly = (read: LightSessionReader, made: SessionParser) => {
    const checked = made.schemaCheckedAsRead;
    // (a small file's lines may all have come while the index of ids was made, and shown it)
    if (!checked || session || stopped) return resume();
    const shown = new Session(made, { schemaChecked: checked });
    void read.readAhead(shownFirstLines(shown, target.entryId)).then(() => {
      if (stopped || session) return;
      performance.measure("session:restored", { start: started });
      ready(shown, null);
      resume();
    });
  };
  let complete = 0;
  /** the server sent the snapshot of the index: the worker keeps none of the lines for its check */
  let snapshotCame = false;
  /** The worker holds the lines after a snapshot until this: once the session is shown, or will not be early. */
  const resume = () => {
    if (!stopped) worker.postMessage({ kind: "resume" } satisfies ParseRequest);
  };
  /** lines, the end and the schema check's notes, read in order, a slice of lines per task */
  const queue: Extract<ParseReply, { type: "lines" | "end" | "schema" }>[] = [];
  /** the index made room for the entries the file holds, judged from its first lines (LightSessionReader.expectFrom) */
  let sized = false;
  /** a restored index's steps making its index of ids again */
  let idSteps: Generator<void, void, void> | null = null;
  /** per slice of lines: the light text as the worker sent it, handed back once read */
  const handBack = new WeakMap<object, Uint8Array>();
  /** The index is made: shows the session now or once its schema check comes; true when the worker is done. */
  const indexed = (read: LightSessionReader, made: SessionParser): boolean => {
    performance.measure(read.restoredIndex ? "session:restored" : "session:parsed", { start: started });
    const checked = read.restoredIndex ? made.schemaCheckedAsRead : null;
    if (checked) {
      // the server checked the lines when it made the snapshot: the worker has nothing left to do
      stop();
      if (typeof requestIdleCallback === "function") requestIdleCallback(prepareParser);
      ready(new Session(made, { schemaChecked: checked }), complete);
      return true;
    }
    if (snapshotCame) {
      // the worker kept none of the lines: it checks the page's (copies: the page keeps its own)
      const lights = read.keptLightText.map((light) => light.slice());
      worker.postMessage(
        { kind: "check", lights } satisfies ParseRequest,
        lights.map((light) => light.buffer),
      );
    }
    // the schema check only adds notes: a session with entries is shown at once and gets them when they come;
    // an empty one waits, as its notes are all there is to show
    if (made.tree.size > 0) ready(new Session(made, { schemaPending: true }), complete);
    return false;
  };
  const readNext = (): void => {
    if (stopped || queue.length === 0) return;
    try {
      const reply = queue[0]!;
      if (reply.type === "lines") {
        if (!reader) {
          reader = new LightSessionReader(contentSource(target, shared, ranged));
          reader.keepLightText();
        }
        // the page stays responsive (progress moves, Cancel is heard) while a big file is read, however big the
        // stream's chunks are
        const until = performance.now() + SLICE_MS;
        let read: boolean;
        while (!(read = reader.pushSome(reply, 1)) && performance.now() < until);
        if (read) {
          if (!sized) sized = reader.expectFrom(reply.done, reply.total);
          queue.shift();
          const back = handBack.get(reply);
          if (back) worker.postMessage({ kind: "read", light: back } satisfies ParseRequest, [back.buffer]);
          if (!session) sink.progress(reply.done, reply.total);
        }
        if (queue.length) nextTask(readNext);
        return;
      }
      if (reply.type === "end") {
        const read = (reader ??= new LightSessionReader());
        if (!parser) {
          sink.progress(reply.done, reply.total);
          parser = read.end(reply.last);
          complete = reply.complete;
        }
        // a restored index makes its index of ids again a step per task (the end stays first in the queue, so
        // what comes meanwhile waits for it)
        if (read.restoredIndex && !(idSteps ??= parser.tree.idIndexSteps()).next().done) return nextTask(readNext);
        queue.shift();
        if (session) {
          // shown before its lines came (showEarly): now it is whole, and live
          performance.measure("session:lines", { start: started });
          stop();
          if (typeof requestIdleCallback === "function") requestIdleCallback(prepareParser);
          onLoaded?.({ session, complete });
          return;
        }
        if (indexed(read, parser)) return;
      } else {
        queue.shift();
        schema = { lines: reply.lines, issues: reply.issues };
        performance.measure("session:schema", { start: started });
        stop();
        // the next file opens as fast as this one, once the page has nothing else to do
        if (typeof requestIdleCallback === "function") requestIdleCallback(prepareParser);
        if (session) {
          session.acceptSchema(schema);
          sink.diagnosticsChanged();
        } else if (parser) ready(new Session(parser, { schemaChecked: schema }), complete);
      }
      readNext();
    } catch (error) {
      // the core reports bad input as diagnostics; reaching this is a bug, shown rather than swallowed
      fail(`The session could not be indexed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  worker.onmessage = (event: MessageEvent<ParseReply>) => {
    if (stopped) return;
    const reply = event.data;
    if (reply.type === "error") {
      if (reply.error.kind === "locked" && onLocked) {
        settled = true;
        stop();
        return onLocked(reply.error);
      }
      return fail(describeLoadError(reply.error));
    }
    if (reply.type === "ranges") {
      ranged = reply.ranged;
      return;
    }
    if (reply.type === "manifest") {
      // what the sender had selected applies unless the link names its own entry and tab
      target = { ...target, entryId: target.entryId ?? reply.manifest.entryId, tab: target.tab ?? reply.manifest.tab };
      if (target.tab) sink.setTab(target.tab);
      shared = true;
      return sink.shareOpened(reply.manifest);
    }
    if (reply.type === "progress") return sink.progress(reply.done, reply.total);
    if (reply.type === "batch") {
      for (const lines of reply.replies) queued(lines);
      return;
    }
    if (reply.type === "snapshot") {
      // the server kept the index these lines make: it is restored now and the lines are kept as they come; with
      // where its frames are, it is shown before they come (showEarly), else once they have
      snapshotCame = true;
      const read = (reader = new LightSessionReader(contentSource(target, shared, ranged)));
      read.keepLightText();
      const frames = reply.index !== null && request.kind === "url" && request.light ? framesUrl(request.light, reply.index) : null;
      const early = frames ? read.restoreNow(reply.snapshot, framesSource(frames), rangeSource(frames)) : null;
      if (!early) {
        read.restoreFrom(reply.snapshot);
        resume();
      }
      // the restored index makes its index of ids again while the lines come, a step per task
      const tree = read.restoredTree;
      if (tree) {
        const steps = (idSteps = tree.idIndexSteps());
        const step = () => {
          if (stopped) return;
          if (!steps.next().done) return nextTask(step);
          if (early) showEarly(read, early);
        };
        nextTask(step);
      }
      return;
    }
    queued(reply);
  };
  const queued = (reply: (typeof queue)[number]) => {
    if (reply.type === "lines" && !reply.kept) {
      // the tree reads its entries again from the light text, so the page keeps it: a copy of its own size (the
      // worker's buffer has room to spare), and the worker gets its buffer back for the schema check
      handBack.set(reply, reply.light);
      reply.light = reply.light.slice();
    }
    queue.push(reply);
    if (queue.length === 1) readNext();
  };
  worker.onerror = (event) => {
    if (stopped) return;
    if (settled) {
      // the schema check failed after the session was shown: it stays without those notes; or the lines of one
      // shown before they came stopped coming: it goes on reading its entries by frame
      reader?.textStopped();
      return stop();
    }
    fail(`The file could not be read: ${event.message || "the reader stopped"}.`);
  };
  const absolute = (url: string) => new URL(url, window.location.href).href;
  const request =
    target.request.kind === "url"
      ? { ...target.request, url: absolute(target.request.url), ...(target.request.light ? { light: absolute(target.request.light) } : {}) }
      : target.request;
  if (request.kind === "file" && window.location.protocol === "file:") {
    // a page opened from disk: WebKit's workers may not read a File there, so the page reads it and hands it over
    request.file.arrayBuffer().then(
      (buffer) => {
        if (!stopped) worker.postMessage({ kind: "bytes", bytes: new Uint8Array(buffer) } satisfies ParseRequest, [buffer]);
      },
      (error: unknown) => fail(`The file could not be read: ${error instanceof Error ? error.message : String(error)}`),
    );
  } else worker.postMessage(request);
  return {
    cancel() {
      if (!settled) fail(CANCELLED);
    },
    dispose() {
      if (!stopped) stop();
    },
  };
}
