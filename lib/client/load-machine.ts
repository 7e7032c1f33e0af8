// A load's states and what moves it from one to the next: a pure (state, event) → state, the state carrying the
// commands its driver (load-session.ts) runs, in order. What decides when the session is shown, when the worker may
// stop, what a failure says and that nothing reaches the store once a load has ended is here, testable without a
// worker; the worker, the reader of the lines and the store are the driver's.
//
//   idle ──start──► reading ──end──► indexing ──indexed / schema──► ready
//                      │  └──snapshot restored, read ahead──────────► ready (its lines still coming)
//                      └──────────────┴──► failed | cancelled | locked
import type { InspectorTab, ShareManifest } from "@/lib/share/manifest";
import type { LoadError } from "./parse-protocol";

type Locked = Extract<LoadError, { kind: "locked" }>;

/**
 * How the server's snapshot of the index went: restored to be shown before its lines come (`checked`: it brought
 * pi's schema check, made by the server as it built the index), or restored to be shown once they have, or not.
 */
export type SnapshotRestore = { restored: "early"; checked: boolean } | { restored: "later" | "no" };

interface Known {
  /** the file the store was told of when the load started: a failure is said of it */
  fileName: string;
  /** the entry and tab shown once ready: the link's, else what a share's sender had selected */
  entryId: string | null;
  tab: InspectorTab | null;
  /** the bytes are a share file's: its content is kept, never read again from where it came */
  shared: boolean;
  /** the URL's server serves its bytes by range: content is read again from there when shown */
  ranged: boolean;
  snapshot: SnapshotRestore | null;
  /** the worker reads or checks (its replies count); stopped once nothing more is wanted of it */
  worker: "none" | "running" | "stopped";
  /** the bytes up to the last newline, once the lines have ended: where a live tail goes on */
  complete: number;
  /** what the step into this state asks the driver to do, in order */
  out: readonly LoadCommand[];
}

export type LoadState =
  | (Known & { phase: "idle" })
  /** the worker sends lines, which are read (or, with a restored index, kept) a slice per task */
  | (Known & { phase: "reading" })
  /** the lines have ended: the index is finished, or waits for its schema notes (they are all an empty session shows) */
  | (Known & { phase: "indexing" })
  /** the session is in the store; its lines may still come (shown from a snapshot), its notes may still be checked */
  | (Known & { phase: "ready"; lines: "coming" | "whole"; notes: "pending" | "checked" })
  | (Known & { phase: "failed"; message: string })
  /** by the user (the store is told), or by the page that went away or started another load (it is not) */
  | (Known & { phase: "cancelled"; by: "user" | "page" })
  /** a sealed share file: the page asks for its password or key */
  | (Known & { phase: "locked"; locked: Locked });

export type LoadEvent =
  | { type: "start"; refusal?: string }
  | { type: "manifest"; manifest: ShareManifest }
  | { type: "ranges"; ranged: boolean }
  /** bytes came that end no line yet */
  | { type: "progress"; done: number; total: number }
  | { type: "snapshot"; restore: SnapshotRestore }
  /** the restored index has made its index of ids again */
  | { type: "ids made" }
  /** what a restored session shows first has been read ahead */
  | { type: "read ahead" }
  /** a slice of lines was read */
  | { type: "slice"; done: number; total: number }
  | { type: "end"; done: number; total: number; complete: number }
  /** the reader has finished the index (`restored`: from the snapshot), with `entries` entries */
  | { type: "indexed"; restored: boolean; checked: boolean; entries: number }
  | { type: "schema" }
  /** the worker's error; `unlock`: the page can ask for a sealed share's secret */
  | { type: "error"; error: LoadError; unlock: boolean }
  /** the worker failed outside any request */
  | { type: "crash"; message: string }
  /** a page opened from disk could not read the picked file */
  | { type: "unreadable"; message: string }
  /** reading the lines threw: a bug, shown rather than swallowed */
  | { type: "bug"; message: string }
  | { type: "cancel" }
  | { type: "dispose" };

