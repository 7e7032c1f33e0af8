// The page's side of layout.worker.ts: one worker for the page, started ahead of the first big layout.
import { tidyXs } from "@/lib/layout/tidy-layout";
import type { LayoutReply, LayoutRequest } from "./layout-protocol";

let makeWorker: (() => Worker) | null = () => new Worker(new URL("./layout.worker.ts", import.meta.url), { type: "module" });

/** The standalone viewer bundles no layout worker: it lays out in the page (null). */
export function setLayoutWorkerFactory(factory: (() => Worker) | null): void {
  makeWorker = factory;
}

let worker: Worker | null = null;
let nextId = 1;
const waiting = new Map<number, { done: (xs: Float64Array) => void; failed: (error: Error) => void }>();

/** Starts the worker ahead of a layout (its script is fetched and compiled meanwhile); nothing where there is none. */
export function prepareLayout(): Worker | null {
  if (worker || !makeWorker || typeof Worker === "undefined") return worker;
  const started = makeWorker();
  started.onmessage = (event: MessageEvent<LayoutReply>) => {
    const { id, xs } = event.data;
    waiting.get(id)?.done(xs);
    waiting.delete(id);
  };
  started.onerror = (event) => {
    // what was asked is laid out in the page, and so is what is asked later
    const error = new Error(event.message || "the layout worker stopped");
    for (const { failed } of waiting.values()) failed(error);
    waiting.clear();
    started.terminate();
    makeWorker = null;
    worker = null;
  };
  return (worker = started);
}

/**
 * Each node's x in the tidy tree (tidyXs) of `parents` (TreeOrder's), computed by the worker where one can be
 * started, else in the page.
 */
export function tidyXsOffThread(parents: Int32Array): Promise<Float64Array> {
  const started = prepareLayout();
  if (!started) return Promise.resolve(tidyXs(parents));
  const id = nextId++;
  const start = performance.now();
  return new Promise<Float64Array>((done, failed) => {
    waiting.set(id, {
      done: (xs) => {
        // (a user-timing measure, as the loader's: how long the trip took, and that the worker made it)
        performance.measure("graph:layout-worker", { start });
        done(xs);
      },
      failed,
    });
    const copy = parents.slice();
    started.postMessage({ id, parents: copy } satisfies LayoutRequest, [copy.buffer]);
  }).catch(() => tidyXs(parents));
}
