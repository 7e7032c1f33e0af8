// A page for the loader's tests: the targets the viewer builds for each source, a store that writes down what it
// is told, a server whose files answer byte ranges, and loadSession started on a FakeParseWorker.
import { vi } from "vitest";
import type { Session } from "@/lib/session";
import type { ShareManifest } from "@/lib/share/manifest";
import { loadSession, setParseWorkerFactory, type LoadedSession, type LoadJob, type LoadSink, type LoadTarget, type LockedShare } from "../load-session";
import { FakeParseWorker } from "./fake-parse-worker";

const PAGE = "http://viewer.test/view";

/** The page the loader runs in (it makes URLs absolute against it, and reads a File itself on a file:// page). */
export function pageAt(href = PAGE): void {
  vi.stubGlobal("window", { location: new URL(href) });
}

export function libraryTarget(path: string, restore: Pick<LoadTarget, "entryId" | "tab"> = { entryId: null, tab: null }): LoadTarget {
  return {
    request: { kind: "url", url: `/api/sessions/raw?path=${encodeURIComponent(path)}`, light: `/api/sessions/light?path=${encodeURIComponent(path)}` },
    source: { kind: "server", path },
    fileName: path.slice(path.lastIndexOf("/") + 1),
    ...restore,
  };
}

export function uploadTarget(file: File): LoadTarget {
  return { request: { kind: "file", file }, source: { kind: "upload", name: file.name, size: file.size, file }, fileName: file.name, entryId: null, tab: null };
}

export function urlTarget(src: string): LoadTarget {
  return { request: { kind: "url", url: src }, source: { kind: "url", url: src }, fileName: src.slice(src.lastIndexOf("/") + 1), entryId: null, tab: null };
}

export function shareTarget(text = "payload"): LoadTarget {
  return { request: { kind: "share", text }, source: { kind: "share" }, fileName: "shared session", entryId: null, tab: null };
}

export function manifestOf(fileName: string, bytes: number, selected: Pick<ShareManifest, "entryId" | "tab">): ShareManifest {
  return {
    format: "pi-session-viewer/share",
    version: 1,
    scope: "session",
    fileName,
    title: null,
    createdAt: "2026-03-01T12:00:00.000Z",
    generator: "test",
    redaction: null,
    images: null,
    lines: 0,
    bytes,
    ...selected,
  };
}

/** What the store heard, in order, and the sessions it was given. */
export function recordingSink(): { sink: LoadSink; told: string[]; shown: Session[] } {
  const told: string[] = [];
  const shown: Session[] = [];
  const sink: LoadSink = {
    startLoading: (source, fileName, total) => told.push(`start ${source.kind} ${fileName} ${total}`),
    setTab: (tab) => told.push(`tab ${tab}`),
    shareOpened: (share) => told.push(`share ${share.fileName}`),
    progress: (done, total) => told.push(`progress ${done}/${total}`),
    failLoading: (error) => told.push(`fail ${error}`),
    sessionReady: (session, entryId) => {
      shown.push(session);
      told.push(`ready ${entryId}`);
    },
    diagnosticsChanged: () => told.push("diagnostics"),
  };
  return { sink, told, shown };
}

export interface Load {
  worker: FakeParseWorker;
  job: LoadJob;
  told: string[];
  shown: Session[];
  /** what reached the live tail's hand-off */
  loaded: LoadedSession[];
  locked: LockedShare[];
}

export function startLoad(target: LoadTarget): Load {
  const worker = new FakeParseWorker();
  setParseWorkerFactory(() => worker.asWorker());
  const { sink, told, shown } = recordingSink();
  const loaded: LoadedSession[] = [];
  const locked: LockedShare[] = [];
  const job = loadSession(
    target,
    sink,
    (done) => loaded.push(done),
    (share) => locked.push(share),
  );
  return { worker, job, told, shown, loaded, locked };
}

/** Lets the loader's tasks run (it reads a slice of lines per task) until `done()`, failing if it never is. */
export async function until(done: () => boolean, what = "the loader to get there"): Promise<void> {
  for (let round = 0; round < 2000; round++) {
    if (done()) return;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  throw new Error(`waited in vain for ${what}`);
}

/** Lets every task the loader has queued run (what a reply set off has happened by then). */
export async function settle(): Promise<void> {
  for (let round = 0; round < 50; round++) await new Promise((resolve) => setTimeout(resolve, 0));
}

export interface Served {
  file: Uint8Array;
  /** the kept light index's frames */
  frames?: Uint8Array;
  /** what a range of the frames waits for before it is answered */
  framesHeld?: Promise<void>;
  /** 412: the kept index is another one now (the file was replaced) */
  framesGone?: boolean;
}

/**
 * A server holding a library file and its kept light index, answering byte ranges of either (206) as
 * /api/sessions/raw and /api/sessions/light?…&index= do. `file` may be replaced to play a file that changed.
 */
export function serveRanges(served: Served): { ranges: string[] } {
  const ranges: string[] = [];
  vi.stubGlobal("fetch", async (input: string | URL, init?: RequestInit) => {
    const url = new URL(String(input), PAGE);
    const range = new Headers(init?.headers).get("range");
    const frames = url.searchParams.has("index");
    ranges.push(`${url.pathname}${frames ? "#index" : ""} ${range}`);
    if (frames) await served.framesHeld;
    if (frames && served.framesGone) return Response.json({ error: "gone" }, { status: 412 });
    const bytes = frames ? served.frames : served.file;
    const wanted = range && /^bytes=(\d+)-(\d+)$/.exec(range);
    if (!bytes || !wanted) return new Response("no", { status: 400 });
    const start = Number(wanted[1]);
    if (start >= bytes.byteLength) return new Response("", { status: 416 });
    return new Response(bytes.slice(start, Number(wanted[2]) + 1), { status: 206 });
  });
  return { ranges };
}

const CUT = "lorem ipsum dolor sit amet ".repeat(40);
const usage = { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

/**
 * A linear session of `count` messages whose texts are long enough to be cut in the light lines (so they are read
 * again from the file when shown), each ending in `MARK<id>`; ids are `prefix` and a 6-digit number. An answer's
 * usage count written as a string is what pi's schema check notes.
 */
export function cutSession(prefix: string, count = 4): string {
  const at = (s: number) => new Date(Date.UTC(2026, 2, 1, 12, 0, s)).toISOString();
  const id = (n: number) => `${prefix}${String(n).padStart(6, "0")}`;
  const lines: object[] = [{ type: "session", version: 3, id: "0199f0aa-1111-7222-8333-444455556666", timestamp: at(0), cwd: "/home/dev/load" }];
  for (let n = 1; n <= count; n++) {
    const message =
      n % 2
        ? { role: "user", content: `${CUT}MARK${id(n)}`, timestamp: n }
        : {
            role: "assistant",
            content: [{ type: "text", text: `${CUT}MARK${id(n)}` }],
            api: "anthropic-messages",
            provider: "anthropic",
            model: "claude-sonnet-4-5",
            usage: n === 2 ? { ...usage, input: "many" } : usage,
            stopReason: "stop",
            timestamp: n,
          };
    lines.push({ type: "message", id: id(n), parentId: n > 1 ? id(n - 1) : null, timestamp: at(n), message });
  }
  return lines.map((line) => `${JSON.stringify(line)}\n`).join("");
}