export type LoadCommand =
  | { do: "announce" }
  /** start the worker on the request */
  | { do: "ask" }
  | { do: "setTab"; tab: InspectorTab }
  | { do: "shareOpened"; manifest: ShareManifest }
  | { do: "progress"; done: number; total: number }
  | { do: "makeIds" }
  | { do: "readAhead"; entryId: string | null }
  /** the worker holds the lines after a snapshot until this */
  | { do: "resume" }
  /** the worker kept none of the lines (a snapshot came): give it the page's to check */
  | { do: "check" }
  /** make the session (its notes: checked as the index was built, still to come, or from the worker) and give it to the store */
  | { do: "show"; entryId: string | null; notes: "as read" | "pending" | "from worker" }
  /** hand the session to the live tail: its lines have all come */
  | { do: "loaded"; complete: number }
  | { do: "acceptNotes" }
  /** the lines of a session shown before they came will not come */
  | { do: "textStopped" }
  /** `next`: the load succeeded; start the next load's worker when the page is idle */
  | { do: "stop"; next: boolean }
  | { do: "fail"; message: string }
  | { do: "cancelled" }
  | { do: "locked"; locked: Locked }
  | { do: "measure"; name: string };

/** The load of `fileName`, not started. */
export function idleLoad(target: { fileName: string; entryId: string | null; tab: InspectorTab | null; shared: boolean }): LoadState {
  const { fileName, entryId, tab, shared } = target;
  return { phase: "idle", fileName, entryId, tab, shared, ranged: false, snapshot: null, worker: "none", complete: 0, out: [] };
}

/** Whether the worker's replies, and the reading they set off, still count. */
export const hearing = (state: LoadState): boolean => state.worker === "running";

/** Says a worker's error for people: the server's message, with what its status means. */
export function describeLoadError(error: LoadError): string {
  if (error.kind === "http") {
    if (error.status === 404) return `${error.message.charAt(0).toUpperCase()}${error.message.slice(1)}.`;
    if (error.status === 400 || error.status === 403) return `This path cannot be opened: ${error.message}.`;
    return `The server answered ${error.status}: ${error.message}.`;
  }
  return error.message;
}

const ended = (state: LoadState): boolean => state.phase === "failed" || state.phase === "cancelled" || state.phase === "locked";

function failed(state: LoadState, message: string): LoadState {
  return {
    ...state,
    phase: "failed",
    message,
    worker: "stopped",
    out: [
      { do: "stop", next: false },
      { do: "fail", message },
    ],
  };
}

export function nextLoadState(state: LoadState, event: LoadEvent): LoadState {
  const same = { ...state, out: [] };
  if (ended(state)) return same;
  if (event.type === "start") return state.phase === "idle" ? started(state, event.refusal) : same;
  if (event.type === "cancel" || event.type === "dispose") return stopped(state, event.type);
  // what the worker sends, and what the reading of it finds, counts only while the worker runs
  return hearing(state) ? heard(state, event) : same;
}

function started(state: LoadState, refusal: string | undefined): LoadState {
  if (refusal) return { ...failed(state, refusal), out: [{ do: "announce" }, { do: "fail", message: refusal }] };
  const tab: LoadCommand[] = state.tab ? [{ do: "setTab", tab: state.tab }] : [];
  return { ...state, phase: "reading", worker: "running", out: [{ do: "announce" }, ...tab, { do: "ask" }] };
}

/** Cancel has nothing left to stop once the session is shown; the page going away stops whatever still runs. */
function stopped(state: LoadState, by: "cancel" | "dispose"): LoadState {
  if (state.phase === "ready")
    return hearing(state) && by === "dispose" ? { ...state, worker: "stopped", out: [{ do: "stop", next: false }] } : { ...state, out: [] };
  const out: LoadCommand[] = by === "cancel" ? [{ do: "stop", next: false }, { do: "cancelled" }] : [{ do: "stop", next: false }];
  return { ...state, phase: "cancelled", by: by === "cancel" ? "user" : "page", worker: "stopped", out };
}

type Heard = Exclude<LoadEvent, { type: "start" | "cancel" | "dispose" }>;

