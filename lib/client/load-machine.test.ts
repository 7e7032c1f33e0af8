// The load's transitions on their own: which state each event leads to and what the driver is told to do, for
// each way a load goes, and that an ended load hears nothing.
import { describe, expect, it } from "vitest";
import type { ShareManifest } from "@/lib/share/manifest";
import { describeLoadError, idleLoad, nextLoadState, type LoadCommand, type LoadEvent, type LoadState } from "./load-machine";
import { manifestOf } from "./testing/load-harness";

const idle = (restore: { entryId?: string | null; shared?: boolean } = {}) =>
  idleLoad({ fileName: "a.jsonl", entryId: restore.entryId ?? null, tab: null, shared: restore.shared ?? false });

/** The state after `events`, from `from`. */
const after = (from: LoadState, ...events: LoadEvent[]): LoadState => events.reduce(nextLoadState, from);
const did = (state: LoadState): LoadCommand["do"][] => state.out.map((command) => command.do);

const started: LoadEvent = { type: "start" };
const slice: LoadEvent = { type: "slice", done: 10, total: 100 };
const end: LoadEvent = { type: "end", done: 100, total: 100, complete: 99 };
const parsed = (entries = 3): LoadEvent => ({ type: "indexed", restored: false, checked: false, entries });
const restoredIndex = (checked: boolean): LoadEvent => ({ type: "indexed", restored: true, checked, entries: 3 });
const early = (checked = true): LoadEvent => ({ type: "snapshot", restore: { restored: "early", checked } });
const manifest: ShareManifest = manifestOf("theirs.jsonl", 100, { entryId: "e9", tab: "stats" });

/** One of each event, with what it carries. */
const EVERY: LoadEvent[] = [
  started,
  { type: "manifest", manifest },
  { type: "ranges", ranged: true },
  { type: "progress", done: 1, total: 2 },
  early(),
  { type: "snapshot", restore: { restored: "later" } },
  { type: "ids made" },
  { type: "read ahead" },
  slice,
  end,
  parsed(),
  restoredIndex(true),
  { type: "schema" },
  { type: "error", error: { kind: "http", status: 404, message: "no such session file" }, unlock: true },
  { type: "error", error: { kind: "locked", lock: "key", wrong: false, message: "sealed" }, unlock: true },
  { type: "crash", message: "boom" },
  { type: "unreadable", message: "gone" },
  { type: "bug", message: "oops" },
  { type: "cancel" },
  { type: "dispose" },
];

/** Nothing that comes later moves `state` or asks anything of the driver. */
function expectEnded(state: LoadState): void {
  for (const event of EVERY) expect(nextLoadState(state, event), event.type).toEqual({ ...state, out: [] });
}

describe("a load read to its end", () => {
  it("reads, indexes, is shown with its notes to come and handed to the live tail, then takes its notes and lets the worker go", () => {
    const reading = after(idle(), started);
    expect(reading).toMatchObject({ phase: "reading", worker: "running" });
    expect(did(reading)).toEqual(["announce", "ask"]);
    expect(after(reading, slice).out).toEqual([{ do: "progress", done: 10, total: 100 }]);
    const indexing = after(reading, slice, end);
    expect(indexing).toMatchObject({ phase: "indexing", complete: 99 });
    expect(indexing.out).toEqual([{ do: "progress", done: 100, total: 100 }]);
    const ready = after(indexing, parsed());
    expect(ready).toMatchObject({ phase: "ready", lines: "whole", notes: "pending", worker: "running" });
    expect(ready.out).toEqual([
      { do: "measure", name: "session:parsed" },
      { do: "show", entryId: null, notes: "pending" },
      { do: "loaded", complete: 99 },
    ]);
    const noted = after(ready, { type: "schema" });
    expect(noted).toMatchObject({ phase: "ready", notes: "checked", worker: "stopped" });
    expect(noted.out).toEqual([{ do: "measure", name: "session:schema" }, { do: "stop", next: true }, { do: "acceptNotes" }]);
    expectEnded(noted);
  });

  it("restores the tab a link names before anything is read", () => {
    const state = after(idleLoad({ fileName: "a.jsonl", entryId: "e1", tab: "context", shared: false }), started);
    expect(state.out).toEqual([{ do: "announce" }, { do: "setTab", tab: "context" }, { do: "ask" }]);
  });

  it("without entries, waits for its notes (all there is to show), then is shown with them", () => {
    const indexing = after(idle(), started, end, parsed(0));
    expect(indexing.phase).toBe("indexing");
    expect(did(indexing)).toEqual(["measure"]);
    const ready = after(indexing, { type: "schema" });
    expect(ready).toMatchObject({ phase: "ready", notes: "checked", worker: "stopped" });
    expect(ready.out).toEqual([
      { do: "measure", name: "session:schema" },
      { do: "stop", next: true },
      { do: "show", entryId: null, notes: "from worker" },
      { do: "loaded", complete: 99 },
    ]);
  });

  it("a share's manifest: what its sender selected applies unless the link named its own, and its content is kept", () => {
    const shared = after(idle(), started, { type: "manifest", manifest });
    expect(shared).toMatchObject({ entryId: "e9", tab: "stats", shared: true });
    expect(shared.out).toEqual([
      { do: "setTab", tab: "stats" },
      { do: "shareOpened", manifest },
    ]);
    expect(after(idle({ entryId: "e1" }), started, { type: "manifest", manifest }).entryId).toBe("e1");
    expect(after(idle(), started, { type: "ranges", ranged: true }).ranged).toBe(true);
  });

  it("a refused file fails before anything is asked", () => {
    const refused = after(idle(), { type: "start", refusal: "Too large." });
    expect(refused).toMatchObject({ phase: "failed", message: "Too large.", fileName: "a.jsonl" });
    expect(refused.out).toEqual([{ do: "announce" }, { do: "fail", message: "Too large." }]);
    expectEnded(refused);
  });
});

