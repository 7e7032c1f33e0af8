// Highlighting for the page: the highlighter's module is loaded when code first shows, small blocks are
// highlighted in the page and big ones by a worker (highlight.worker.ts), where one can be started.
import type { CodeLine } from "@/lib/render/code-lines";
import type { HighlightReply, HighlightRequest } from "./highlight-protocol";

/** below this many characters a block is highlighted in the page: the trip to a worker costs more */
const IN_PAGE_CHARS = 32 * 1024;
/** with no worker, blocks above this stay plain: one grammar walk over them would freeze the page */
const NO_WORKER_MAX_CHARS = 256 * 1024;

let makeWorker: (() => Worker) | null = () => new Worker(new URL("./highlight.worker.ts", import.meta.url), { type: "module" });

/** The standalone viewer bundles no highlight worker (null): it highlights what is small enough in the page. */
export function setHighlightWorkerFactory(factory: (() => Worker) | null): void {
  makeWorker = factory;
}

let worker: Worker | null = null;
let nextId = 1;
const waiting = new Map<number, (lines: CodeLine[] | null) => void>();

function started(): Worker | null {
  if (worker || !makeWorker || typeof Worker === "undefined") return worker;
  const made = makeWorker();
  made.onmessage = (event: MessageEvent<HighlightReply>) => {
    waiting.get(event.data.id)?.(event.data.lines);
    waiting.delete(event.data.id);
  };
  made.onerror = () => {
    for (const done of waiting.values()) done(null);
    waiting.clear();
    made.terminate();
    makeWorker = null;
    worker = null;
  };
  return (worker = made);
}

/** blocks waiting to be highlighted in the page: many small ones (a reply with 200 code blocks) are done a slice of time at a task */
const queue: (() => void)[] = [];
const SLICE_MS = 8;

function pump(): void {
  const start = performance.now();
  while (queue.length && performance.now() - start < SLICE_MS) queue.shift()!();
  if (queue.length) setTimeout(pump, 0);
}

/** The code's highlighted lines, or null when it stays plain (too big for the page with no worker, or the worker failed). */
export async function highlightCode(code: string, language: string): Promise<CodeLine[] | null> {
  const off = code.length > IN_PAGE_CHARS ? started() : null;
  if (!off) {
    if (code.length > NO_WORKER_MAX_CHARS) return null;
    const { highlightLines } = await import("@/lib/render/highlight");
    return new Promise((done) => {
      queue.push(() => done(highlightLines(code, language)));
      if (queue.length === 1) setTimeout(pump, 0);
    });
  }
  const id = nextId++;
  return new Promise<CodeLine[] | null>((done) => {
    waiting.set(id, done);
    off.postMessage({ id, code, language } satisfies HighlightRequest);
  });
}