function heard(state: LoadState, event: Heard): LoadState {
  const shown = state.phase === "ready";
  switch (event.type) {
    case "manifest": {
      const entryId = state.entryId ?? event.manifest.entryId;
      const tab = state.tab ?? event.manifest.tab;
      const setTab: LoadCommand[] = tab ? [{ do: "setTab", tab }] : [];
      return { ...state, entryId, tab, shared: true, out: [...setTab, { do: "shareOpened", manifest: event.manifest }] };
    }
    case "ranges":
      return { ...state, ranged: event.ranged, out: [] };
    case "progress":
      return { ...state, out: [{ do: "progress", done: event.done, total: event.total }] };
    case "slice":
      // once the session is shown, the lines still coming are not news
      return { ...state, out: shown ? [] : [{ do: "progress", done: event.done, total: event.total }] };
    case "snapshot": {
      const { restored } = event.restore;
      const out: LoadCommand[] = restored === "early" ? [{ do: "makeIds" }] : restored === "later" ? [{ do: "resume" }, { do: "makeIds" }] : [{ do: "resume" }];
      return { ...state, snapshot: event.restore, out };
    }
    case "ids made":
      return idsMade(state);
    case "read ahead":
      if (state.phase === "ready" || state.snapshot?.restored !== "early") return { ...state, out: [] };
      return {
        ...state,
        phase: "ready",
        lines: "coming",
        notes: "checked",
        out: [{ do: "measure", name: "session:restored" }, { do: "show", entryId: state.entryId, notes: "as read" }, { do: "resume" }],
      };
    case "end": {
      const out: LoadCommand[] = [{ do: "progress", done: event.done, total: event.total }];
      return state.phase === "ready" ? { ...state, complete: event.complete, out } : { ...state, phase: "indexing", complete: event.complete, out };
    }
    case "indexed":
      return indexed(state, event);
    case "schema":
      return schemaCame(state);
    case "error":
      if (event.error.kind === "locked" && event.unlock)
        return {
          ...state,
          phase: "locked",
          locked: event.error,
          worker: "stopped",
          out: [
            { do: "stop", next: false },
            { do: "locked", locked: event.error },
          ],
        };
      return failed(state, describeLoadError(event.error));
    case "crash":
      // the schema check failed after the session was shown (it stays without those notes), or the lines of one
      // shown before they came stopped coming (it goes on reading its entries by frame)
      if (shown) return { ...state, worker: "stopped", out: [{ do: "textStopped" }, { do: "stop", next: false }] };
      return failed(state, `The file could not be read: ${event.message || "the reader stopped"}.`);
    case "unreadable":
      return failed(state, `The file could not be read: ${event.message}`);
    case "bug":
      return failed(state, `The session could not be indexed: ${event.message}`);
  }
}

/**
 * A restored index with where its frames are is shown once its ids are made and what it shows first is read
 * ahead, if it brought its check; otherwise the worker, holding the lines back until the page has shown what it
 * could, reads on.
 */
function idsMade(state: LoadState): LoadState {
  if (state.snapshot?.restored !== "early") return { ...state, out: [] };
  if (state.snapshot.checked && state.phase !== "ready") return { ...state, out: [{ do: "readAhead", entryId: state.entryId }] };
  return { ...state, out: [{ do: "resume" }] };
}

function indexed(state: LoadState, event: Extract<LoadEvent, { type: "indexed" }>): LoadState {
  const loaded: LoadCommand = { do: "loaded", complete: state.complete };
  if (state.phase === "ready") {
    // shown before its lines came: now it is whole, and live
    return { ...state, lines: "whole", worker: "stopped", out: [{ do: "measure", name: "session:lines" }, { do: "stop", next: true }, loaded] };
  }
  const measure: LoadCommand = { do: "measure", name: event.restored ? "session:restored" : "session:parsed" };
  if (event.restored && event.checked) {
    // the server checked the lines when it made the snapshot: the worker has nothing left to do
    const out: LoadCommand[] = [measure, { do: "stop", next: true }, { do: "show", entryId: state.entryId, notes: "as read" }, loaded];
    return { ...state, phase: "ready", lines: "whole", notes: "checked", worker: "stopped", out };
  }
  const check: LoadCommand[] = state.snapshot ? [{ do: "check" }] : [];
  // the schema check only adds notes: a session with entries is shown at once and gets them when they come; an
  // empty one waits, as its notes are all there is to show
  if (event.entries === 0) return { ...state, out: [measure, ...check] };
  const out: LoadCommand[] = [measure, ...check, { do: "show", entryId: state.entryId, notes: "pending" }, loaded];
  return { ...state, phase: "ready", lines: "whole", notes: "pending", out };
}

function schemaCame(state: LoadState): LoadState {
  const stop: LoadCommand[] = [
    { do: "measure", name: "session:schema" },
    { do: "stop", next: true },
  ];
  if (state.phase === "ready") return { ...state, notes: "checked", worker: "stopped", out: [...stop, { do: "acceptNotes" }] };
  if (state.phase === "indexing") {
    const out: LoadCommand[] = [...stop, { do: "show", entryId: state.entryId, notes: "from worker" }, { do: "loaded", complete: state.complete }];
    return { ...state, phase: "ready", lines: "whole", notes: "checked", worker: "stopped", out };
  }
  // (the worker checks only after the end: no session to note)
  return { ...state, worker: "stopped", out: stop };
}