describe("a library file opened again (a snapshot of its index)", () => {
  it("restored with where its frames are and its check: shown once its ids are made and its first view read ahead", () => {
    const restoring = after(idle({ entryId: "e2" }), started, early());
    expect(did(restoring)).toEqual(["makeIds"]);
    const reading = after(restoring, { type: "ids made" });
    expect(reading.out).toEqual([{ do: "readAhead", entryId: "e2" }]);
    const shown = after(reading, { type: "read ahead" });
    expect(shown).toMatchObject({ phase: "ready", lines: "coming", notes: "checked", worker: "running" });
    expect(shown.out).toEqual([{ do: "measure", name: "session:restored" }, { do: "show", entryId: "e2", notes: "as read" }, { do: "resume" }]);
    // its lines come on: no progress, but the end's; once they have, it is whole and live
    expect(after(shown, slice).out).toEqual([]);
    expect(did(after(shown, end))).toEqual(["progress"]);
    const whole = after(shown, end, restoredIndex(true));
    expect(whole).toMatchObject({ phase: "ready", lines: "whole", worker: "stopped" });
    expect(whole.out).toEqual([
      { do: "measure", name: "session:lines" },
      { do: "stop", next: true },
      { do: "loaded", complete: 99 },
    ]);
    expectEnded(whole);
  });

  it("whose lines all came before what it shows first was read: shown at their end, and the read-ahead changes nothing", () => {
    const ready = after(idle(), started, early(), { type: "ids made" }, end, restoredIndex(true));
    expect(ready).toMatchObject({ phase: "ready", lines: "whole", worker: "stopped" });
    expect(did(ready)).toEqual(["measure", "stop", "show", "loaded"]);
    expectEnded(ready);
  });

  it("restored early without a check: the worker goes on at once, checks the lines, and the session is shown at their end", () => {
    const reading = after(idle(), started, early(false), { type: "ids made" });
    expect(reading.out).toEqual([{ do: "resume" }]);
    const ready = after(reading, end, restoredIndex(false));
    expect(ready).toMatchObject({ phase: "ready", notes: "pending" });
    expect(did(ready)).toEqual(["measure", "check", "show", "loaded"]);
  });

  it("restored without where its frames are: the worker goes on at once, and the session is shown at the end with the server's check", () => {
    const reading = after(idle(), started, { type: "snapshot", restore: { restored: "later" } });
    expect(did(reading)).toEqual(["resume", "makeIds"]);
    expect(after(reading, { type: "ids made" }).out).toEqual([]);
    const ready = after(reading, { type: "ids made" }, slice, end, restoredIndex(true));
    expect(ready.out).toEqual([
      { do: "measure", name: "session:restored" },
      { do: "stop", next: true },
      { do: "show", entryId: null, notes: "as read" },
      { do: "loaded", complete: 99 },
    ]);
  });

  it("not restored: its lines are read as a first open's are, and the worker, which kept none, is given them to check", () => {
    const reading = after(idle(), started, { type: "snapshot", restore: { restored: "no" } });
    expect(did(reading)).toEqual(["resume"]);
    const ready = after(reading, slice, end, parsed());
    expect(did(ready)).toEqual(["measure", "check", "show", "loaded"]);
    expect(ready.out[0]).toEqual({ do: "measure", name: "session:parsed" });
  });
});

describe("Cancel and dispose", () => {
  const points: [string, LoadState][] = [
    ["idle", idle()],
    ["reading", after(idle(), started, slice)],
    ["reading ahead", after(idle(), started, early(), { type: "ids made" })],
    ["indexing", after(idle(), started, end, parsed(0))],
  ];

  it.each(points)("Cancel while %s: cancelled, said to the store, and nothing later moves it", (_, state) => {
    const cancelled = nextLoadState(state, { type: "cancel" });
    expect(cancelled).toMatchObject({ phase: "cancelled", by: "user", worker: "stopped" });
    expect(cancelled.out).toEqual([{ do: "stop", next: false }, { do: "cancelled" }]);
    expectEnded(cancelled);
  });

  it.each(points)("dispose while %s: cancelled without a word, and nothing later moves it", (_, state) => {
    const disposed = nextLoadState(state, { type: "dispose" });
    expect(disposed).toMatchObject({ phase: "cancelled", by: "page" });
    expect(disposed.out).toEqual([{ do: "stop", next: false }]);
    expectEnded(disposed);
  });

  it("Cancel once shown does nothing; dispose then stops the worker, and its replies no longer count", () => {
    for (const shown of [after(idle(), started, end, parsed()), after(idle(), started, early(), { type: "ids made" }, { type: "read ahead" })]) {
      expect(nextLoadState(shown, { type: "cancel" })).toEqual({ ...shown, out: [] });
      const disposed = nextLoadState(shown, { type: "dispose" });
      expect(disposed).toMatchObject({ phase: "ready", worker: "stopped" });
      expect(disposed.out).toEqual([{ do: "stop", next: false }]);
      expectEnded(disposed);
    }
  });
});

describe("failures", () => {
  const failing: [string, LoadState][] = [
    ["reading", after(idle(), started, slice)],
    ["indexing", after(idle(), started, end, parsed(0))],
  ];

  it.each(failing)("while %s: failed, with what is said of the file it started on, and nothing later moves it", (_, state) => {
    const cases: [LoadEvent, string][] = [
      [{ type: "error", error: { kind: "http", status: 404, message: "no such session file" }, unlock: true }, "No such session file."],
      [{ type: "crash", message: "out of memory" }, "The file could not be read: out of memory."],
      [{ type: "crash", message: "" }, "The file could not be read: the reader stopped."],
      [{ type: "unreadable", message: "NotReadableError" }, "The file could not be read: NotReadableError"],
      [{ type: "bug", message: "x is undefined" }, "The session could not be indexed: x is undefined"],
    ];
    for (const [event, message] of cases) {
      const failed = nextLoadState(state, event);
      expect(failed).toMatchObject({ phase: "failed", fileName: "a.jsonl", message, worker: "stopped" });
      expect(failed.out).toEqual([
        { do: "stop", next: false },
        { do: "fail", message },
      ]);
      expectEnded(failed);
    }
  });

  it("a sealed share asks for its secret where the page can, and fails where it cannot", () => {
    const error = { kind: "locked", lock: "password", wrong: true, message: "That password does not open this session." } as const;
    const locked = after(idle({ shared: true }), started, { type: "error", error, unlock: true });
    expect(locked).toMatchObject({ phase: "locked", locked: error });
    expect(locked.out).toEqual([
      { do: "stop", next: false },
      { do: "locked", locked: error },
    ]);
    expectEnded(locked);
    expect(after(idle({ shared: true }), started, { type: "error", error, unlock: false })).toMatchObject({ phase: "failed", message: error.message });
  });

  it("once shown, the worker failing leaves the session as it is, and stops its lines from being waited for", () => {
    for (const shown of [after(idle(), started, end, parsed()), after(idle(), started, early(), { type: "ids made" }, { type: "read ahead" })]) {
      const crashed = nextLoadState(shown, { type: "crash", message: "boom" });
      expect(crashed).toMatchObject({ phase: "ready", worker: "stopped" });
      expect(crashed.out).toEqual([{ do: "textStopped" }, { do: "stop", next: false }]);
      expectEnded(crashed);
    }
  });

  it("shown before its lines came, an error the worker sends still fails the load", () => {
    const shown = after(idle(), started, early(), { type: "ids made" }, { type: "read ahead" });
    const failed = nextLoadState(shown, { type: "error", error: { kind: "read", message: "The light index ended early." }, unlock: false });
    expect(failed).toMatchObject({ phase: "failed", message: "The light index ended early." });
  });

  it("says the server's answers for people", () => {
    expect(describeLoadError({ kind: "http", status: 400, message: "bad path" })).toBe("This path cannot be opened: bad path.");
    expect(describeLoadError({ kind: "http", status: 403, message: "outside" })).toBe("This path cannot be opened: outside.");
    expect(describeLoadError({ kind: "http", status: 502, message: "Bad Gateway" })).toBe("The server answered 502: Bad Gateway.");
    expect(describeLoadError({ kind: "network", message: "offline" })).toBe("offline");
  });
});
